package dev.seams.faults;

import dev.seams.report.FaultNotObservedException;
import dev.seams.stand.JvmProcess;

/**
 * What proves a SIGKILL took effect (docs/claims.md "The fault took effect"): the killed process's exit status, or the
 * killed container's exit code, is 137 = 128 + 9.
 */
public final class Sigkill {

    /** Exit status of a process killed by SIGKILL: 128 + 9. */
    public static final int EXIT = JvmProcess.SIGKILL_EXIT;

    private Sigkill() {
    }

    /**
     * @param exit the exit status (or container exit code) after the kill
     * @return a proof that holds when it is 137, else a missing one naming what it was
     */
    public static Fault.Proof proof(int exit) {
        return exit == EXIT ? Fault.Proof.of("exit code " + exit) : Fault.Proof.missing("exit code " + exit + ", not " + EXIT);
    }

    /**
     * @param what the killed process, for the message
     * @param exit its exit status (or container exit code)
     * @return the exit status, when it is 137
     * @throws FaultNotObservedException otherwise: the verdict becomes UNVERIFIED, never PASS
     */
    public static int require(String what, int exit) {
        if (exit != EXIT) {
            throw new FaultNotObservedException(what + " exited with " + exit + ", not " + EXIT + " (SIGKILL)");
        }
        return exit;
    }
}
