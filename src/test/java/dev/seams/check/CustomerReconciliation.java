package dev.seams.check;

import dev.seams.truth.Totals;
import java.util.List;
import java.util.Map;

/**
 * The per-customer counts of {@link Reconciliation} (claim B8's checker) in the shape earlier claim
 * tests use: {@code lost}, {@code stale}, {@code wrong_value} and one row per customer. The
 * classification is {@link Reconciliation#customers(Map, Map)}'s; new code uses
 * {@link Reconciliation} directly, which also names the differing keys ({@link Reconciliation#describe()},
 * {@link Reconciliation#record}) and checks order ids.
 *
 * @param lost       customers missing from the view
 * @param stale      customers behind PG
 * @param wrongValue customers with other differences
 * @param rows       one row per customer: id, PG orders/total, view orders/total, status
 */
public record CustomerReconciliation(long lost, long stale, long wrongValue, List<List<Object>> rows) {

    /** Column names of {@link #rows()}. */
    public static final List<String> COLUMNS = Reconciliation.CUSTOMER_COLUMNS;

    /** @return the reconciliation of the view against the truth ({@link Reconciliation#customers(Map, Map)}) */
    public static CustomerReconciliation of(Map<Long, Totals> truth, Map<Long, Totals> view) {
        Reconciliation byKey = Reconciliation.customers(truth, view);
        return new CustomerReconciliation(byKey.lost(), byKey.stale(), byKey.wrongValue(), byKey.rows());
    }

    /** @return whether every customer matches */
    public boolean matches() {
        return lost == 0 && stale == 0 && wrongValue == 0;
    }
}
