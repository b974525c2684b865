package dev.seams.it;

import dev.seams.check.Reconciliation;
import dev.seams.fixture.StandContext;
import dev.seams.report.Anomaly;
import dev.seams.report.Claim;
import dev.seams.report.ClaimEvidence;
import dev.seams.sink.SinkMode;
import dev.seams.sink.SinkSummary;
import dev.seams.truth.ClickHouse;
import dev.seams.truth.Pg;
import dev.seams.truth.RunNames;
import dev.seams.truth.Topics;
import dev.seams.truth.Totals;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The changelog {@code customer.totals} read into ClickHouse (source sections "Семантика чтения
 * changelog", "Идемпотентное состояние на стоке", "Replay безопасен именно из-за дедупа"):
 * claims G1, G2, G7, G8. Each test settles the pipeline, empties the tables it reads and compares
 * with PostgreSQL at that moment, so the tests run in any order.
 */
@ExtendWith(StandContext.Resolver.class)
class ChangelogIT {

    private static final String RAW_COUNT = "SELECT count() FROM raw_totals";
    private static final String NAIVE_SUM = "SELECT toString(sum(total)) FROM raw_totals";

    @Test
    @Claim(id = "G1", title = "Baseline parity", exercises = {"streams/TotalsTopology", "sink/Sink", "sink/TotalsMapper",
            "containers/clickhouse/001-tables.sql"})
    void g1BaselineParity(ClaimEvidence e, StandContext s) {
        ClickHouse ch = s.ch();
        e.figure("orders_seeded", s.pg().seed(51, 5, 1).size());
        e.figure("ds_streams_before_the_sink", s.drain().toString());   // parity is this claim's own check, below
        ch.truncate("raw_totals", "customer_totals");
        long changelog = s.topics().committedRecordCount(RunNames.CUSTOMER_TOTALS);

        SinkSummary run = s.sink(SinkMode.TOTALS, o -> o.withFromStart(true));

        Map<Long, Totals> truth = s.pg().truth();
        e.figure("summary", run.line());
        e.figure("pg_orders", Pg.count(truth));
        e.check("bad_records", run.bad()).isZero("records the sink rejected");
        e.check("sink_inserted", run.inserted()).isEqualTo(changelog, "records the sink inserted vs data records in customer.totals");
        e.check("raw_totals_count", ch.scalar(RAW_COUNT)).isEqualTo(changelog, "raw_totals rows vs changelog records consumed");
        e.check("final_sum", Pg.sum(ch.finalTotals()).toPlainString()).isEqualTo(Pg.sum(truth).toPlainString(),
                "grand total of FINAL vs PG (the per-customer reconciliation decides)");
        Reconciliation.customerTotalsFinal(s.endpoints()).record(e, "PostgreSQL vs customer_totals FINAL");
    }

    @Test
    @Claim(id = "G2", title = "Changelog semantics", exercises = {"sink/Sink", "sink/TotalsMapper", "containers/clickhouse/001-tables.sql"})
    void g2ChangelogSemantics(ClaimEvidence e, StandContext s) {
        ClickHouse ch = s.ch();
        s.pg().seed(20, 5, 2);
        e.figure("ds_streams_before_the_sink", s.drain().toString());   // parity is this claim's own check, below
        ch.truncate("raw_totals", "customer_totals");

        SinkSummary baseline = s.sink(SinkMode.TOTALS, o -> o.withFromStart(true));
        Map<Long, Totals> truth = s.pg().truth();
        BigDecimal pgSum = Pg.sum(truth);
        long rawAfterBaseline = ch.scalar(RAW_COUNT);
        BigDecimal naive = ch.decimal(NAIVE_SUM);
        Map<Long, Totals> argMaxBaseline = ch.argMaxTotals();
        Map<Long, Totals> finalBaseline = ch.finalTotals();

        SinkSummary dup = s.twinSink(SinkMode.TOTALS, o -> o.withFromStart(true).withDup(true));   // ds-sink's --dup: the twin
        long rawAfterDup = ch.scalar(RAW_COUNT);
        Map<Long, Totals> argMaxDup = ch.argMaxTotals();
        Map<Long, Totals> finalDup = ch.finalTotals();

        e.figure("baseline_summary", baseline.line());
        e.figure("dup_summary", dup.line());
        e.figure("pg_sum", pgSum.toPlainString());
        e.check("raw_naive_sum", naive).isGreaterThan(pgSum, "a naive sum(total) over raw_totals adds every cumulative snapshot");
        e.figure("naive_to_pg_ratio", naive.divide(pgSum, 2, RoundingMode.HALF_UP).toPlainString());
        e.figure("raw_rows_after_baseline", rawAfterBaseline);
        e.check("dup_inserted", dup.inserted()).isEqualTo(2 * baseline.inserted(), "--dup inserts every record twice");
        e.check("raw_rows_after_dup", rawAfterDup).isEqualTo(rawAfterBaseline + 2 * baseline.inserted(),
                "raw_totals grows by 2x the records read");
        e.check("argmax_unchanged_by_dup", argMaxDup.equals(argMaxBaseline)).isTrue("argMax(total, version) per customer, before vs after --dup");
        e.check("final_unchanged_by_dup", finalDup.equals(finalBaseline)).isTrue("FINAL per customer, before vs after --dup");
        Reconciliation.customers(truth, argMaxBaseline).record(e, "PostgreSQL vs argMax(total, version) over raw_totals");
        Reconciliation.customers(truth, finalDup).record(e, "PostgreSQL vs customer_totals FINAL after the --dup run");
        e.table("raw_totals vs customer_totals after the --dup run", List.of("read", "rows", "sum(total)"), List.of(
                List.of("raw_totals naive sum (no dedup)", rawAfterDup, ch.decimal(NAIVE_SUM)),
                List.of("raw_totals argMax(total, version) per customer", argMaxDup.size(), Pg.sum(argMaxDup)),
                List.of("customer_totals FINAL", finalDup.size(), Pg.sum(finalDup)),
                List.of("PostgreSQL", Pg.count(truth) + " orders", pgSum)));
        e.note("The naive sum adds every cumulative snapshot of a customer, so it is far above PG even "
                + "without a duplicate; argMax(total, version) and FINAL take each customer's last snapshot.");
    }

    @Test
    @Claim(id = "G7", title = "Incremental pickup", exercises = {"sink/Sink", "consumer/PollSession"})
    void g7IncrementalPickup(ClaimEvidence e, StandContext s) {
        ClickHouse ch = s.ch();
        Topics topics = s.topics();
        s.pg().seed(20, 5, 6);   // records before the mark (G1's), which an incremental run must not read again
        s.settle();
        ch.truncate("raw_totals", "customer_totals");
        s.sink(SinkMode.TOTALS, o -> o.withFromStart(true));
        Map<TopicPartition, Long> before = topics.endOffsets(RunNames.CUSTOMER_TOTALS);
        long rawBefore = ch.scalar(RAW_COUNT);

        int k = e.figure("orders_seeded", s.pg().seed(20, 5, 7).size());
        s.settle();
        AtomicLong newRecords = new AtomicLong();
        topics.readFrom(RunNames.CUSTOMER_TOTALS, "read_committed", before, r -> newRecords.incrementAndGet());
        SinkSummary run = s.sink(SinkMode.TOTALS, o -> o);

        e.figure("summary", run.line());
        e.check("new_changelog_records", newRecords.get()).isEqualTo(k, "each new order yields one changelog record");
        e.check("sink_inserted", run.inserted()).isEqualTo(newRecords.get(), "the sink inserts exactly the new records, no re-reads");
        e.figure("raw_totals_before", rawBefore);
        e.check("raw_totals_after", ch.scalar(RAW_COUNT)).isEqualTo(rawBefore + newRecords.get(), "raw_totals grows by the new records");
        Reconciliation.customerTotalsFinal(s.endpoints()).record(e, "PostgreSQL vs customer_totals FINAL after the incremental run");
    }

    @Test
    @Claim(id = "G8", title = "Replay is safe because of the dedup", exercises = {"sink/Sink", "sink/TotalsMapper",
            "containers/clickhouse/001-tables.sql"})
    void g8ReplayIsSafe(ClaimEvidence e, StandContext s) {
        ClickHouse ch = s.ch();
        s.pg().seed(20, 5, 8);
        s.settle();
        ch.truncate("raw_totals", "customer_totals");
        s.sink(SinkMode.TOTALS, o -> o.withFromStart(true));
        String finalRows = "SELECT customer_id, orders, toString(total), version FROM customer_totals FINAL ORDER BY customer_id";
        List<List<String>> finalBefore = ch.rows(finalRows);
        long rawBefore = ch.scalar(RAW_COUNT);
        long topicRecords = s.topics().committedRecordCount(RunNames.CUSTOMER_TOTALS);

        SinkSummary replay = s.sink(SinkMode.TOTALS, o -> o.withFromStart(true));
        List<List<String>> finalAfter = ch.rows(finalRows);
        long rawAfter = ch.scalar(RAW_COUNT);

        e.figure("replay_summary", replay.line());
        e.check("topic_records", topicRecords).isAtLeast(20, "records in customer.totals to replay");
        e.check("replay_inserted", replay.inserted()).isEqualTo(topicRecords, "the replay re-reads the whole topic");
        e.figure("raw_totals_before", rawBefore);
        e.check("raw_totals_after", rawAfter).isEqualTo(rawBefore + topicRecords, "raw_totals grows by the whole topic");
        e.negativeControl("raw_twin_duplicate_rows", rawAfter - topicRecords, Anomaly.DUPLICATE,
                "raw_totals (MergeTree, no dedup) holds the replay's duplicates");
        e.check("final_rows_identical", finalAfter.equals(finalBefore)).isTrue("every customer's FINAL row, byte for byte, before vs after the replay");
        Reconciliation.customerTotalsFinal(s.endpoints()).record(e, "PostgreSQL vs customer_totals FINAL after the replay");
        e.table("customer_totals FINAL after the replay (customer, orders, total, version)",
                List.of("customer_id", "orders", "total", "version"), finalAfter.stream().map(r -> List.<Object>copyOf(r)).toList());
    }
}
