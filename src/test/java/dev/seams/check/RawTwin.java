package dev.seams.check;

import dev.seams.report.Anomaly;
import dev.seams.report.ClaimEvidence;
import dev.seams.truth.ClickHouse;
import dev.seams.truth.RunNames;
import dev.seams.truth.Topics;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.kafka.common.TopicPartition;

/** The raw twin of a run: {@code raw_totals} (MergeTree, no dedup) counted against customer.totals record by record. */
public final class RawTwin {

    private RawTwin() {
    }

    /**
     * Counts every data record of customer.totals written since {@code from} in raw_totals by its position
     * ({@code kafka_partition}, {@code kafka_offset}), into {@code e}: a position never stored is {@code lost}, a row at a
     * position that holds no committed record is an {@code aborted_read}, rows beyond one per position are the
     * redelivery that customer_totals' ReplacingMergeTree absorbs (claim B5; docs/faults.md).
     *
     * @param e                  the entry
     * @param topics             the stand's topics
     * @param ch                 the stand's ClickHouse
     * @param from               partition → the first offset of the run
     * @param redeliveryExpected whether the fault must cause a redelivery: then the redelivered rows are the entry's
     *                           negative control and must be above 0, else a figure
     */
    public static void record(ClaimEvidence e, Topics topics, ClickHouse ch, Map<TopicPartition, Long> from,
                              boolean redeliveryExpected) {
        List<String> positions = new ArrayList<>();
        Map<TopicPartition, Long> end = topics.endOffsets(RunNames.CUSTOMER_TOTALS);   // both reads below stop here
        java.util.function.Predicate<org.apache.kafka.clients.consumer.ConsumerRecord<byte[], byte[]>> inRun =
                r -> r.offset() < end.getOrDefault(new TopicPartition(r.topic(), r.partition()), Long.MAX_VALUE);
        topics.readFrom(RunNames.CUSTOMER_TOTALS, "read_committed", from, r -> {
            if (inRun.test(r)) {
                positions.add(r.partition() + "@" + r.offset());
            }
        });
        String since = from.entrySet().stream().map(en -> "(kafka_partition = " + en.getKey().partition()
                + " AND kafka_offset >= " + en.getValue() + ")").collect(Collectors.joining(" OR "));
        KeyCounts<String> raw = KeyCounts.of(positions, ch.rows("SELECT kafka_partition, kafka_offset FROM raw_totals WHERE "
                + (since.isEmpty() ? "1" : since)).stream().map(r -> r.get(0) + "@" + r.get(1)).toList());
        e.figure("changelog_records_of_the_run", positions.size());
        java.util.Set<String> committed = new java.util.HashSet<>(positions);
        long[] aborted = {0};
        topics.readFrom(RunNames.CUSTOMER_TOTALS, "read_uncommitted", from,
                r -> aborted[0] += !inRun.test(r) || committed.contains(r.partition() + "@" + r.offset()) ? 0 : 1);
        e.figure("aborted_records_in_log", aborted[0]);
        e.anomaly(Anomaly.LOST, e.figure("changelog_records_never_stored_in_raw_totals", raw.missing()));
        // a position that holds no committed data record: an aborted transaction's record, or a marker
        e.anomaly(Anomaly.ABORTED_READ, e.figure("raw_rows_at_no_committed_record_position", raw.unexpected()));
        if (redeliveryExpected) {
            e.negativeControl("raw_twin_redelivered_rows", raw.excess(), Anomaly.DUPLICATE,
                    "raw_totals (MergeTree, no dedup) rows beyond one per record position: the redelivery the fault causes, "
                            + "which customer_totals (ReplacingMergeTree by version) absorbs");
        } else {
            e.figure("raw_twin_redelivered_rows", raw.excess());
        }
    }
}
