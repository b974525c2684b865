package dev.seams.stand;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Compares PostgreSQL's per-customer truth with what a view reports, naming each difference by
 * anomaly class (CLAIMS.md "Name the anomaly"): {@code lost} — a PG customer missing from the view;
 * {@code stale} — the view is behind (fewer orders); {@code wrong_value} — any other difference,
 * including a customer the view has and PG does not.
 *
 * @param lost       customers missing from the view
 * @param stale      customers behind PG
 * @param wrongValue customers with other differences
 * @param rows       one row per customer: id, PG orders/total, view orders/total, status
 */
public record CustomerReconciliation(long lost, long stale, long wrongValue, List<List<Object>> rows) {

    /** Column names of {@link #rows()}. */
    public static final List<String> COLUMNS = List.of("customer_id", "PG orders/total", "view orders/total", "status");

    /** @return the reconciliation of the view against the truth */
    public static CustomerReconciliation of(Map<Integer, Totals> truth, Map<Integer, Totals> view) {
        long lost = 0;
        long stale = 0;
        long wrong = 0;
        List<List<Object>> rows = new ArrayList<>();
        TreeSet<Integer> ids = new TreeSet<>(truth.keySet());
        ids.addAll(view.keySet());
        for (Integer id : ids) {
            Totals pg = truth.get(id);
            Totals v = view.get(id);
            String status;
            if (v == null) {
                status = "lost";
                lost++;
            } else if (pg == null) {
                status = "wrong_value";
                wrong++;
            } else if (pg.equals(v)) {
                status = "ok";
            } else if (v.orders() < pg.orders()) {
                status = "stale";
                stale++;
            } else {
                status = "wrong_value";
                wrong++;
            }
            rows.add(List.of(id, pg == null ? "-" : pg.toString(), v == null ? "-" : v.toString(), status));
        }
        return new CustomerReconciliation(lost, stale, wrong, rows);
    }

    /** @return whether every customer matches */
    public boolean matches() {
        return lost == 0 && stale == 0 && wrongValue == 0;
    }
}
