package dev.seams.it;

import com.clickhouse.client.api.ServerException;
import dev.seams.check.Reconciliation;
import dev.seams.fixture.Pipeline;
import dev.seams.fixture.StandContext;
import dev.seams.report.Anomaly;
import dev.seams.report.Claim;
import dev.seams.report.ClaimEvidence;
import dev.seams.seed.OrderSeeder;
import dev.seams.sink.SinkMode;
import dev.seams.sink.SinkSummary;
import dev.seams.sinks.SinkTrait;
import dev.seams.truth.ClickHouse;
import dev.seams.truth.RunNames;
import dev.seams.truth.Topics;
import dev.seams.truth.Totals;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Duplicates in isolation and the engines that do or do not collapse them (source sections
 * "Изолированный дедуп-эксперимент: 2N против N" and "Идемпотентное состояние на стоке"): G3, G4.
 * G3 reads only the events of its own orders (the sink group is pointed at the end of
 * {@code orders.events} first), so it does not depend on what other claims left in the topic.
 */
@ExtendWith(StandContext.Resolver.class)
class DedupIT {

    private static final String SUM_CNT = "SELECT sum(cnt) FROM order_counts_raw";
    private static final String DEDUP_FINAL_COUNT = "SELECT count() FROM order_dedup FINAL";
    private static final String DEDUP_PHYSICAL_COUNT = "SELECT count() FROM order_dedup";
    /** order_dedup without FINAL: every physical row, a redelivered order as often as it was delivered. */
    private static final String ORDER_DEDUP_PHYSICAL =
            "SELECT order_id, customer_id, toString(amount) FROM order_dedup ORDER BY order_id";
    /** The naive event count per customer (the source's unprotected twin). */
    private static final String NAIVE_COUNT_PER_CUSTOMER =
            "SELECT customer_id, toString(sum(cnt)) FROM order_counts_raw GROUP BY customer_id ORDER BY customer_id";
    /** ClickHouse's error code ILLEGAL_FINAL. */
    private static final int ILLEGAL_FINAL = 181;

    @ParameterizedTest(name = "n={0}")
    @ValueSource(ints = {51, 400})
    @Claim(id = "G3", title = "Isolated duplicates: 2N versus N", exercises = {"sink/DedupDemoMapper", "sink/Sink",
            "containers/clickhouse/001-tables.sql"})
    void g3IsolatedDuplicates(int n, ClaimEvidence e, StandContext s) {
        s.requireSink(SinkTrait.DEDUP_DEMO, "G3 reads Debezium's events into order_dedup twice");
        ClickHouse ch = s.ch();
        Topics topics = s.topics();
        s.settle();
        ch.truncate("order_counts_raw", "order_dedup");
        Map<TopicPartition, Long> start = topics.endOffsets(RunNames.ORDERS_EVENTS);
        long eventsBefore = start.values().stream().mapToLong(Long::longValue).sum();
        topics.resetGroup(RunNames.SINK_GROUP, start);

        List<OrderSeeder.Order> seeded = s.pg().seed(n, 5, 300 + n);
        Pipeline.awaitOrdersEvents(s.endpoints(), eventsBefore + n);
        NavigableMap<Long, OrderSeeder.Order> truth = s.pg().orders()
                .subMap(seeded.get(0).orderId(), true, seeded.get(seeded.size() - 1).orderId(), true);

        SinkSummary first = s.sink(SinkMode.DEDUP_DEMO, o -> o);
        long sumCntFirst = ch.scalar(SUM_CNT);
        long finalFirst = ch.scalar(DEDUP_FINAL_COUNT);
        long physicalFirst = ch.scalar(DEDUP_PHYSICAL_COUNT);
        Reconciliation firstRead = Reconciliation.orders(truth, Reconciliation.orderRows(ch, Reconciliation.ORDER_DEDUP_FINAL));

        topics.resetGroup(RunNames.SINK_GROUP, start);   // replay: the same events again
        SinkSummary replay = s.sink(SinkMode.DEDUP_DEMO, o -> o);
        long sumCnt = ch.scalar(SUM_CNT);
        long physical = ch.scalar(DEDUP_PHYSICAL_COUNT);
        long finalCount = ch.scalar(DEDUP_FINAL_COUNT);
        Reconciliation twin = Reconciliation.orders(truth, Reconciliation.orderRows(ch, ORDER_DEDUP_PHYSICAL));
        long overcounted = overcountedCustomers(perCustomer(truth), ch.rows(NAIVE_COUNT_PER_CUSTOMER));

        e.figure("first_summary", first.line());
        e.figure("replay_summary", replay.line());
        e.check("pg_count", (long) truth.size()).isEqualTo(n, "PG count(*) of the seeded orders");
        e.check("first_inserted", first.inserted()).isEqualTo(n, "the first read inserts one row per order event");
        e.check("sum_cnt_first", sumCntFirst).isEqualTo(n, "first read: sum(cnt) over order_counts_raw");
        e.check("final_count_first", finalFirst).isEqualTo(n, "first read: order_dedup FINAL count()");
        e.figure("physical_rows_first", physicalFirst);
        firstRead.record(e, "seeded orders, PostgreSQL vs order_dedup FINAL after the first read");
        e.check("replay_inserted", replay.inserted()).isEqualTo(n, "the replay re-reads the N events");
        e.check("sum_cnt_after_replay", sumCnt).isEqualTo(2L * n, "the naive count counts every event twice (2N)");
        e.check("physical_rows_after_replay", physical).isEqualTo(2L * n, "order_dedup physically holds both deliveries");
        e.check("final_count_after_replay", finalCount).isEqualTo(n, "order_dedup FINAL count() stays N");
        Reconciliation.orders(truth, Reconciliation.orderRows(ch, Reconciliation.ORDER_DEDUP_FINAL))
                .record(e, "seeded orders, PostgreSQL vs order_dedup FINAL after the replay");
        e.negativeControl("raw_twin_duplicate_order_ids", twin.duplicate(), Anomaly.DUPLICATE,
                "seeded order ids found more than once in order_dedup read without FINAL");
        e.negativeControl("naive_count_overcounted_customers", overcounted, Anomaly.DUPLICATE,
                "customers whose sum(cnt) in order_counts_raw exceeds PG's count of their seeded orders");
        e.table("After the replay (the source's table)", List.of("read", "value"), List.of(
                List.of("order_counts_raw sum(cnt)", sumCnt),
                List.of("order_dedup FINAL count()", finalCount),
                List.of("order_dedup count() (physical rows, no FINAL)", physical),
                List.of("PG count(*) of the seeded orders", truth.size())));
    }

    @Test
    @Claim(id = "G4", title = "MergeTree has no FINAL", exercises = {"containers/clickhouse/001-tables.sql"})
    void g4MergeTreeHasNoFinal(ClaimEvidence e, StandContext s) {
        ClickHouse ch = s.ch();

        ServerException error = refusal(ch, "SELECT count() FROM raw_totals FINAL");
        ServerException control = refusal(ch, "SELECT count() FROM customer_totals FINAL");

        e.figure("server_version", ch.version());
        e.check("raw_totals_engine", engine(ch, "raw_totals")).isEqualTo("MergeTree", "the table the query reads");
        e.check("error_code", error == null ? "no error" : ClickHouse.errorCode(error))
                .isEqualTo(ILLEGAL_FINAL, "SELECT ... FROM raw_totals FINAL fails with ILLEGAL_FINAL");
        e.figure("error_message", error == null ? "" : error.getMessage().lines().findFirst().orElse(""));
        e.check("customer_totals_engine", engine(ch, "customer_totals")).isEqualTo("ReplacingMergeTree",
                "the control table: same query, replacing engine");
        e.check("customer_totals_final_error_code", control == null ? 0 : ClickHouse.errorCode(control))
                .isZero("the same FINAL query on customer_totals (ReplacingMergeTree) is accepted");
        if (control == null) {
            e.figure("customer_totals_final_rows", ch.scalar("SELECT count() FROM customer_totals FINAL"));
        }
    }

    /** @return the server's refusal of the query, or null if it ran */
    private static ServerException refusal(ClickHouse ch, String sql) {
        try {
            ch.execute(sql);
            return null;
        } catch (ServerException refused) {
            return refused;
        }
    }

    /** @return the table's engine as {@code system.tables} names it */
    private static String engine(ClickHouse ch, String table) {
        return ch.rows("SELECT engine FROM system.tables WHERE database = currentDatabase() AND name = '" + table + "'")
                .get(0).get(0);
    }

    /** @return PG's orders per customer (count, sum) of the given orders */
    private static Map<Long, Totals> perCustomer(Map<Long, OrderSeeder.Order> orders) {
        Map<Long, Totals> result = new TreeMap<>();
        orders.values().forEach(o -> result.merge(o.customerId(), new Totals(1, o.amount()),
                (a, b) -> new Totals(a.orders() + b.orders(), a.total().add(b.total()))));
        return result;
    }

    /**
     * @return customers of PG's key set whose naive event count is above PG's count of their orders
     *     (a customer the count has and PG has not counts too)
     */
    private static long overcountedCustomers(Map<Long, Totals> truth, List<List<String>> naive) {
        long overcounted = 0;
        for (List<String> row : naive) {
            Totals pg = truth.get(Long.parseLong(row.get(0)));
            if (pg == null || new BigDecimal(row.get(1)).longValueExact() > pg.orders()) {
                overcounted++;
            }
        }
        return overcounted;
    }
}
