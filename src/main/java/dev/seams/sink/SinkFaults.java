package dev.seams.sink;

import dev.seams.consumer.OffsetFault;
import java.time.Duration;
import java.util.Objects;

/**
 * FAULT INJECTION, TEST-ONLY: the sink's switches for negative controls and twins — mistakes a regression could make,
 * turned on so that a claim's checker is shown to fire (docs/proofs.md). No CLI flag but {@code --dup}; {@link #NONE}
 * in every run of the pipeline.
 *
 * @param dup             insert every record twice in the same batch (the source's {@code -dup}; claim G2's control)
 * @param skipValidation  turn the totals contract off, so that a negative control shows what the seed's unvalidated
 *                        consumer inserts (G11; see {@link TotalsMapper})
 * @param offsetAsVersion write the Kafka offset as the ReplacingMergeTree version instead of the version ds-streams
 *                        produced — the negative control of B10
 * @param insertDelay     a pause before each batch's ClickHouse inserts, standing for a slow server, so that a backlog
 *                        takes long enough to drain for group membership changes to land mid-drain (claim B12);
 *                        {@link Duration#ZERO}: none
 * @param offsetFault     a twin's mistake in offset handling ({@link OffsetFault})
 */
public record SinkFaults(boolean dup, boolean skipValidation, boolean offsetAsVersion, Duration insertDelay,
                         OffsetFault offsetFault) {

    /** No fault: how the pipeline runs. */
    public static final SinkFaults NONE = new SinkFaults(false, false, false, Duration.ZERO, OffsetFault.NONE);

    /**
     * @throws NullPointerException     if the insert delay or the offset fault is null
     * @throws IllegalArgumentException if the insert delay is negative
     */
    public SinkFaults {
        Objects.requireNonNull(insertDelay, "insertDelay");
        Objects.requireNonNull(offsetFault, "offsetFault");
        if (insertDelay.isNegative()) {
            throw new IllegalArgumentException("insert delay must not be negative, got " + insertDelay);
        }
    }

    /** @return a copy that inserts every record twice (or not) */
    public SinkFaults withDup(boolean value) {
        return new SinkFaults(value, skipValidation, offsetAsVersion, insertDelay, offsetFault);
    }

    /** @return a copy with the totals contract skipped (or not) */
    public SinkFaults withSkipValidation(boolean value) {
        return new SinkFaults(dup, value, offsetAsVersion, insertDelay, offsetFault);
    }

    /** @return a copy that writes the Kafka offset as the version (or not) */
    public SinkFaults withOffsetAsVersion(boolean value) {
        return new SinkFaults(dup, skipValidation, value, insertDelay, offsetFault);
    }

    /** @return a copy pausing this long before each batch's inserts */
    public SinkFaults withInsertDelay(Duration value) {
        return new SinkFaults(dup, skipValidation, offsetAsVersion, value, offsetFault);
    }

    /** @return a copy making this mistake in offset handling */
    public SinkFaults withOffsetFault(OffsetFault value) {
        return new SinkFaults(dup, skipValidation, offsetAsVersion, insertDelay, value);
    }
}
