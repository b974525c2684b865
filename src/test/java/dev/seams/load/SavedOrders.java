package dev.seams.load;

import dev.seams.truth.Pg;
import java.util.List;

/**
 * Every order PostgreSQL holds, kept aside in a table of their own ({@code CREATE TABLE … AS SELECT * FROM orders}), so
 * that a claim that empties {@code orders} (B13's TRUNCATE) can put them back afterwards with their own ids: the
 * pipeline carries them as inserts, and claims that run later find the orders of the claims that ran before. Put back
 * rows that are still in {@code orders} are skipped ({@code ON CONFLICT DO NOTHING}).
 *
 * <pre>{@code
 * try (SavedOrders saved = SavedOrders.save(pg, "orders_before_b13")) {
 *     pg.execute("TRUNCATE orders");
 *     ...
 * }   // every saved order is back
 * }</pre>
 */
public final class SavedOrders implements AutoCloseable {

    private final Pg pg;
    private final String table;
    private final List<Long> orderIds;

    private SavedOrders(Pg pg, String table, List<Long> orderIds) {
        this.pg = pg;
        this.table = table;
        this.orderIds = orderIds;
    }

    /**
     * Copies every order into {@code table} (dropped first if it exists).
     *
     * @param table a table name of {@code [a-z_0-9]+}
     * @return the saved orders
     * @throws IllegalArgumentException for another table name
     * @throws IllegalStateException    if PostgreSQL refuses a statement
     */
    public static SavedOrders save(Pg pg, String table) {
        if (!table.matches("[a-z_0-9]+")) {
            throw new IllegalArgumentException("not a table name: " + table);
        }
        pg.execute("DROP TABLE IF EXISTS " + table);
        pg.execute("CREATE TABLE " + table + " AS SELECT * FROM orders");
        return new SavedOrders(pg, table, pg.longs("SELECT order_id FROM " + table + " ORDER BY order_id"));
    }

    /** @return the saved orders' ids, ascending */
    public List<Long> orderIds() {
        return orderIds;
    }

    /**
     * Puts every saved order back into {@code orders} with its id, customer, amount and creation time, and drops the
     * copy. Called once; {@link #close()} does it.
     *
     * @throws IllegalStateException if PostgreSQL refuses it
     */
    @Override
    public void close() {
        pg.execute("INSERT INTO orders SELECT * FROM " + table + " ON CONFLICT (order_id) DO NOTHING");
        pg.execute("DROP TABLE " + table);
    }
}
