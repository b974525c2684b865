package dev.seams.sink;

/**
 * What one sink run did, as counted by the sink itself (DESIGN.md "The sink").
 *
 * @param inserted     records written to ClickHouse (a {@code --dup} record counts twice), whose
 *                     offsets were then committed
 * @param bad          records rejected as invalid and written to the DLQ, whose offsets were then
 *                     committed (claims G10, G11)
 * @param tombstones   null-value records that carry no row (a deleted order in {@code dedup-demo})
 * @param dlqErrors    failed dead-letter writes (the batch was re-read, not committed; G11)
 * @param insertErrors failed ClickHouse inserts (the batch was re-read, not committed)
 * @param fetchErrors  failed polls
 * @param dup          whether every record was inserted twice ({@code --dup})
 * @param fromStart    whether the run started from the earliest offsets ({@code --from-start})
 * @param mode         the mode's command-line name
 * @param uncommitted  records of a batch whose insert or dead-letter write had still not succeeded
 *                     when the run ended (the next run re-reads them); 0 after a clean run
 */
public record SinkSummary(long inserted, long bad, long tombstones, long dlqErrors, long insertErrors,
                          long fetchErrors, boolean dup, boolean fromStart, String mode, long uncommitted) {

    /** A summary of a run that ended with nothing left uncommitted. */
    public SinkSummary(long inserted, long bad, long tombstones, long dlqErrors, long insertErrors,
                       long fetchErrors, boolean dup, boolean fromStart, String mode) {
        this(inserted, bad, tombstones, dlqErrors, insertErrors, fetchErrors, dup, fromStart, mode, 0);
    }

    /**
     * @return the closing line, e.g. {@code sink: inserted=51 bad=0 dlq_errors=0 insert_errors=0
     *     fetch_errors=0 (dup=false, from-start=true, mode=totals)} — the source's consumer line;
     *     {@code uncommitted=N} is added after {@code fetch_errors} only when N > 0
     */
    public String line() {
        return "sink: inserted=" + inserted + " bad=" + bad
                + (tombstones > 0 ? " tombstones=" + tombstones : "")
                + " dlq_errors=" + dlqErrors + " insert_errors=" + insertErrors + " fetch_errors=" + fetchErrors
                + (uncommitted > 0 ? " uncommitted=" + uncommitted : "")
                + " (dup=" + dup + ", from-start=" + fromStart + ", mode=" + mode + ")";
    }
}
