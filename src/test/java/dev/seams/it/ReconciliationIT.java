package dev.seams.it;

import static org.assertj.core.api.Assertions.assertThat;

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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import java.util.TreeSet;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Reconciliation by key (claim B8): besides sums, every customer row of {@code customer_totals FINAL}
 * equals PostgreSQL's, and every order_id PostgreSQL has is present exactly once, with its customer and
 * amount, in the deduplicated view {@code order_dedup FINAL} — after every order was delivered twice.
 * The checker ({@link Reconciliation}) is the one every claim that compares with PG uses; here it
 * also proves it fires: on the raw, undeduplicated rows it counts every order as a duplicate, and
 * on scratch copies with one fault of each class it names exactly the faulty keys.
 */
@ExtendWith(EvidenceExtension.class)
class ReconciliationIT {

    private static final String ORDERS_RAW = "SELECT order_id, customer_id, toString(amount) FROM order_dedup ORDER BY order_id";

    @Test
    @DisplayName("B8 Reconciliation by key")
    void b8ReconciliationByKey() {
        ClaimEvidence e = Evidence.claim("B8", "Reconciliation by key");
        Stand stand = Stand.get();
        Pg pg = Pg.of(stand);
        ClickHouse ch = ClickHouse.of(stand);
        pg.seed(40, 5, 808);
        Pipeline.awaitStreamsMatchesPg(stand);
        ch.truncate("raw_totals", "customer_totals", "order_counts_raw", "order_dedup");
        SinkSummary totals = Pipeline.sink(stand, SinkMode.TOTALS, o -> o.withFromStart(true));
        SinkSummary orders = Pipeline.sink(stand, SinkMode.DEDUP_DEMO, o -> o.withFromStart(true));
        SinkSummary replay = Pipeline.sink(stand, SinkMode.DEDUP_DEMO, o -> o.withFromStart(true));

        NavigableMap<Long, OrderSeeder.Order> pgOrders = pg.orders();
        Set<Long> deleted = deletedOrders(Topics.of(stand), pgOrders.keySet());
        Reconciliation customers = Reconciliation.customerTotalsFinal(stand);
        Reconciliation byOrder = Reconciliation.orders(pgOrders, without(deleted, Reconciliation.orderRows(ch, Reconciliation.ORDER_DEDUP_FINAL)));
        Reconciliation twin = Reconciliation.orders(pgOrders, without(deleted, Reconciliation.orderRows(ch, ORDERS_RAW)));
        Reconciliation both = customers.and(byOrder);

        // one fault of each class on scratch copies: the checker must name exactly those keys
        List<Long> ids = new ArrayList<>(pgOrders.keySet());
        long lostId = ids.get(0);
        long duplicateId = ids.get(1);
        long wrongId = ids.get(2);
        ch.execute("DROP TABLE IF EXISTS b8_orders");
        ch.execute("CREATE TABLE b8_orders AS order_dedup");
        ch.execute("INSERT INTO b8_orders SELECT order_id, customer_id, amount, version FROM order_dedup FINAL "
                + "WHERE order_id NOT IN (" + lostId + ", " + wrongId + ")");
        ch.execute("INSERT INTO b8_orders SELECT order_id, customer_id, amount, version FROM order_dedup FINAL WHERE order_id = " + duplicateId);
        ch.execute("INSERT INTO b8_orders SELECT order_id, customer_id, amount + toDecimal64(1, 2), version FROM order_dedup FINAL "
                + "WHERE order_id = " + wrongId);
        Reconciliation faultyOrders = Reconciliation.orders(pgOrders,
                Reconciliation.orderRows(ch, "SELECT order_id, customer_id, toString(amount) FROM b8_orders"));
        ch.execute("DROP TABLE IF EXISTS b8_customers");
        ch.execute("CREATE TABLE b8_customers AS customer_totals");
        ch.execute("INSERT INTO b8_customers SELECT customer_id, orders, total, version FROM customer_totals FINAL WHERE customer_id > 3");
        ch.execute("INSERT INTO b8_customers SELECT customer_id, toUInt64(orders - 1), total, version FROM customer_totals FINAL WHERE customer_id = 2");
        ch.execute("INSERT INTO b8_customers SELECT customer_id, orders, total + toDecimal64(0.01, 2), version FROM customer_totals FINAL "
                + "WHERE customer_id = 3");
        Reconciliation faultyCustomers = Reconciliation.customers(pg.truth(),
                Reconciliation.customerRows(ch, "SELECT customer_id, orders, toString(total) FROM b8_customers FINAL"));

        e.figure("totals_summary", totals.line());
        e.figure("dedup_demo_summary", orders.line());
        e.figure("dedup_demo_replay_summary", replay.line());
        e.figure("pg_orders", (long) pgOrders.size());
        e.figure("order_dedup_physical_rows", ch.scalar("SELECT count() FROM order_dedup"));
        e.figure("deleted_orders_left_out", (long) deleted.size());
        e.figure("customers_checked", customers.keysChecked());
        e.figure("order_ids_checked", byOrder.keysChecked());
        e.figure("differing_keys", both.differences().size());
        e.expected("differing_keys", 0);
        e.figure("raw_twin_duplicate_order_ids", twin.duplicate());
        e.expected("raw_twin_duplicate_order_ids", (long) pgOrders.size());
        e.figure("injected_faults_found", faultyOrders.and(faultyCustomers).describe());
        both.record(e, "PostgreSQL vs customer_totals FINAL and order_dedup FINAL");
        e.table("Detector check: one injected fault per class on scratch copies", Reconciliation.DIFFERENCE_COLUMNS,
                faultyOrders.and(faultyCustomers).differences().stream().map(Reconciliation.Difference::cells).toList());
        e.note("The dedup-demo sink read orders.events from the start twice, so every order was delivered twice: "
                + "order_dedup physically holds each order_id twice (negative control: the checker on the rows without "
                + "FINAL counts " + twin.duplicate() + " duplicate order ids), FINAL once. Scratch copies then lose order "
                + lostId + ", repeat order " + duplicateId + ", change order " + wrongId + "'s amount by 1.00; lose "
                + "customer 1, put customer 2 one order behind and customer 3 a cent off.");
        if (!deleted.isEmpty()) {
            e.note("Left out of the per-order view: " + deleted.size() + " orders that other claims DELETEd in PG "
                    + "(orders.events holds their tombstones). dedup-demo is an insert-only event count (G3): a tombstone "
                    + "writes no row, so order_dedup keeps a deleted order; the per-customer check covers deletes.");
        }

        assertThat(totals.bad()).as("bad records").isZero();
        assertThat(replay.inserted()).as("the replay delivers every order event again").isEqualTo(orders.inserted());
        assertThat(customers.matches()).as("customer_totals FINAL vs PG: %s", customers.describe()).isTrue();
        assertThat(byOrder.matches()).as("every PG order_id exactly once in order_dedup FINAL: %s", byOrder.describe()).isTrue();
        assertThat(byOrder.keysChecked()).as("order ids checked").isEqualTo(pgOrders.size());
        assertThat(twin.duplicate()).as("negative control: without FINAL every order id is a duplicate").isEqualTo(pgOrders.size());
        assertThat(faultyOrders.differences()).as("injected order faults, by key and class")
                .extracting(Reconciliation.Difference::key, Reconciliation.Difference::anomaly)
                .containsExactlyInAnyOrder(Tuple.tuple("order " + lostId, "lost"), Tuple.tuple("order " + duplicateId, "duplicate"),
                        Tuple.tuple("order " + wrongId, "wrong_value"));
        assertThat(faultyCustomers.differences()).as("injected customer faults, by key and class")
                .extracting(Reconciliation.Difference::key, Reconciliation.Difference::anomaly)
                .containsExactlyInAnyOrder(Tuple.tuple("customer 1", "lost"), Tuple.tuple("customer 2", "stale"),
                        Tuple.tuple("customer 3", "wrong_value"));
        assertThat(faultyOrders.anomalies()).as("injected order faults by class")
                .isEqualTo(Map.of("duplicate", 1L, "lost", 1L, "stale", 0L, "wrong_value", 1L));
    }

    /** @return order ids whose last event in orders.events is a tombstone (DELETE) and that PG no longer has */
    private static Set<Long> deletedOrders(Topics topics, Set<Long> inPg) {
        Set<Long> deleted = new TreeSet<>();
        topics.readAll(Stand.ORDERS_EVENTS, "read_committed", r -> {
            String key = r.key() == null ? "" : new String(r.key(), java.nio.charset.StandardCharsets.UTF_8).trim();
            if (!key.matches("\\d{1,18}")) {
                return;   // not an order key (a hand-made bad record of another claim)
            }
            long id = Long.parseLong(key);
            if (r.value() == null) {
                deleted.add(id);
            } else {
                deleted.remove(id);
            }
        });
        deleted.removeAll(inPg);
        return deleted;
    }

    private static List<OrderSeeder.Order> without(Set<Long> ids, List<OrderSeeder.Order> rows) {
        return rows.stream().filter(o -> !ids.contains(o.orderId())).toList();
    }
}
