package dev.seams.load;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * The orders PostgreSQL already holds when the shipped connector is first registered (claim B17 "existing rows";
 * docs/claims.md): the stand writes them after its DDL and before it registers {@code containers/debezium/}'s
 * connector, so that the connector's initial snapshot — what the shipped {@code snapshot.mode} does with rows that
 * exist — is part of every run. Real traffic before the snapshot: {@value #ORDERS} inserts for customers
 * {@value #FIRST_CUSTOMER}..{@value #LAST_CUSTOMER} (a customer range no other claim writes), then UPDATEs of the
 * amount (10 orders) and of the customer (5 orders), one order made a refund (a negative amount), and DELETEs
 * (5 orders).
 */
public final class PreexistingOrders {

    /** The first customer the orders belong to. */
    public static final int FIRST_CUSTOMER = 7001;
    /** The last customer. */
    public static final int LAST_CUSTOMER = 7005;
    /** How many orders are inserted (some are then deleted). */
    public static final int ORDERS = 120;

    private PreexistingOrders() {
    }

    /**
     * Writes the orders and their changes, each statement its own transaction.
     *
     * @param pg opens a connection to the source database, its DDL applied
     * @return the ids of the orders that exist once the changes are done, ascending
     * @throws IllegalStateException if PostgreSQL refuses a statement
     */
    public static List<Long> write(Callable<Connection> pg) {
        int customers = LAST_CUSTOMER - FIRST_CUSTOMER + 1;
        execute(pg, "INSERT INTO orders (customer_id, amount) SELECT " + FIRST_CUSTOMER + " + g % " + customers
                + ", (100 + g * 37 % 9901) / 100.0 FROM generate_series(1, " + ORDERS + ") g");
        List<Long> ids = ids(pg);
        execute(pg, "UPDATE orders SET amount = amount + 1.11 WHERE order_id IN (" + join(ids.subList(0, 10)) + ")");
        execute(pg, "UPDATE orders SET customer_id = CASE WHEN customer_id = " + LAST_CUSTOMER + " THEN " + FIRST_CUSTOMER
                + " ELSE customer_id + 1 END WHERE order_id IN (" + join(ids.subList(10, 15)) + ")");
        execute(pg, "UPDATE orders SET amount = -amount WHERE order_id = " + ids.get(15));
        execute(pg, "DELETE FROM orders WHERE order_id IN (" + join(ids.subList(20, 25)) + ")");
        return ids(pg);
    }

    /** @return whether the customer is one of these orders' */
    public static boolean owns(int customerId) {
        return customerId >= FIRST_CUSTOMER && customerId <= LAST_CUSTOMER;
    }

    private static List<Long> ids(Callable<Connection> pg) {
        List<Long> ids = new ArrayList<>();
        String sql = "SELECT order_id FROM orders WHERE customer_id BETWEEN " + FIRST_CUSTOMER + " AND " + LAST_CUSTOMER
                + " ORDER BY order_id";
        try (Connection c = pg.call(); Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            while (rs.next()) {
                ids.add(rs.getLong(1));
            }
        } catch (Exception e) {
            throw new IllegalStateException("cannot read the existing orders: " + sql, e);
        }
        return ids;
    }

    private static void execute(Callable<Connection> pg, String sql) {
        try (Connection c = pg.call(); Statement st = c.createStatement()) {
            st.executeUpdate(sql);
        } catch (SQLException e) {
            throw new IllegalStateException("PostgreSQL refused: " + sql, e);
        } catch (Exception e) {
            throw new IllegalStateException("cannot connect to PostgreSQL for: " + sql, e);
        }
    }

    private static String join(List<Long> ids) {
        return String.join(",", ids.stream().map(String::valueOf).toList());
    }
}
