package dev.seams.sink;

/**
 * What one sink run did, as counted by the sink itself (DESIGN.md "The sink").
 *
 * @param inserted     records written to ClickHouse (a {@code --dup} record counts twice), whose
 *                     offsets were then committed
 * @param bad          records rejected as invalid (logged with their origin; committed past)
 * @param tombstones   null-value records that carry no row (a deleted order in {@code dedup-demo})
 * @param dlqErrors    failed dead-letter writes (the DLQ comes with the validation issue; 0 until then)
 * @param insertErrors failed ClickHouse inserts (the batch was re-read, not committed)
 * @param fetchErrors  failed polls
 * @param dup          whether every record was inserted twice ({@code --dup})
 * @param fromStart    whether the run started from the earliest offsets ({@code --from-start})
 * @param mode         the mode's command-line name
 */
public record SinkSummary(long inserted, long bad, long tombstones, long dlqErrors, long insertErrors,
                          long fetchErrors, boolean dup, boolean fromStart, String mode) {

    /**
     * @return the closing line, e.g. {@code sink: inserted=51 bad=0 dlq_errors=0 insert_errors=0
     *     fetch_errors=0 (dup=false, from-start=true, mode=totals)} — the source's consumer line
     */
    public String line() {
        return "sink: inserted=" + inserted + " bad=" + bad
                + (tombstones > 0 ? " tombstones=" + tombstones : "")
                + " dlq_errors=" + dlqErrors + " insert_errors=" + insertErrors + " fetch_errors=" + fetchErrors
                + " (dup=" + dup + ", from-start=" + fromStart + ", mode=" + mode + ")";
    }
}
