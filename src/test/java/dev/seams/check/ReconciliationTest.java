package dev.seams.check;

import dev.seams.truth.Totals;
import static org.assertj.core.api.Assertions.assertThat;

import dev.seams.seed.OrderSeeder;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The B8 checker on hand-made truth and views: every anomaly class, named by key. */
class ReconciliationTest {

    private static Totals t(long orders, String total) {
        return new Totals(orders, new BigDecimal(total));
    }

    private static OrderSeeder.Order o(long id, int customer, String amount) {
        return new OrderSeeder.Order(id, customer, new BigDecimal(amount));
    }

    @Test
    void equalViewsMatch() {
        Map<Long, Totals> pg = Map.of(1L, t(2, "10.50"), 2L, t(1, "3.00"));
        Reconciliation rec = Reconciliation.customers(pg, Map.of(1L, t(2, "10.5"), 2L, t(1, "3")));
        assertThat(rec.matches()).isTrue();
        assertThat(rec.anomalies()).containsOnly(Map.entry("duplicate", 0L), Map.entry("lost", 0L),
                Map.entry("stale", 0L), Map.entry("wrong_value", 0L));
        assertThat(rec.keysChecked()).isEqualTo(2);
        assertThat(rec.rows()).extracting(r -> r.get(3)).containsExactly("ok", "ok");
        assertThat(rec.describe()).isEqualTo("all 2 keys match");
    }

    @Test
    void everyCustomerAnomalyIsNamedByKey() {
        Map<Long, Totals> pg = Map.of(1L, t(2, "10.00"), 2L, t(3, "30.00"), 3L, t(1, "5.00"), 4L, t(1, "1.00"));
        List<Reconciliation.CustomerRow> view = List.of(
                new Reconciliation.CustomerRow(2, t(2, "20.00")),     // behind
                new Reconciliation.CustomerRow(3, t(1, "5.01")),      // a cent off
                new Reconciliation.CustomerRow(4, t(1, "1.00")),
                new Reconciliation.CustomerRow(4, t(1, "1.00")),      // twice
                new Reconciliation.CustomerRow(9, t(1, "9.00")),      // PG has no customer 9
                new Reconciliation.CustomerRow(8, t(0, "0.00")));     // all orders deleted: PG agrees
        Reconciliation rec = Reconciliation.customers(pg, view);

        assertThat(rec.lost()).isEqualTo(1);
        assertThat(rec.stale()).isEqualTo(1);
        assertThat(rec.wrongValue()).isEqualTo(2);
        assertThat(rec.duplicate()).isEqualTo(1);
        assertThat(rec.differences()).extracting(Reconciliation.Difference::key, Reconciliation.Difference::anomaly)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("customer 1", "lost"),
                        org.assertj.core.groups.Tuple.tuple("customer 2", "stale"),
                        org.assertj.core.groups.Tuple.tuple("customer 3", "wrong_value"),
                        org.assertj.core.groups.Tuple.tuple("customer 4", "duplicate"),
                        org.assertj.core.groups.Tuple.tuple("customer 9", "wrong_value"));
        assertThat(rec.differences().get(3).view()).isEqualTo("1/1.00 + 1/1.00");
        assertThat(rec.rows()).hasSize(6);
        assertThat(rec.describe()).startsWith("5 differing keys of 6").contains("customer 2 stale (PG 3/30.00, view 2/20.00)");
    }

    @Test
    void everyOrderAnomalyIsNamedByKey() {
        Map<Long, OrderSeeder.Order> pg = Map.of(1L, o(1, 1, "10.00"), 2L, o(2, 2, "20.00"), 3L, o(3, 3, "30.00"),
                4L, o(4, 1, "40.00"));
        List<OrderSeeder.Order> view = List.of(o(1, 1, "10.0"), o(2, 2, "20.00"), o(2, 2, "20.00"), o(3, 3, "30.01"),
                o(7, 1, "1.00"));
        Reconciliation rec = Reconciliation.orders(pg, view);

        assertThat(rec.duplicate()).isEqualTo(1);
        assertThat(rec.lost()).isEqualTo(1);
        assertThat(rec.wrongValue()).isEqualTo(2);
        assertThat(rec.stale()).isZero();
        assertThat(rec.differences()).extracting(Reconciliation.Difference::toString).containsExactly(
                "order 2 duplicate (PG customer 2 20.00, view customer 2 20.00 + customer 2 20.00)",
                "order 3 wrong_value (PG customer 3 30.00, view customer 3 30.01)",
                "order 4 lost (PG customer 1 40.00, view -)",
                "order 7 wrong_value (PG -, view customer 1 1.00)");
        assertThat(rec.rows()).isEmpty();
        assertThat(rec.keysChecked()).isEqualTo(5);
    }

    @Test
    void combinedResultsAddUp() {
        Reconciliation customers = Reconciliation.customers(Map.of(1L, t(1, "1.00")), Map.of());
        Reconciliation orders = Reconciliation.orders(Map.of(5L, o(5, 1, "1.00")), List.of(o(5, 1, "1.00"), o(5, 1, "1.00")));
        Reconciliation both = customers.and(orders);
        assertThat(both.lost()).isEqualTo(1);
        assertThat(both.duplicate()).isEqualTo(1);
        assertThat(both.keysChecked()).isEqualTo(2);
        assertThat(both.differences()).extracting(Reconciliation.Difference::key).containsExactly("customer 1", "order 5");
        assertThat(both.rows()).hasSize(1);
        assertThat(both.matches()).isFalse();
    }

    @Test
    void describeNamesAtMostFiftyKeys() {
        Map<Long, OrderSeeder.Order> pg = new java.util.TreeMap<>();
        for (long id = 1; id <= 60; id++) {
            pg.put(id, o(id, 1, "1.00"));
        }
        Reconciliation rec = Reconciliation.orders(pg, List.of());
        assertThat(rec.lost()).isEqualTo(60);
        assertThat(rec.describe()).startsWith("60 differing keys of 60").contains("order 50 lost").doesNotContain("order 51 ")
                .endsWith("; ...");
    }
}
