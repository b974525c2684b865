package dev.seams.it;

import dev.seams.check.Reconciliation;
import dev.seams.fixture.StandContext;
import dev.seams.load.OrderLoad;
import dev.seams.report.Anomaly;
import dev.seams.report.Claim;
import dev.seams.report.ClaimEvidence;
import dev.seams.seed.OrderSeeder;
import dev.seams.sink.SinkMode;
import dev.seams.sink.SinkSummary;
import dev.seams.sinks.SinkTrait;
import dev.seams.truth.ClickHouse;
import dev.seams.truth.Endpoints;
import dev.seams.truth.Rejection;
import dev.seams.truth.RunNames;
import dev.seams.truth.Topics;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Reconciliation by key (claim B8): besides sums, every customer row of {@code customer_totals FINAL}
 * equals PostgreSQL's, and every order_id PostgreSQL has is present exactly once, with its customer and
 * amount, in the deduplicated view {@code order_dedup FINAL} — after a load of real CDC traffic
 * (inserts, amount updates, moves to another customer, deletes; {@link OrderLoad}) and after every
 * order event was delivered twice. The checker ({@link Reconciliation}) is the one every claim that
 * compares with PG uses; here it also proves it fires: on the raw, undeduplicated rows it counts
 * duplicate order ids (the negative control), and on scratch copies with one fault of each class it
 * names exactly the faulty keys.
 *
 * <p>Deleted orders: {@code dedup-demo} writes a DELETE as the order's row with {@code is_deleted = 1}
 * and the change's LSN as version, so the view is the FINAL rows that are not deletions
 * ({@link Reconciliation#ORDER_DEDUP_FINAL}) and a deleted order must be absent like any other key PG has not.
 */
@ExtendWith(StandContext.Resolver.class)
class ReconciliationIT {

    /** Changes of the load: about 75 % inserts, 15 % amount updates, 5 % moves, 5 % deletes. */
    private static final int LOAD = 200;
    /** Changes per PG transaction. */
    private static final int BATCH = 20;

    @Test
    @Claim(id = "B8", title = "Reconciliation by key", exercises = {"sink/DedupDemoMapper", "sink/TotalsMapper",
            "streams/TotalsTopology", "containers/clickhouse/001-tables.sql"})
    void b8ReconciliationByKey(ClaimEvidence e, StandContext s) {
        s.requireSink(SinkTrait.DEDUP_DEMO, "B8 reconciles order_dedup by order");   // before it empties the tables
        Endpoints stand = s.endpoints();
        ClickHouse ch = s.ch();
        Topics topics = s.topics();
        s.settle();
        // given: a load of real changes carried through the pipeline
        long eventsBefore = topics.totalEndOffset(RunNames.ORDERS_EVENTS);
        Map<TopicPartition, Long> totalsMark = topics.endOffsets(RunNames.CUSTOMER_TOTALS);
        OrderLoad.Applied applied = OrderLoad.plan(LOAD, 5, 808, OrderLoad.Mix.REAL).apply(stand, BATCH, done -> { });
        s.settle();
        long loadEvents = topics.totalEndOffset(RunNames.ORDERS_EVENTS) - eventsBefore;
        // when: the views written from the start (totals once, the per-order view twice), reconciled key by key
        ch.truncate("raw_totals", "customer_totals", "order_counts_raw", "order_dedup");
        Map<TopicPartition, Long> dlqMark = topics.endOffsets(RunNames.CUSTOMER_TOTALS_DLQ);
        SinkSummary totals = s.sink(SinkMode.TOTALS, o -> o.withFromStart(true));
        List<Rejection> rejected = Rejection.since(topics, RunNames.CUSTOMER_TOTALS_DLQ, dlqMark);
        NavigableMap<Long, OrderSeeder.Order> pgOrders = s.pg().orders();
        Runs runs = runOrdersTwice(s, pgOrders);
        Reconciliation customers = Reconciliation.customerTotalsFinal(stand);
        Reconciliation byOrder = Reconciliation.orders(pgOrders, Reconciliation.orderRows(ch, Reconciliation.ORDER_DEDUP_FINAL));
        InjectedFaults injected = injectFaults(s, pgOrders);
        // then: FINAL = PG per customer and per order, and the checker names exactly the faults injected into copies
        SinkSummary orders = runs.orders();
        SinkSummary replay = runs.replay();
        Reconciliation twin = runs.twin();
        e.figure("load", applied.inserted() + " inserts, " + applied.updatedAmount() + " amount updates, " + applied.moved()
                + " moves, " + applied.deleted() + " deletes");
        if (applied.updatedAmount() == 0 || applied.moved() == 0 || applied.deleted() == 0) {
            e.unverified("the load applied no " + (applied.updatedAmount() == 0 ? "amount update" : applied.moved() == 0 ? "move" : "delete")
                    + ": the view was not reconciled after that kind of change");
        }
        e.check("orders_events_of_the_load", loadEvents).isEqualTo(applied.changes(), "one orders.events record per change PG applied");
        e.figure("totals_summary", totals.line());
        e.figure("dedup_demo_summary", orders.line());
        e.figure("dedup_demo_replay_summary", replay.line());
        e.figure("totals_bad_records", totals.bad());
        e.figure("totals_rejection_reasons", Rejection.byReason(rejected).toString());
        List<Rejection> ofTheLoad = rejected.stream().filter(r -> r.atOrAfter(totalsMark)).toList();
        e.check("load_snapshots_rejected", ofTheLoad.size()).isZero(
                "customer.totals records ds-streams wrote for this load that the sink rejected (dlq-origin-offset at or after the mark)");
        if (!ofTheLoad.isEmpty()) {
            e.table("Snapshots of this load the sink rejected", List.of("origin", "reason"), ofTheLoad.stream()
                    .limit(Reconciliation.MAX_REPORTED_KEYS).map(r -> List.<Object>of(r.originPartition() + "@" + r.originOffset(),
                            String.valueOf(r.reason()))).toList());
        }
        e.check("replay_inserted", replay.inserted()).isEqualTo(orders.inserted(), "the replay delivers every order event again");
        e.figure("pg_orders", pgOrders.size());
        e.figure("order_dedup_physical_rows", ch.scalar("SELECT count() FROM order_dedup"));
        e.figure("orders_deleted_in_order_dedup", ch.scalar("SELECT count() FROM (SELECT is_deleted FROM order_dedup FINAL) WHERE is_deleted = 1"));
        e.figure("customers_checked", customers.keysChecked());
        e.figure("order_ids_checked", byOrder.keysChecked());
        customers.record(e, "PostgreSQL vs customer_totals FINAL");
        byOrder.record(e, "PostgreSQL vs the per-order view (order_dedup FINAL)");
        e.negativeControl("raw_twin_duplicate_order_ids", twin.duplicate(), Anomaly.DUPLICATE,
                "PG order ids found more than once in order_dedup read without FINAL (every event was delivered twice)");
        recordDetector(e, injected);
        e.note("The dedup-demo sink read orders.events from the start twice, so every order event was delivered twice: "
                + "order_dedup physically holds each order_id at least twice (its merges stopped from the first run to the "
                + "read; negative control: the checker on the rows without FINAL counts " + twin.duplicate()
                + " duplicate order ids), FINAL once.");
    }

    /**
     * The per-order view's two runs.
     *
     * @param orders the dedup-demo sink's first run from the start
     * @param replay its second run from the start: every order event delivered again
     * @param twin   order_dedup read without FINAL after both (the negative control: every order twice)
     */
    private record Runs(SinkSummary orders, SinkSummary replay, Reconciliation twin) {
    }

    private static Runs runOrdersTwice(StandContext s, NavigableMap<Long, OrderSeeder.Order> pgOrders) {
        ClickHouse ch = s.ch();
        SinkSummary orders;
        SinkSummary replay;
        Reconciliation twin;
        // the twin reads order_dedup as the two runs wrote it: a background merge between the replay and the read would
        // collapse the copies it must count (a run right after another claim's writes met one: duplicates 0)
        ch.execute("SYSTEM STOP MERGES order_dedup");
        try {
            orders = s.sink(SinkMode.DEDUP_DEMO, o -> o.withFromStart(true));
            replay = s.sink(SinkMode.DEDUP_DEMO, o -> o.withFromStart(true));
            twin = Reconciliation.orders(pgOrders, Reconciliation.orderRows(ch, Reconciliation.liveOrders("order_dedup", false)));
        } finally {
            ch.execute("SYSTEM START MERGES order_dedup");
        }
        return new Runs(orders, replay, twin);
    }

    /**
     * The checker run on scratch copies of the views with one fault of each class.
     *
     * @param faultyOrders    the per-order copy reconciled with PG: one order lost, one repeated, one 1.00 off
     * @param faultyCustomers the customer_totals copy: customer 1 lost, customer 2 one order behind, customer 3 a cent off
     * @param lostId          the order left out
     * @param duplicateId     the order repeated
     * @param wrongId         the order changed
     */
    private record InjectedFaults(Reconciliation faultyOrders, Reconciliation faultyCustomers, long lostId, long duplicateId,
                                  long wrongId) {
    }

    /** One fault of each class on scratch copies of the views: the checker must name exactly those keys. */
    private static InjectedFaults injectFaults(StandContext s, NavigableMap<Long, OrderSeeder.Order> pgOrders) {
        ClickHouse ch = s.ch();
        List<Long> ids = new ArrayList<>(pgOrders.keySet());
        long lostId = ids.get(0);
        long duplicateId = ids.get(1);
        long wrongId = ids.get(2);
        ch.execute("DROP TABLE IF EXISTS b8_orders");
        ch.execute("CREATE TABLE b8_orders AS order_dedup");
        ch.execute("INSERT INTO b8_orders SELECT * FROM order_dedup FINAL WHERE order_id NOT IN (" + lostId + ", " + wrongId + ")");
        ch.execute("INSERT INTO b8_orders SELECT * FROM order_dedup FINAL WHERE order_id = " + duplicateId);
        ch.execute("INSERT INTO b8_orders (order_id, customer_id, amount, version) SELECT order_id, customer_id, "
                + "amount + toDecimal64(1, 2), version FROM order_dedup FINAL WHERE order_id = " + wrongId);
        Reconciliation faultyOrders = Reconciliation.orders(pgOrders, Reconciliation.orderRows(ch, Reconciliation.liveOrders("b8_orders", false)));
        ch.execute("DROP TABLE IF EXISTS b8_customers");
        ch.execute("CREATE TABLE b8_customers AS customer_totals");
        ch.execute("INSERT INTO b8_customers SELECT * FROM customer_totals FINAL WHERE customer_id NOT IN (1, 2, 3)");
        ch.execute("INSERT INTO b8_customers (customer_id, orders, total, version) SELECT customer_id, toUInt64(orders - 1), total, "
                + "version FROM customer_totals FINAL WHERE customer_id = 2");
        ch.execute("INSERT INTO b8_customers (customer_id, orders, total, version) SELECT customer_id, orders, "
                + "total + toDecimal64(0.01, 2), version FROM customer_totals FINAL WHERE customer_id = 3");
        Reconciliation faultyCustomers = Reconciliation.customers(s.pg().truth(),
                Reconciliation.customerRows(ch, "SELECT customer_id, orders, toString(total) FROM b8_customers FINAL"));
        return new InjectedFaults(faultyOrders, faultyCustomers, lostId, duplicateId, wrongId);
    }

    private static void recordDetector(ClaimEvidence e, InjectedFaults injected) {
        Reconciliation faultyOrders = injected.faultyOrders();
        Reconciliation faultyCustomers = injected.faultyCustomers();
        e.check("injected_order_faults_found", keys(faultyOrders)).isEqualTo(List.of("order " + injected.duplicateId() + " duplicate",
                "order " + injected.lostId() + " lost", "order " + injected.wrongId() + " wrong_value").stream().sorted().toList().toString(),
                "the checker on a copy of the view that loses one order, repeats one and changes one amount by 1.00");
        e.check("injected_customer_faults_found", keys(faultyCustomers)).isEqualTo(List.of("customer 1 lost", "customer 2 stale",
                "customer 3 wrong_value").toString(),
                "the checker on a copy of customer_totals that loses customer 1, puts customer 2 one order behind, customer 3 a cent off");
        e.table("Detector check: one injected fault per class on scratch copies", Reconciliation.DIFFERENCE_COLUMNS,
                faultyOrders.and(faultyCustomers).differences().stream().map(Reconciliation.Difference::cells).toList());
    }

    /** @return the differing keys as sorted text, {@code [order 3 wrong_value, ...]} */
    private static String keys(Reconciliation rec) {
        return rec.differences().stream().map(d -> d.key() + " " + d.anomaly()).sorted().toList().toString();
    }
}
