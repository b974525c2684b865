package dev.seams.consumer;


/**
 * FAULT INJECTION, TEST-ONLY: a mistake in offset handling that a twin sink makes on purpose, so that the checker
 * that holds the real sink to zero is shown to fire in the same run, on the same load (docs/claims.md "Negative
 * control"). No CLI flag; {@link #NONE} in every run of the pipeline ({@code sink.SinkOptions#offsetFault()}).
 */
public enum OffsetFault {

    /** The sink as shipped: offsets committed after the write, and for revoked partitions before they move. */
    NONE,
    /**
     * The rebalance listener forgets the revoked partitions' written offsets instead of committing them: with a
     * commit interval, a new owner re-reads and writes them again (the twin of claim B12[commit interval 5s]).
     */
    NO_COMMIT_ON_REVOCATION,
    /**
     * Each batch's offsets are committed before its insert: while ClickHouse is down the group's committed offsets
     * pass records ClickHouse does not hold (the twin of claim B5[clickhouse-stop], seen by its offset sampler).
     */
    COMMIT_BEFORE_WRITE
}
