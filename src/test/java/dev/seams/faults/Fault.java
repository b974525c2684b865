package dev.seams.faults;

import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * One fault of the B5 matrix, separated from what checks the outcome as Jepsen separates its
 * nemesis from its checker (CONTRIBUTING.md "Adding a fault"): {@link #inject()} makes it happen and returns
 * the proof that it took effect (docs/claims.md "The fault took effect"), {@link #heal()} undoes it and
 * returns when the target serves again. A fault is held for {@link #hold()} between the two.
 */
public interface Fault {

    /** @return the fault's name in the report, e.g. {@code clickhouse-stop} (entry {@code B5[clickhouse-stop@50%]}) */
    String name();

    /**
     * Injects the fault.
     *
     * @return what proves it took effect; {@link Proof#tookEffect()} false makes that entry UNVERIFIED
     */
    Proof inject();

    /** @return how long the fault stays before {@link #heal()} (zero: healed at once, e.g. a restart after kill -9) */
    Duration hold();

    /**
     * Keeps the fault on for {@link #hold()}: the fault's duration, a fixed time by design (how long a cut or a pause
     * lasts is what the claim names), not a wait for a condition.
     */
    default void holdOn() {
        if (!hold().isZero()) {
            java.util.concurrent.locks.LockSupport.parkNanos(hold().toNanos());
        }
    }

    /**
     * Undoes the fault and waits until the target serves again.
     *
     * @throws RuntimeException if the target does not come back (the claim then fails: a clean-up that failed)
     */
    void heal();

    /**
     * Asked after {@link #heal()}: a fault whose effect needs something in flight (WAL waiting for a cut-off connector)
     * says here that nothing was, and the point is UNVERIFIED with that reason, not a PASS that put nothing at stake.
     *
     * @return why nothing was at stake while the fault held; empty when something was, or the fault does not tell
     */
    default java.util.Optional<String> nothingAtStake() {
        return java.util.Optional.empty();
    }

    /**
     * What proves a fault took effect.
     *
     * @param tookEffect whether it did
     * @param evidence   the observation, e.g. {@code exit code 137}, {@code docker reports it paused}
     * @param figures    what the injection measured besides, recorded as figures of the point's entry
     *                   (e.g. {@code seconds_to_new_leader} of a broker kill on a cluster), in order; a value
     *                   may be a {@link CompletableFuture}: a figure still being measured when the injection
     *                   returned (e.g. while the fault heals), recorded once it completed ({@link #measured()})
     */
    record Proof(boolean tookEffect, String evidence, Map<String, Object> figures) {

        /** A proof with no figures. */
        public Proof(boolean tookEffect, String evidence) {
            this(tookEffect, evidence, Map.of());
        }

        /** Copies the figures (unmodifiable, in their order). */
        public Proof {
            figures = Collections.unmodifiableMap(new LinkedHashMap<>(figures));
        }

        /** @return a proof that holds, with its evidence */
        public static Proof of(String evidence) {
            return new Proof(true, evidence);
        }

        /** @return a proof that failed, with what was seen instead */
        public static Proof missing(String evidence) {
            return new Proof(false, evidence);
        }

        /**
         * @return the figures, each {@link CompletableFuture} among them waited for and replaced by its value
         * @throws java.util.concurrent.CompletionException if the measurement of one failed
         */
        public Map<String, Object> measured() {
            Map<String, Object> values = new LinkedHashMap<>();
            figures.forEach((name, value) -> values.put(name, value instanceof CompletableFuture<?> f ? f.join() : value));
            return values;
        }

        /**
         * For a claim outside B5's matrix, whose entry cannot stand without the fault.
         *
         * @return this proof, when the fault took effect
         * @throws dev.seams.report.FaultNotObservedException otherwise, with the evidence: the verdict becomes
         *     UNVERIFIED, never PASS
         */
        public Proof require() {
            if (!tookEffect) {
                throw new dev.seams.report.FaultNotObservedException("the fault did not take effect: " + evidence);
            }
            return this;
        }

        /**
         * @param name  a figure's name, e.g. {@code seconds_to_new_leader}
         * @param value what was measured
         * @return this proof with the figure added
         */
        public Proof with(String name, Object value) {
            Map<String, Object> more = new LinkedHashMap<>(figures);
            more.put(name, value);
            return new Proof(tookEffect, evidence, more);
        }
    }
}
