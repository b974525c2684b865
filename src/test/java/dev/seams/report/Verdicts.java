package dev.seams.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.opentest4j.TestAbortedException;

/**
 * The verdict engine (docs/claims.md "Rules every claim test follows"): derives a claim's verdict from
 * what its evidence recorded and how its test ended, so that a test can never report more than its
 * evidence shows. In order:
 * <ol>
 *   <li>{@link Verdict#NOT_RUN} if the test ended with a {@link NotApplicableException} (in the cause chain): the
 *       claim cannot apply to what is under test, e.g. the chosen sink has no DLQ;</li>
 *   <li>{@link Verdict#ENVIRONMENT} if the test ended with an {@link EnvironmentException} (in the cause chain);</li>
 *   <li>{@link Verdict#FAIL} if the test threw anything else (an assertion, a clean-up that failed),
 *       if any stated expectation was missed ({@link Check}: whether or not the test also asserted it),
 *       or if any anomaly count is above 0;</li>
 *   <li>{@link Verdict#UNVERIFIED} if the fault did not take effect or the feature is missing:
 *       {@link FaultNotObservedException} or a JUnit assumption ended the test, the test declared
 *       {@link ClaimEvidence#unverified}, or a negative control showed no anomaly;</li>
 *   <li>{@link Verdict#PASS} otherwise.</li>
 * </ol>
 */
public final class Verdicts {

    /**
     * A derived verdict.
     *
     * @param verdict  the verdict
     * @param reason   why, for every verdict but PASS (null for PASS)
     * @param failures every missed expectation and anomaly, one line each (empty for PASS)
     */
    public record Outcome(Verdict verdict, String reason, List<String> failures) {
    }

    private Verdicts() {
    }

    /**
     * @param e      the claim's evidence
     * @param thrown what the test (or its clean-up) threw, or null
     * @return the verdict with its reason
     */
    public static Outcome decide(ClaimEvidence e, Throwable thrown) {
        List<String> failures = new ArrayList<>();
        List<String> unverified = new ArrayList<>(e.unverifiedReasons());
        e.anomalies().forEach((anomaly, count) -> {
            if (count > 0) {
                failures.add("anomaly " + anomaly.key() + " = " + count);
            }
        });
        Map<String, Anomaly> controls = e.controls();
        e.expectations().values().forEach(x -> {
            if (x.met()) {
                return;
            }
            String line = x.figure() + " = " + x.measured() + ", expected " + x.expected() + " (" + x.why() + ")";
            if (controls.containsKey(x.figure())) {
                unverified.add("negative control showed no " + controls.get(x.figure()).key() + ": " + line);
            } else {
                failures.add(line);
            }
        });
        if (thrown != null) {
            NotApplicableException notApplicable = cause(thrown, NotApplicableException.class);
            if (notApplicable != null) {
                return new Outcome(Verdict.NOT_RUN, message(notApplicable), List.of());
            }
            if (hasCause(thrown, EnvironmentException.class)) {
                return new Outcome(Verdict.ENVIRONMENT, message(thrown), failures);
            }
            if (hasCause(thrown, FaultNotObservedException.class) || hasCause(thrown, TestAbortedException.class)) {
                unverified.add(0, message(thrown));
            } else {
                failures.add(0, FailureLine.of(thrown));   // a timeout or an exception says so: never taken for a check
            }
        }
        if (!failures.isEmpty()) {
            return new Outcome(Verdict.FAIL, failures.get(0), List.copyOf(failures));
        }
        if (!unverified.isEmpty()) {
            return new Outcome(Verdict.UNVERIFIED, String.join("; ", unverified), List.of());
        }
        return new Outcome(Verdict.PASS, null, List.of());
    }

    /**
     * A part is never PASS while its claim does not PASS (issue 21; issue 36 §2): e.g. {@code B5[clickhouse-stop@50%]}
     * proved its injection, but the run it belongs to lost records (FAIL), or its claim's own proof did not hold
     * (UNVERIFIED), or the stand failed under it (ENVIRONMENT). A PASS part takes its claim's verdict, with the claim's
     * reason; any other verdict of the part stands.
     *
     * @param part     the part's own verdict
     * @param parentId its claim entry's id
     * @param parent   its claim entry's verdict
     * @return the part's verdict
     */
    public static Outcome partOf(Outcome part, String parentId, Outcome parent) {
        if (part.verdict() != Verdict.PASS || parent.verdict() == Verdict.PASS) {
            return part;
        }
        String reason = "its claim " + parentId + (parent.verdict() == Verdict.FAIL ? " failed" : " is " + parent.verdict())
                + ": " + parent.reason();
        return new Outcome(parent.verdict(), reason, parent.verdict() == Verdict.FAIL ? List.of(reason) : List.of());
    }

    private static String message(Throwable t) {
        String m = t.getMessage();
        return m == null ? t.getClass().getName() : m.strip();
    }

    static boolean hasCause(Throwable t, Class<? extends Throwable> type) {
        return cause(t, type) != null;
    }

    /** @return the first throwable of that type in the cause chain or among the suppressed ones, or null */
    static <T extends Throwable> T cause(Throwable t, Class<T> type) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (type.isInstance(c)) {
                return type.cast(c);
            }
            for (Throwable s : c.getSuppressed()) {
                T found = cause(s, type);
                if (found != null) {
                    return found;
                }
            }
        }
        return null;
    }
}
