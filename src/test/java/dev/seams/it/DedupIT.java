package dev.seams.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.clickhouse.client.api.ServerException;
import dev.seams.report.ClaimEvidence;
import dev.seams.report.Evidence;
import dev.seams.report.EvidenceExtension;
import dev.seams.seed.OrderSeeder;
import dev.seams.sink.SinkMode;
import dev.seams.sink.SinkSummary;
import dev.seams.stand.ClickHouse;
import dev.seams.stand.Pg;
import dev.seams.stand.Pipeline;
import dev.seams.stand.Reconciliation;
import dev.seams.stand.Stand;
import dev.seams.stand.Topics;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Duplicates in isolation and the engines that do or do not collapse them (source sections
 * "Изолированный дедуп-эксперимент: 2N против N" and "Идемпотентное состояние на стоке"): G3, G4.
 */
@ExtendWith(EvidenceExtension.class)
class DedupIT {

    @ParameterizedTest(name = "G3 Isolated duplicates: 2N versus N [n={0}]")
    @ValueSource(ints = {51, 400})
    void g3IsolatedDuplicates(int n) {
        ClaimEvidence e = Evidence.claim("G3[n=" + n + "]", "Isolated duplicates: 2N versus N");
        Stand stand = Stand.get();
        Pg pg = Pg.of(stand);
        ClickHouse ch = ClickHouse.of(stand);
        Topics topics = Topics.of(stand);
        Pipeline.awaitStreamsMatchesPg(stand);
        ch.truncate("order_counts_raw", "order_dedup");
        Map<TopicPartition, Long> start = topics.endOffsets(Stand.ORDERS_EVENTS);
        long eventsBefore = start.values().stream().mapToLong(Long::longValue).sum();
        topics.resetGroup("ds-sink", start);

        List<OrderSeeder.Order> seeded = pg.seed(n, 5, 300 + n);
        Pipeline.awaitOrdersEvents(stand, eventsBefore + n);
        long firstId = seeded.get(0).orderId();
        long lastId = seeded.get(seeded.size() - 1).orderId();

        SinkSummary first = Pipeline.sink(stand, SinkMode.DEDUP_DEMO, o -> o);
        long sumCntFirst = ch.scalar("SELECT sum(cnt) FROM order_counts_raw");
        long finalFirst = ch.scalar("SELECT count() FROM order_dedup FINAL");
        long physicalFirst = ch.scalar("SELECT count() FROM order_dedup");

        topics.resetGroup("ds-sink", start);   // replay: the same events again
        SinkSummary replay = Pipeline.sink(stand, SinkMode.DEDUP_DEMO, o -> o);
        long sumCnt = ch.scalar("SELECT sum(cnt) FROM order_counts_raw");
        long physical = ch.scalar("SELECT count() FROM order_dedup");
        long finalCount = ch.scalar("SELECT count() FROM order_dedup FINAL");
        long pgCount = pg.countBetween(firstId, lastId);

        // anomalies of the deduplicated view, by key against the seeded orders as PG has them (B8's checker)
        Map<Long, OrderSeeder.Order> truth = pg.orders().subMap(firstId, true, lastId, true);
        Reconciliation rec = Reconciliation.orders(truth, Reconciliation.orderRows(ch, Reconciliation.ORDER_DEDUP_FINAL));
        long duplicate = rec.duplicate();
        long lost = rec.lost();
        long unexpected = rec.wrongValue();
        // the unprotected twin: events counted more than once in order_counts_raw
        long twinDuplicates = sumCnt - n;

        e.figure("n", n);
        e.figure("first_summary", first.line());
        e.figure("replay_summary", replay.line());
        e.figure("sum_cnt_first", sumCntFirst);
        e.expected("sum_cnt_first", (long) n);
        e.figure("final_count_first", finalFirst);
        e.expected("final_count_first", (long) n);
        e.figure("physical_rows_first", physicalFirst);
        e.figure("sum_cnt_after_replay", sumCnt);
        e.expected("sum_cnt_after_replay", 2L * n);
        e.figure("physical_rows_after_replay", physical);
        e.expected("physical_rows_after_replay", 2L * n);
        e.figure("final_count_after_replay", finalCount);
        e.expected("final_count_after_replay", (long) n);
        e.figure("pg_count", pgCount);
        e.figure("twin_duplicate_events", twinDuplicates);
        rec.record(e, "seeded orders, PostgreSQL vs order_dedup FINAL");
        e.table("After the replay (the source's table)", List.of("read", "value"), List.of(
                List.of("order_counts_raw sum(cnt)", sumCnt),
                List.of("order_dedup FINAL count()", finalCount),
                List.of("order_dedup count() (physical rows, no FINAL)", physical),
                List.of("PG count(*) of the seeded orders", pgCount)));

        assertThat(first.inserted()).as("first read inserts the N events").isEqualTo(n);
        assertThat(sumCntFirst).as("first read: sum(cnt)").isEqualTo(n);
        assertThat(finalFirst).as("first read: order_dedup FINAL count()").isEqualTo(n);
        assertThat(pgCount).as("PG count of the seeded orders").isEqualTo(n);
        assertThat(replay.inserted()).as("the replay re-reads the N events").isEqualTo(n);
        assertThat(sumCnt).as("negative control: the raw twin counts every event twice (2N)").isEqualTo(2L * n);
        assertThat(physical).as("order_dedup physically holds both deliveries").isEqualTo(2L * n);
        assertThat(finalCount).as("order_dedup FINAL count() stays N").isEqualTo(n);
        assertThat(duplicate).as("order ids more than once in FINAL: %s", rec.describe()).isZero();
        assertThat(lost).as("seeded order ids missing from FINAL: %s", rec.describe()).isZero();
        assertThat(unexpected).as("order ids in FINAL not seeded or with another customer/amount: %s", rec.describe()).isZero();
    }

    @Test
    @DisplayName("G4 MergeTree has no FINAL")
    void g4MergeTreeHasNoFinal() {
        ClaimEvidence e = Evidence.claim("G4", "MergeTree has no FINAL");
        Stand stand = Stand.get();
        ClickHouse ch = ClickHouse.of(stand);

        ServerException error = catchThrowableOfType(ServerException.class,
                () -> ch.execute("SELECT count() FROM raw_totals FINAL"));
        long replacing = ch.scalar("SELECT count() FROM customer_totals FINAL");

        e.figure("error_code", error == null ? "no error" : ClickHouse.errorCode(error));
        e.expected("error_code", 181);
        e.figure("error_message", error == null ? "" : error.getMessage().lines().findFirst().orElse(""));
        e.figure("customer_totals_final_works", true);
        e.note("Control: the same query on customer_totals (ReplacingMergeTree) returned " + replacing + " rows.");

        assertThat(error).as("SELECT ... FROM raw_totals FINAL must fail").isNotNull();
        assertThat(ClickHouse.errorCode(error)).as("ClickHouse error code (ILLEGAL_FINAL)").isEqualTo(181);
    }
}
