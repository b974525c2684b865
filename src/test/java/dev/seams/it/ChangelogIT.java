package dev.seams.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seams.report.ClaimEvidence;
import dev.seams.report.Evidence;
import dev.seams.report.EvidenceExtension;
import dev.seams.sink.SinkMode;
import dev.seams.sink.SinkSummary;
import dev.seams.stand.ClickHouse;
import dev.seams.stand.Reconciliation;
import dev.seams.stand.Pg;
import dev.seams.stand.Pipeline;
import dev.seams.stand.Stand;
import dev.seams.stand.Topics;
import dev.seams.stand.Totals;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The changelog {@code customer.totals} read into ClickHouse (source sections "Семантика чтения
 * changelog", "Идемпотентное состояние на стоке", "Replay безопасен именно из-за дедупа"):
 * claims G1, G2, G7, G8. Each test settles the pipeline, empties the tables it reads and compares
 * with PostgreSQL at that moment, so the tests run in any order.
 */
@ExtendWith(EvidenceExtension.class)
class ChangelogIT {

    private static final String RAW_COUNT = "SELECT count() FROM raw_totals";

    @Test
    @DisplayName("G1 Baseline parity")
    void g1BaselineParity() {
        ClaimEvidence e = Evidence.claim("G1", "Baseline parity");
        Stand stand = Stand.get();
        Pg pg = Pg.of(stand);
        ClickHouse ch = ClickHouse.of(stand);
        e.figure("orders_seeded", pg.seed(51, 5, 1).size());
        Pipeline.awaitStreamsMatchesPg(stand);
        ch.truncate("raw_totals", "customer_totals");
        long changelog = Topics.of(stand).committedRecordCount(Stand.CUSTOMER_TOTALS);

        SinkSummary run = Pipeline.sink(stand, SinkMode.TOTALS, o -> o.withFromStart(true));

        Map<Integer, Totals> truth = pg.truth();
        Map<Integer, Totals> fin = ch.finalTotals();
        Reconciliation rec = Reconciliation.customers(truth, Reconciliation.customerRows(ch, Reconciliation.CUSTOMER_TOTALS_FINAL));
        e.figure("summary", run.line());
        e.figure("changelog_records", changelog);
        e.figure("sink_inserted", run.inserted());
        e.expected("sink_inserted", changelog);
        e.figure("raw_totals_count", ch.scalar(RAW_COUNT));
        e.expected("raw_totals_count", changelog);
        e.figure("final_count", (long) fin.size());
        e.expected("final_count", (long) truth.size());
        e.figure("final_sum", Pg.sum(fin).toPlainString());
        e.expected("final_sum", Pg.sum(truth).toPlainString());
        e.figure("pg_orders", Pg.count(truth));
        rec.record(e, "PostgreSQL vs customer_totals FINAL");

        assertThat(run.bad()).as("bad records").isZero();
        assertThat(run.inserted()).as("records the sink inserted vs data records in customer.totals").isEqualTo(changelog);
        assertThat(ch.scalar(RAW_COUNT)).as("raw_totals rows vs changelog records consumed").isEqualTo(changelog);
        assertThat(rec.matches()).as("customer_totals FINAL vs PG per customer: %s", rec.describe()).isTrue();
    }

    @Test
    @DisplayName("G2 Changelog semantics")
    void g2ChangelogSemantics() {
        ClaimEvidence e = Evidence.claim("G2", "Changelog semantics");
        Stand stand = Stand.get();
        Pg pg = Pg.of(stand);
        ClickHouse ch = ClickHouse.of(stand);
        pg.seed(20, 5, 2);
        Pipeline.awaitStreamsMatchesPg(stand);
        ch.truncate("raw_totals", "customer_totals");

        SinkSummary baseline = Pipeline.sink(stand, SinkMode.TOTALS, o -> o.withFromStart(true));
        Map<Integer, Totals> truth = pg.truth();
        BigDecimal pgSum = Pg.sum(truth);
        long rawAfterBaseline = ch.scalar(RAW_COUNT);
        BigDecimal naive = ch.decimal("SELECT toString(sum(total)) FROM raw_totals");
        Map<Integer, Totals> argMaxBaseline = ch.argMaxTotals();
        Map<Integer, Totals> finalBaseline = ch.finalTotals();

        SinkSummary dup = Pipeline.sink(stand, SinkMode.TOTALS, o -> o.withFromStart(true).withDup(true));
        long rawAfterDup = ch.scalar(RAW_COUNT);
        Map<Integer, Totals> argMaxDup = ch.argMaxTotals();
        Map<Integer, Totals> finalDup = ch.finalTotals();
        BigDecimal ratio = naive.divide(pgSum, 2, RoundingMode.HALF_UP);

        e.figure("baseline_summary", baseline.line());
        e.figure("dup_summary", dup.line());
        e.figure("pg_sum", pgSum.toPlainString());
        e.figure("raw_naive_sum", naive.toPlainString());
        e.figure("naive_to_pg_ratio", ratio.toPlainString());
        e.figure("argmax_sum", Pg.sum(argMaxBaseline).toPlainString());
        e.figure("final_sum", Pg.sum(finalBaseline).toPlainString());
        e.expected("argmax_sum", pgSum.toPlainString());
        e.expected("final_sum", pgSum.toPlainString());
        e.figure("raw_rows_after_baseline", rawAfterBaseline);
        e.figure("dup_inserted", dup.inserted());
        e.expected("dup_inserted", 2 * baseline.inserted());
        e.figure("raw_rows_after_dup", rawAfterDup);
        e.expected("raw_rows_after_dup", rawAfterBaseline + 2 * baseline.inserted());
        e.figure("final_sum_after_dup", Pg.sum(finalDup).toPlainString());
        e.expected("final_sum_after_dup", pgSum.toPlainString());
        Reconciliation argMaxRec = Reconciliation.customers(truth, argMaxBaseline);
        Reconciliation finalRec = Reconciliation.customers(truth, finalBaseline);
        Reconciliation rec = Reconciliation.customers(truth, finalDup);
        rec.record(e, "PostgreSQL vs customer_totals FINAL after the --dup run");
        e.table("raw_totals vs customer_totals after the --dup run", List.of("read", "rows", "sum(total)"), List.of(
                List.of("raw_totals naive sum (no dedup)", rawAfterDup, ch.decimal("SELECT toString(sum(total)) FROM raw_totals")),
                List.of("raw_totals argMax(total, version) per customer", argMaxDup.size(), Pg.sum(argMaxDup)),
                List.of("customer_totals FINAL", finalDup.size(), Pg.sum(finalDup)),
                List.of("PostgreSQL", Pg.count(truth) + " orders", pgSum)));
        e.note("The naive sum adds every cumulative snapshot of a customer, so it is far above PG even "
                + "without a duplicate; argMax(total, version) and FINAL take each customer's last snapshot.");

        assertThat(naive).as("naive sum(total) over raw_totals must exceed PG (it sums snapshots)").isGreaterThan(pgSum);
        assertThat(argMaxRec.matches()).as("argMax per customer vs PG: %s", argMaxRec.describe()).isTrue();
        assertThat(finalRec.matches()).as("FINAL per customer vs PG: %s", finalRec.describe()).isTrue();
        assertThat(dup.inserted()).as("--dup inserts every record twice").isEqualTo(2 * baseline.inserted());
        assertThat(rawAfterDup).as("raw_totals grows by 2x the records read").isEqualTo(rawAfterBaseline + 2 * baseline.inserted());
        assertThat(argMaxDup).as("argMax unchanged by --dup").isEqualTo(argMaxBaseline);
        assertThat(finalDup).as("FINAL unchanged by --dup").isEqualTo(finalBaseline);
    }

    @Test
    @DisplayName("G7 Incremental pickup")
    void g7IncrementalPickup() {
        ClaimEvidence e = Evidence.claim("G7", "Incremental pickup");
        Stand stand = Stand.get();
        Pg pg = Pg.of(stand);
        ClickHouse ch = ClickHouse.of(stand);
        Topics topics = Topics.of(stand);
        Pipeline.awaitStreamsMatchesPg(stand);
        ch.truncate("raw_totals", "customer_totals");
        Pipeline.sink(stand, SinkMode.TOTALS, o -> o.withFromStart(true));
        Map<TopicPartition, Long> before = topics.endOffsets(Stand.CUSTOMER_TOTALS);
        long rawBefore = ch.scalar(RAW_COUNT);

        int k = e.figure("orders_seeded", pg.seed(20, 5, 7).size());
        Pipeline.awaitStreamsMatchesPg(stand);
        AtomicLong newRecords = new AtomicLong();
        topics.readAll(Stand.CUSTOMER_TOTALS, "read_committed", r -> {
            if (r.offset() >= before.get(new TopicPartition(r.topic(), r.partition()))) {
                newRecords.incrementAndGet();
            }
        });
        SinkSummary run = Pipeline.sink(stand, SinkMode.TOTALS, o -> o);
        long rawAfter = ch.scalar(RAW_COUNT);
        Map<Integer, Totals> truth = pg.truth();
        Reconciliation rec = Reconciliation.customers(truth, ch.finalTotals());

        e.figure("summary", run.line());
        e.figure("new_changelog_records", newRecords.get());
        e.figure("sink_inserted", run.inserted());
        e.expected("sink_inserted", newRecords.get());
        e.figure("raw_totals_before", rawBefore);
        e.figure("raw_totals_after", rawAfter);
        e.expected("raw_totals_after", rawBefore + newRecords.get());
        e.figure("final_sum", Pg.sum(ch.finalTotals()).toPlainString());
        e.expected("final_sum", Pg.sum(truth).toPlainString());
        rec.record(e, "PostgreSQL vs customer_totals FINAL after the incremental run");

        assertThat(newRecords.get()).as("each new order yields one changelog record").isEqualTo(k);
        assertThat(run.inserted()).as("the sink inserts exactly the new records, no re-reads").isEqualTo(newRecords.get());
        assertThat(rawAfter).as("raw_totals grows by the new records").isEqualTo(rawBefore + newRecords.get());
        assertThat(rec.matches()).as("FINAL vs PG per customer: %s", rec.describe()).isTrue();
    }

    @Test
    @DisplayName("G8 Replay is safe because of the dedup")
    void g8ReplayIsSafe() {
        ClaimEvidence e = Evidence.claim("G8", "Replay is safe because of the dedup");
        Stand stand = Stand.get();
        Pg pg = Pg.of(stand);
        ClickHouse ch = ClickHouse.of(stand);
        pg.seed(20, 5, 8);
        Pipeline.awaitStreamsMatchesPg(stand);
        ch.truncate("raw_totals", "customer_totals");
        Pipeline.sink(stand, SinkMode.TOTALS, o -> o.withFromStart(true));
        String finalRows = "SELECT customer_id, orders, toString(total), version FROM customer_totals FINAL ORDER BY customer_id";
        List<List<String>> finalBefore = ch.rows(finalRows);
        long rawBefore = ch.scalar(RAW_COUNT);
        long topicRecords = Topics.of(stand).committedRecordCount(Stand.CUSTOMER_TOTALS);

        SinkSummary replay = Pipeline.sink(stand, SinkMode.TOTALS, o -> o.withFromStart(true));
        List<List<String>> finalAfter = ch.rows(finalRows);
        long rawAfter = ch.scalar(RAW_COUNT);
        long rawDuplicates = rawAfter - topicRecords;
        Reconciliation rec = Reconciliation.customers(pg.truth(), ch.finalTotals());

        e.figure("replay_summary", replay.line());
        e.figure("topic_records", topicRecords);
        e.figure("raw_totals_before", rawBefore);
        e.figure("raw_totals_after", rawAfter);
        e.expected("raw_totals_after", rawBefore + topicRecords);
        e.figure("raw_twin_duplicate_rows", rawDuplicates);
        e.figure("final_rows_identical", finalAfter.equals(finalBefore));
        e.expected("final_rows_identical", true);
        rec.record(e, "PostgreSQL vs customer_totals FINAL after the replay");
        e.table("customer_totals FINAL after the replay (customer, orders, total, version)",
                List.of("customer_id", "orders", "total", "version"), finalAfter.stream().map(r -> List.<Object>copyOf(r)).toList());
        e.note("Negative control: raw_totals (MergeTree, no dedup) holds " + rawDuplicates
                + " rows more than the topic has records — the replay's duplicates, visible where nothing deduplicates.");

        assertThat(topicRecords).as("records in customer.totals to replay").isGreaterThanOrEqualTo(20);
        assertThat(replay.inserted()).as("the replay re-reads the whole topic").isEqualTo(topicRecords);
        assertThat(rawAfter).as("raw_totals grows by the whole topic").isEqualTo(rawBefore + topicRecords);
        assertThat(rawDuplicates).as("negative control: the raw twin shows the replay's duplicates").isEqualTo(topicRecords);
        assertThat(finalAfter).as("every customer's FINAL row, byte for byte").isEqualTo(finalBefore);
        assertThat(rec.matches()).as("FINAL vs PG per customer: %s", rec.describe()).isTrue();
    }
}
