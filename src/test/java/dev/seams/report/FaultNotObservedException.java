package dev.seams.report;

/**
 * Thrown by a fault claim when it cannot prove its fault took effect (no exit 137, the container
 * did not stop, lag did not grow): the verdict is UNVERIFIED with this message as the reason, never
 * PASS (docs/claims.md "The fault took effect"). Use it where the test cannot go on; where it can, record
 * {@link ClaimEvidence#unverified(String)} and continue.
 */
public final class FaultNotObservedException extends RuntimeException {

    /** @param message which fault was not observed, with the evidence */
    public FaultNotObservedException(String message) {
        super(message);
    }
}
