package dev.seams.report;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.LongSupplier;

/**
 * The time a tier's claims may take, so that a broken pipeline ends in a red report inside the tier's budget instead of
 * a run that outlasts CI (docs/claims.md "A regression fails fast"). Two bounds, both counted from
 * the first claim of this JVM:
 * <ul>
 *   <li>{@value #BUDGET_PROPERTY}: the tier's claims start no later than this; the rest are NOT_RUN.</li>
 *   <li>{@value #STALLED_PROPERTY}: once a claim found the pipeline stalled ({@link #pipelineStalled}: nothing moves
 *       and it differs from PostgreSQL, or it never settled), the claims still to start get this much more time; every
 *       one of them would wait out the same stall.</li>
 * </ul>
 * A claim already running when a bound passes ends on its own waits. A tier that stopped this way is red: the report's
 * overall line says FAIL with the reason ({@link Markdown}), and the build's gate execution fails on the file
 * {@link ReportWriter} leaves ({@link GateCheck#stops}). Unset or 0: no bound (a unit test, a sample claim).
 */
public final class TierClock {

    /** The system property bounding the tier's claims, seconds (pom.xml per tier; unset or 0: none). */
    public static final String BUDGET_PROPERTY = "seams.tier.budget.seconds";
    /** The system property bounding the rest of the tier once the pipeline stalled, seconds (pom.xml; unset or 0: none). */
    public static final String STALLED_PROPERTY = "seams.tier.stalled.seconds";

    private static volatile TierClock jvm = new TierClock(System::nanoTime, Long.getLong(BUDGET_PROPERTY, 0),
            Long.getLong(STALLED_PROPERTY, 0));

    private final LongSupplier nanos;
    private final long budgetSeconds;
    private final long stalledSeconds;
    private long startNanos = -1;
    private long stalledNanos = -1;
    private String stalledBy;
    private String running = "the tier's first claim";
    private String stopReason;
    private final List<String> notRun = new ArrayList<>();

    TierClock(LongSupplier nanos, long budgetSeconds, long stalledSeconds) {
        this.nanos = nanos;
        this.budgetSeconds = budgetSeconds;
        this.stalledSeconds = stalledSeconds;
    }

    /** @return this JVM's clock, its bounds read from the system properties once */
    static TierClock jvm() {
        return jvm;
    }

    /** Replaces this JVM's clock (the extension's own tests run sample claims against a clock they move). */
    static void use(TierClock clock) {
        jvm = clock;
    }

    /**
     * Records that the pipeline under test stalled in the claim running now: nothing moves and it still differs from
     * PostgreSQL, or it did not settle in its bound. The first call starts the {@value #STALLED_PROPERTY} bound.
     *
     * @param how what differs, for the report's stop line
     */
    public static void pipelineStalled(String how) {
        jvm.stalled(how);
    }

    /** Starts the clock at the first claim (later calls change nothing) and notes the claim running. */
    synchronized void started(String entry) {
        if (startNanos < 0) {
            startNanos = nanos.getAsLong();
        }
        running = entry;
    }

    synchronized void stalled(String how) {
        if (stalledNanos < 0) {
            stalledNanos = nanos.getAsLong();
            stalledBy = running + " (" + (how.length() > 300 ? how.substring(0, 300) + "…" : how) + ")";
        }
    }

    /**
     * @param entry the id of a claim about to start
     * @return why it must not start: a bound has passed; empty while the tier has time. Records it as not run.
     */
    synchronized Optional<String> cut(String entry) {
        if (startNanos < 0) {
            startNanos = nanos.getAsLong();
        }
        long now = nanos.getAsLong();
        String reason = null;
        if (budgetSeconds > 0 && now - startNanos >= Duration.ofSeconds(budgetSeconds).toNanos()) {
            reason = "the tier's claims ran out of their " + budgetSeconds + " s (-D" + BUDGET_PROPERTY + ")";
        } else if (stalledSeconds > 0 && stalledNanos >= 0 && now - stalledNanos >= Duration.ofSeconds(stalledSeconds).toNanos()) {
            reason = "the pipeline stalled in " + stalledBy + "; the tier ran " + stalledSeconds + " s more (-D"
                    + STALLED_PROPERTY + ") and started nothing after";
        }
        if (reason == null) {
            return Optional.empty();
        }
        if (stopReason == null) {
            stopReason = reason;
        }
        notRun.add(entry);
        return Optional.of(reason);
    }

    /**
     * @return the tier's stop for the report ({@code reason}, {@code not_run}: the entries it left), or empty when every
     *     claim started
     */
    synchronized Optional<Map<String, Object>> stop() {
        if (stopReason == null) {
            return Optional.empty();
        }
        Map<String, Object> stop = new LinkedHashMap<>();
        stop.put("reason", stopReason);
        stop.put("not_run", List.copyOf(notRun));
        return Optional.of(stop);
    }
}
