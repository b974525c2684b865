package dev.seams.sink;

import dev.seams.consumer.Rebalances;

/**
 * What one sink run did, as counted by the sink itself (docs/sink.md).
 *
 * @param inserted     records written to ClickHouse and acknowledged (a {@code --dup} record counts twice)
 * @param bad          records rejected as invalid and written to the DLQ (claims G10, G11)
 * @param tombstones   values that carry no row (a row-less deletion in {@code dedup-demo})
 * @param dlqErrors    failed dead-letter writes (the batch was re-read, not committed; G11)
 * @param insertErrors failed ClickHouse requests of the write path, inserts and the run's read of its column types (the batch was
 *                     re-read, not committed)
 * @param fetchErrors  polls that failed retriably
 * @param dup          whether every record was inserted twice ({@code --dup})
 * @param fromStart    whether the run started from the earliest offsets ({@code --from-start})
 * @param mode         the mode's command-line name
 * @param uncommitted  records whose offsets were not committed when the run ended — of a batch
 *                     whose write had still not succeeded (or failed permanently), or written but
 *                     with the commit still pending; the next run re-reads them; 0 after a clean run
 * @param commitErrors failed offset commit attempts (retried, or left to the partitions' new owner
 *                     after a rebalance; claim B12)
 * @param rebalances         group rebalances the run went through after its first assignment (B12;
 *                           {@link Rebalances})
 * @param rebalancesMidDrain those whose revocation took partitions with records still behind
 * @param revokedMidDrain    partitions revoked or lost with records still behind, summed
 */
public record SinkSummary(long inserted, long bad, long tombstones, long dlqErrors, long insertErrors,
                          long fetchErrors, boolean dup, boolean fromStart, String mode, long uncommitted,
                          long commitErrors, long rebalances, long rebalancesMidDrain, long revokedMidDrain) {

    /** A summary of a run that went through no rebalance. */
    public SinkSummary(long inserted, long bad, long tombstones, long dlqErrors, long insertErrors,
                       long fetchErrors, boolean dup, boolean fromStart, String mode, long uncommitted,
                       long commitErrors) {
        this(inserted, bad, tombstones, dlqErrors, insertErrors, fetchErrors, dup, fromStart, mode, uncommitted,
                commitErrors, 0, 0, 0);
    }

    /** A summary without commit errors. */
    public SinkSummary(long inserted, long bad, long tombstones, long dlqErrors, long insertErrors,
                       long fetchErrors, boolean dup, boolean fromStart, String mode, long uncommitted) {
        this(inserted, bad, tombstones, dlqErrors, insertErrors, fetchErrors, dup, fromStart, mode, uncommitted, 0);
    }

    /** A summary of a run that ended with nothing left uncommitted. */
    public SinkSummary(long inserted, long bad, long tombstones, long dlqErrors, long insertErrors,
                       long fetchErrors, boolean dup, boolean fromStart, String mode) {
        this(inserted, bad, tombstones, dlqErrors, insertErrors, fetchErrors, dup, fromStart, mode, 0, 0);
    }

    /**
     * @return the closing line, e.g. {@code sink: inserted=51 bad=0 dlq_errors=0 insert_errors=0
     *     fetch_errors=0 (dup=false, from-start=true, mode=totals)} — the source's consumer line;
     *     {@code tombstones=N}, {@code commit_errors=N} and {@code uncommitted=N} are added only when N > 0,
     *     {@code rebalances=N (mid-drain M, partitions revoked mid-drain K)} only after a rebalance
     */
    public String line() {
        return "sink: inserted=" + inserted + " bad=" + bad
                + (tombstones > 0 ? " tombstones=" + tombstones : "")
                + " dlq_errors=" + dlqErrors + " insert_errors=" + insertErrors + " fetch_errors=" + fetchErrors
                + (commitErrors > 0 ? " commit_errors=" + commitErrors : "")
                + (rebalances > 0 || revokedMidDrain > 0 ? " rebalances=" + rebalances + " (mid-drain " + rebalancesMidDrain
                        + ", partitions revoked mid-drain " + revokedMidDrain + ")" : "")
                + (uncommitted > 0 ? " uncommitted=" + uncommitted : "")
                + " (dup=" + dup + ", from-start=" + fromStart + ", mode=" + mode + ")";
    }
}
