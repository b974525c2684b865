package dev.seams.report;

/**
 * The claim cannot apply to what is under test, by the contract, not by accident: e.g. the sink chosen with
 * {@code -Dseams.sink} has no dead-letter queue, no consumer group, or no process to kill (docs/sinks.md "The
 * contract"). The claim is reported as {@link Verdict#NOT_RUN} with this message as its reason, never silently skipped;
 * against a baseline in which it PASSed, the gate counts it as a vanished proof like any other NOT_RUN.
 */
public class NotApplicableException extends RuntimeException {

    /** @param reason why the claim cannot apply, naming what is under test, e.g. {@code kafka-engine: no DLQ} */
    public NotApplicableException(String reason) {
        super(reason);
    }
}
