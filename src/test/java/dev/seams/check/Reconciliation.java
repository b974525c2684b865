package dev.seams.check;

import dev.seams.report.ClaimEvidence;
import dev.seams.seed.OrderSeeder;
import dev.seams.truth.ClickHouse;
import dev.seams.truth.Endpoints;
import dev.seams.truth.Pg;
import dev.seams.truth.Totals;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.LongPredicate;
import java.util.stream.Collectors;

/**
 * Reconciliation by key — the one checker every claim that compares ClickHouse with PostgreSQL
 * uses (claim B8; docs/claims.md "Name the anomaly"). It compares PG's truth with the rows a view
 * returned, key by key, and names every difference by anomaly class:
 *
 * <ul>
 *   <li><b>per customer</b> (orders count and total, to the cent): {@code duplicate} — the view
 *       returned the customer more than once; {@code lost} — a customer PG has is missing;
 *       {@code stale} — the view has fewer orders than PG (behind); {@code wrong_value} — any other
 *       difference, including a customer PG does not have, unless the view says {@code 0/0.00}
 *       (all of that customer's orders were deleted, which is what PG says too);</li>
 *   <li><b>per order_id</b> (present exactly once, with PG's customer and amount):
 *       {@code duplicate} — the id appears more than once; {@code lost} — a PG order is missing;
 *       {@code wrong_value} — another customer or amount, or an id PG does not have.</li>
 * </ul>
 *
 * <p>Duplicates are counted against the expected key set, never as {@code count() - uniqExact()}.
 * Each anomaly counts keys: a customer returned three times is one duplicate key. A result keeps the
 * counts, every differing key ({@link #differences()}) and, for customers, one row per key for the
 * report ({@link #rows()}); {@link #record} puts all of it into a claim's evidence so that the
 * report lists the differing keys when a claim fails.
 */
public final class Reconciliation {

    /** Column names of {@link #rows()}. */
    public static final List<String> CUSTOMER_COLUMNS = List.of("customer_id", "PG orders/total", "view orders/total", "status");
    /** Column names of the differing-keys table {@link #record} adds. */
    public static final List<String> DIFFERENCE_COLUMNS = List.of("key", "anomaly", "PG", "view");
    /** {@code customer_totals FINAL} as rows for {@link #customerRows}: (customer_id, orders, total as text). */
    public static final String CUSTOMER_TOTALS_FINAL = customerFinal("customer_totals");

    /**
     * @param table a table shaped like {@code customer_totals}, e.g. a scratch copy {@code twin.customer_totals}
     * @return the query of its FINAL rows for {@link #customerRows}: (customer_id, orders, total as text)
     */
    public static String customerFinal(String table) {
        return "SELECT customer_id, orders, toString(total) FROM " + table + " FINAL ORDER BY customer_id";
    }
    /**
     * The orders {@code order_dedup} says exist, as rows for {@link #orderRows}: (order_id, customer_id,
     * amount as text) of the latest version of each order (FINAL) that is not a deletion. FINAL runs
     * in a subquery so that the {@code is_deleted} filter applies after it on every server version
     * (ClickHouse before 20.x moved a WHERE of a FINAL query to PREWHERE, before FINAL: ClickHouse#8684).
     */
    public static final String ORDER_DEDUP_FINAL = liveOrders("order_dedup", true);

    /**
     * @param table a table shaped like {@code order_dedup}
     * @param fin   read it with FINAL (the deduplicated view) or physically (every row, the raw twin)
     * @return the query of its rows that are not deletions, as rows for {@link #orderRows}, FINAL applied first
     */
    public static String liveOrders(String table, boolean fin) {
        return "SELECT order_id, customer_id, toString(amount) FROM (SELECT order_id, customer_id, amount, is_deleted FROM "
                + table + (fin ? " FINAL" : "") + ") WHERE is_deleted = 0 ORDER BY order_id";
    }
    /** At most this many differing keys go into the report's table and into {@link #describe()}. */
    public static final int MAX_REPORTED_KEYS = 50;

    private static final String ABSENT = "-";
    private static final String OK = "ok";
    private static final String DUPLICATE = "duplicate";
    private static final String LOST = "lost";
    private static final String STALE = "stale";
    private static final String WRONG_VALUE = "wrong_value";

    /**
     * One key that differs.
     *
     * @param key     {@code customer 3} or {@code order 17}
     * @param anomaly duplicate, lost, stale or wrong_value
     * @param truth   what PG says ({@code -} if PG has no such key)
     * @param view    what the view returned ({@code -} if nothing; several rows joined by {@code " + "})
     */
    public record Difference(String key, String anomaly, String truth, String view) {

        /** @return the difference as a report row, in {@link #DIFFERENCE_COLUMNS} order */
        public List<Object> cells() {
            return List.of(key, anomaly, truth, view);
        }

        @Override
        public String toString() {
            return key + " " + anomaly + " (PG " + truth + ", view " + view + ")";
        }
    }

    /**
     * One physical row a per-customer view returned.
     *
     * @param customerId the customer
     * @param totals     its orders count and total
     */
    public record CustomerRow(long customerId, Totals totals) {

        /** @return e.g. {@code 3: 27/1112.08} (customer: orders/total) */
        @Override
        public String toString() {
            return customerId + ": " + totals;
        }
    }

    private final Map<String, Long> counts;
    private final List<Difference> differences;
    private final List<List<Object>> rows;
    private final long keysChecked;

    private Reconciliation(Map<String, Long> counts, List<Difference> differences, List<List<Object>> rows, long keysChecked) {
        this.counts = counts;
        this.differences = List.copyOf(differences);
        this.rows = List.copyOf(rows);
        this.keysChecked = keysChecked;
    }

    private static Map<String, Long> zero() {
        Map<String, Long> counts = new LinkedHashMap<>();
        for (String anomaly : List.of(DUPLICATE, LOST, STALE, WRONG_VALUE)) {
            counts.put(anomaly, 0L);
        }
        return counts;
    }

    /**
     * Per customer, from a view read into a map (one row per customer; duplicates cannot be seen).
     *
     * @param truth PG: customer id → (count(*), sum(amount))
     * @param view  the view: customer id → (orders, total)
     * @return the reconciliation
     */
    public static Reconciliation customers(Map<Long, Totals> truth, Map<Long, Totals> view) {
        List<CustomerRow> rows = new ArrayList<>();
        view.forEach((id, totals) -> rows.add(new CustomerRow(id, totals)));
        return customers(truth, rows);
    }

    /**
     * Per customer, from the physical rows a view returned (a customer returned twice is a duplicate).
     *
     * @param truth PG: customer id → (count(*), sum(amount)); customers without orders are absent
     * @param view  the rows the view returned, in any order
     * @return the reconciliation, with one report row per customer in id order
     */
    public static Reconciliation customers(Map<Long, Totals> truth, List<CustomerRow> view) {
        Map<Long, List<Totals>> byId = new TreeMap<>();
        view.forEach(r -> byId.computeIfAbsent(r.customerId(), k -> new ArrayList<>()).add(r.totals()));
        TreeSet<Long> ids = new TreeSet<>(truth.keySet());
        ids.addAll(byId.keySet());
        Map<String, Long> counts = zero();
        List<Difference> differences = new ArrayList<>();
        List<List<Object>> rows = new ArrayList<>();
        Totals none = new Totals(0, BigDecimal.ZERO);
        for (Long id : ids) {
            Totals pg = truth.get(id);
            List<Totals> seen = byId.getOrDefault(id, List.of());
            String status;
            if (seen.size() > 1) {
                status = DUPLICATE;
            } else if (seen.isEmpty()) {
                status = LOST;
            } else if (seen.get(0).equals(pg == null ? none : pg)) {
                status = OK;
            } else if (pg != null && seen.get(0).orders() < pg.orders()) {
                status = STALE;
            } else {
                status = WRONG_VALUE;
            }
            String pgText = pg == null ? ABSENT : pg.toString();
            String viewText = seen.isEmpty() ? ABSENT : seen.stream().map(Totals::toString).collect(Collectors.joining(" + "));
            rows.add(List.of(id, pgText, viewText, status));
            if (!status.equals(OK)) {
                counts.merge(status, 1L, Long::sum);
                differences.add(new Difference("customer " + id, status, pgText, viewText));
            }
        }
        return new Reconciliation(counts, differences, rows, ids.size());
    }

    /**
     * Per customer, for the customers a claim owns only: the others are left out on both sides.
     *
     * @param truth PG: customer id → (count(*), sum(amount))
     * @param view  the rows the view returned
     * @param owned which customer ids to compare
     * @return the reconciliation of those customers
     */
    public static Reconciliation customers(Map<Long, Totals> truth, List<CustomerRow> view, LongPredicate owned) {
        Map<Long, Totals> mine = new TreeMap<>(truth);
        mine.keySet().removeIf(id -> !owned.test(id));
        return customers(mine, view.stream().filter(r -> owned.test(r.customerId())).toList());
    }

    /**
     * Per order_id: every PG order exactly once, with PG's customer and amount.
     *
     * @param truth PG: order id → order (the orders expected in the view)
     * @param view  the rows the view returned, in any order
     * @return the reconciliation (no per-key report rows: only the differing keys)
     */
    public static Reconciliation orders(Map<Long, OrderSeeder.Order> truth, List<OrderSeeder.Order> view) {
        Map<Long, List<OrderSeeder.Order>> byId = new TreeMap<>();
        view.forEach(o -> byId.computeIfAbsent(o.orderId(), k -> new ArrayList<>()).add(o));
        TreeSet<Long> ids = new TreeSet<>(truth.keySet());
        ids.addAll(byId.keySet());
        Map<String, Long> counts = zero();
        List<Difference> differences = new ArrayList<>();
        for (Long id : ids) {
            OrderSeeder.Order pg = truth.get(id);
            List<OrderSeeder.Order> seen = byId.getOrDefault(id, List.of());
            String status;
            if (seen.size() > 1) {
                status = DUPLICATE;
            } else if (seen.isEmpty()) {
                status = LOST;
            } else if (pg != null && pg.customerId() == seen.get(0).customerId()
                    && pg.amount().compareTo(seen.get(0).amount()) == 0) {
                continue;
            } else {
                status = WRONG_VALUE;
            }
            counts.merge(status, 1L, Long::sum);
            differences.add(new Difference("order " + id, status, pg == null ? ABSENT : orderText(pg),
                    seen.isEmpty() ? ABSENT : seen.stream().map(Reconciliation::orderText).collect(Collectors.joining(" + "))));
        }
        return new Reconciliation(counts, differences, List.of(), ids.size());
    }

    private static String orderText(OrderSeeder.Order o) {
        return "customer " + o.customerId() + " " + Totals.canonical(o.amount()).toPlainString();
    }

    /**
     * {@code customer_totals FINAL} against PG, both read now.
     *
     * @return the per-customer reconciliation
     */
    public static Reconciliation customerTotalsFinal(Endpoints stand) {
        return customers(Pg.of(stand).truth(), customerRows(ClickHouse.of(stand.clickhouseTarget()), CUSTOMER_TOTALS_FINAL));
    }

    /**
     * @param sql a query returning (customer_id, orders, total as text)
     * @return its rows, duplicates kept
     */
    public static List<CustomerRow> customerRows(ClickHouse ch, String sql) {
        return ch.rows(sql).stream().map(r -> new CustomerRow(Long.parseLong(r.get(0)),
                new Totals(Long.parseLong(r.get(1)), new BigDecimal(r.get(2))))).toList();
    }

    /**
     * @param sql a query returning (order_id, customer_id, amount as text)
     * @return its rows, duplicates kept
     */
    public static List<OrderSeeder.Order> orderRows(ClickHouse ch, String sql) {
        return ch.rows(sql).stream().map(r -> new OrderSeeder.Order(Long.parseLong(r.get(0)), Long.parseLong(r.get(1)),
                new BigDecimal(r.get(2)))).toList();
    }

    /**
     * @param other another reconciliation (e.g. per order after per customer)
     * @return both together: counts added, differences and rows concatenated
     */
    public Reconciliation and(Reconciliation other) {
        Map<String, Long> sum = new LinkedHashMap<>(counts);
        other.counts.forEach((k, v) -> sum.merge(k, v, Long::sum));
        List<Difference> diffs = new ArrayList<>(differences);
        diffs.addAll(other.differences);
        List<List<Object>> allRows = new ArrayList<>(rows);
        allRows.addAll(other.rows);
        return new Reconciliation(sum, diffs, allRows, keysChecked + other.keysChecked);
    }

    /** @return keys returned more than once */
    public long duplicate() {
        return counts.get(DUPLICATE);
    }

    /** @return PG keys missing from the view */
    public long lost() {
        return counts.get(LOST);
    }

    /** @return customers behind PG */
    public long stale() {
        return counts.get(STALE);
    }

    /** @return keys with any other difference */
    public long wrongValue() {
        return counts.get(WRONG_VALUE);
    }

    /** @return anomaly class → number of keys (duplicate, lost, stale, wrong_value) */
    public Map<String, Long> anomalies() {
        return new LinkedHashMap<>(counts);
    }

    /** @return every differing key, customers in id order, then orders in id order */
    public List<Difference> differences() {
        return differences;
    }

    /** @return the keys compared: the union of PG's and the view's */
    public long keysChecked() {
        return keysChecked;
    }

    /** @return one row per customer (id, PG, view, status; {@link #CUSTOMER_COLUMNS}); none for orders */
    public List<List<Object>> rows() {
        return rows;
    }

    /** @return whether every key matches */
    public boolean matches() {
        return differences.isEmpty();
    }

    /**
     * @return e.g. {@code 2 differing keys of 5: customer 3 stale (PG 27/1112.08, view 26/1000.00); ...},
     *     at most {@link #MAX_REPORTED_KEYS} keys; for assertion messages
     */
    public String describe() {
        if (matches()) {
            return "all " + keysChecked + " keys match";
        }
        String keys = differences.stream().limit(MAX_REPORTED_KEYS).map(Difference::toString).collect(Collectors.joining("; "));
        return differences.size() + " differing keys of " + keysChecked + " " + counts + ": " + keys
                + (differences.size() > MAX_REPORTED_KEYS ? "; ..." : "");
    }

    /**
     * Puts the result into a claim's evidence: the four anomaly counts (added to those other
     * checkers of the claim recorded), the per-customer table if there is one (else a note with the
     * number of keys compared and differing), and the differing keys (at most
     * {@link #MAX_REPORTED_KEYS}) as a table.
     *
     * @param e     the claim's evidence
     * @param title what was compared, e.g. {@code PostgreSQL vs customer_totals FINAL}
     * @return this
     */
    public Reconciliation record(ClaimEvidence e, String title) {
        counts.forEach(e::anomaly);
        if (!rows.isEmpty()) {   // the report counts its keys compared and differing
            e.table("Per customer: " + title, CUSTOMER_COLUMNS, rows);
        } else {   // also when every key matches: the report says what was compared
            e.note(title + ": " + keysChecked + " keys compared, " + differences.size() + " differ.");
        }
        if (!differences.isEmpty()) {
            String shown = differences.size() > MAX_REPORTED_KEYS
                    ? " (first " + MAX_REPORTED_KEYS + " of " + differences.size() + ")" : "";
            e.table("Differing keys" + shown + ": " + title, DIFFERENCE_COLUMNS,
                    differences.stream().limit(MAX_REPORTED_KEYS).map(Difference::cells).toList());
        }
        return this;
    }
}
