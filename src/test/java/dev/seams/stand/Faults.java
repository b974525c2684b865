package dev.seams.stand;

import dev.seams.report.FaultNotObservedException;

/** Proof that an injected fault took effect (docs/claims.md "The fault took effect"). */
public final class Faults {

    /** Exit status of a process killed by SIGKILL: 128 + 9. */
    public static final int SIGKILL_EXIT = 137;

    private Faults() {
    }

    /**
     * @param what the killed process, for the message
     * @param exit its exit status (or container exit code)
     * @return the exit status, when it is 137
     * @throws FaultNotObservedException otherwise: the verdict becomes UNVERIFIED, never PASS
     */
    public static int requireSigkill(String what, int exit) {
        if (exit != SIGKILL_EXIT) {
            throw new FaultNotObservedException(what + " exited with " + exit + ", not " + SIGKILL_EXIT + " (SIGKILL)");
        }
        return exit;
    }
}
