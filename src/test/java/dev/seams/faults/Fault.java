package dev.seams.faults;

import java.time.Duration;

/**
 * One fault of the B5 matrix, separated from what checks the outcome as Jepsen separates its
 * nemesis from its checker ({@code shared/STYLE.md}): {@link #inject()} makes it happen and returns
 * the proof that it took effect (CLAIMS.md "The fault took effect"), {@link #heal()} undoes it and
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
     * Undoes the fault and waits until the target serves again.
     *
     * @throws RuntimeException if the target does not come back (the claim then fails: a clean-up that failed)
     */
    void heal();

    /**
     * What proves a fault took effect.
     *
     * @param tookEffect whether it did
     * @param evidence   the observation, e.g. {@code exit code 137}, {@code docker reports it paused}
     */
    record Proof(boolean tookEffect, String evidence) {

        /** @return a proof that holds, with its evidence */
        public static Proof of(String evidence) {
            return new Proof(true, evidence);
        }

        /** @return a proof that failed, with what was seen instead */
        public static Proof missing(String evidence) {
            return new Proof(false, evidence);
        }
    }
}
