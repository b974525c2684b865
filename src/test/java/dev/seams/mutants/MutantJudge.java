package dev.seams.mutants;

import dev.seams.fixture.Pipeline;
import dev.seams.report.FailureLine;
import dev.seams.report.Gate;
import dev.seams.report.Verdict;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a mutant's build killed (docs/mutants.md "A kill is a check that fired"): a red entry that is red in the unmutated
 * control too, ENVIRONMENT, or in a build that timed out is no kill; a red entry whose failures are only timeouts and
 * exceptions ({@link FailureLine}) is caught only by a timeout or a crash, recorded as such and no kill either; every other
 * red entry is a kill, credited to the check that fired — the entry's own, or the shared settle precondition.
 */
final class MutantJudge {

    /** How a red entry caught only by a timeout or a crash is recorded among the entries that are no kill. */
    static final String CAUGHT_ONLY = "caught only by a timeout or a crash: ";

    private MutantJudge() {
    }

    /**
     * One build's judgement.
     *
     * @param kills      entry id → its gate line, for the kills
     * @param notCounted entry id → why its red is no kill (ENVIRONMENT, red in the control, timed out, caught only by a
     *                   timeout or a crash: {@link #CAUGHT_ONLY})
     * @param credits    each kill → the check it is credited to
     * @param failures   every red entry → all its failure lines, not only the first
     */
    record Judged(Map<String, String> kills, Map<String, String> notCounted, Map<String, String> credits,
                  Map<String, List<String>> failures) {
    }

    /**
     * @param entry    the entry that turned red
     * @param failures its failures (every missed expectation, anomaly and what the test threw), or its reason alone
     * @return the check its kill is credited to: the entry itself when any failure is its own check (or it has none: a proof
     *     that vanished), else {@link MutantRun#SETTLE_PRECONDITION} when any is the shared settle's ({@link
     *     Pipeline#isSettleFailure}), else null: only timeouts and exceptions, no check fired
     */
    static String credit(String entry, List<String> failures) {
        if (failures.isEmpty() || failures.stream().anyMatch(f -> !Pipeline.isSettleFailure(f) && FailureLine.kind(f) == FailureLine.Kind.CHECK)) {
            return entry;
        }
        return failures.stream().anyMatch(Pipeline::isSettleFailure) ? MutantRun.SETTLE_PRECONDITION : null;
    }

    /**
     * @param report     the build's {@code guarantees.json}
     * @param gate       the baseline
     * @param controlRed the entries red in the control build
     * @param timedOut   whether the build was killed at its bound (then nothing counts)
     * @return the kills, the red entries that are no kill, the credits and every red entry's failures
     */
    @SuppressWarnings("unchecked")
    static Judged judge(Map<String, Object> report, Gate gate, Set<String> controlRed, boolean timedOut) {
        Map<String, String> red = new LinkedHashMap<>();
        Map<String, Map<String, Object>> byId = new LinkedHashMap<>();
        List<Map<String, Object>> claims = (List<Map<String, Object>>) report.getOrDefault("claims", List.of());
        claims.forEach(e -> byId.put(String.valueOf(e.get("id")), e));
        gate.regressions(report).forEach(r -> red.put(r.id(), r.line()));
        claims.stream().filter(e -> Verdict.FAIL.name().equals(e.get("verdict")))
                .forEach(e -> red.putIfAbsent(String.valueOf(e.get("id")), e.get("id") + ": FAIL (" + e.getOrDefault("reason", "") + ")"));
        Judged judged = new Judged(new LinkedHashMap<>(), new LinkedHashMap<>(), new LinkedHashMap<>(), new LinkedHashMap<>());
        red.forEach((id, line) -> {
            // a part the run did not produce (MISSING) is judged by its claim entry: its ENVIRONMENT, its failures
            Map<String, Object> entry = byId.getOrDefault(id, byId.getOrDefault(String.valueOf(gate.parentOf(id)), Map.of()));
            List<String> failures = (List<String>) entry.getOrDefault("failures",
                    entry.get("reason") == null ? List.of() : List.of(String.valueOf(entry.get("reason"))));
            judged.failures().put(id, List.copyOf(failures));
            String credit = credit(id, failures);
            if (timedOut) {
                judged.notCounted().put(id, "the build timed out: " + line);
            } else if (Verdict.ENVIRONMENT.name().equals(entry.get("verdict"))) {
                judged.notCounted().put(id, Verdict.ENVIRONMENT.name() + ": " + line);
            } else if (controlRed.contains(id)) {
                judged.notCounted().put(id, "red in the unmutated control build too: " + line);
            } else if (credit == null) {
                judged.notCounted().put(id, CAUGHT_ONLY + line);
            } else {
                judged.kills().put(id, line);
                judged.credits().put(id, credit);
            }
        });
        return judged;
    }
}
