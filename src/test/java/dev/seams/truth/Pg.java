package dev.seams.truth;

import dev.seams.seed.OrderSeeder;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** The source of truth, read at the moment of the call (docs/claims.md: "Matches PG" is per customer, to the cent). */
public final class Pg {

    private final PgConnections source;

    private Pg(PgConnections source) {
        this.source = source;
    }

    /**
     * @param source opens connections to the source database (the stand's: {@code stand::pg})
     * @return a reader of that database's truth
     */
    public static Pg of(PgConnections source) {
        return new Pg(source);
    }

    /** @return customer id → (count(*), sum(amount)) of {@code orders} */
    public Map<Long, Totals> truth() {
        Map<Long, Totals> result = new TreeMap<>();
        try (Connection c = source.open(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT customer_id, count(*), sum(amount) FROM orders GROUP BY customer_id")) {
            while (rs.next()) {
                result.put(rs.getLong(1), new Totals(rs.getLong(2), rs.getBigDecimal(3)));
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read orders", e);
        }
        return result;
    }

    /**
     * @return every order now in {@code orders}: order_id → (order_id, customer_id, amount), in
     *     order_id order (the per-order truth of the reconciliation by key, B8)
     */
    public java.util.NavigableMap<Long, OrderSeeder.Order> orders() {
        java.util.NavigableMap<Long, OrderSeeder.Order> result = new TreeMap<>();
        try (Connection c = source.open(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT order_id, customer_id, amount FROM orders")) {
            while (rs.next()) {
                result.put(rs.getLong(1), new OrderSeeder.Order(rs.getLong(1), rs.getLong(2), rs.getBigDecimal(3)));
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read orders", e);
        }
        return result;
    }

    /** @return {@code count(*)} of orders with order_id in [firstId, lastId] */
    public long countBetween(long firstId, long lastId) {
        try (Connection c = source.open(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT count(*) FROM orders WHERE order_id BETWEEN " + firstId + " AND " + lastId)) {
            rs.next();
            return rs.getLong(1);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot count orders", e);
        }
    }

    /**
     * Runs one statement on the source database in its own transaction (auto-commit): a change of
     * the claim's own orders, e.g. {@code DELETE FROM orders WHERE customer_id = 901}.
     *
     * @return the rows it changed
     * @throws IllegalStateException if PostgreSQL refuses it
     */
    public int execute(String sql) {
        try (Connection c = source.open(); Statement st = c.createStatement()) {
            return st.executeUpdate(sql);
        } catch (SQLException e) {
            throw new IllegalStateException("PostgreSQL refused: " + sql, e);
        }
    }

    /**
     * @param sql a statement expected to be refused, e.g. an INSERT of a value the DDL forbids
     * @return PostgreSQL's refusal as {@code SQLSTATE: message}, or null if it ran the statement
     */
    public String refusal(String sql) {
        try (Connection c = source.open(); Statement st = c.createStatement()) {
            st.execute(sql);
            return null;
        } catch (SQLException e) {
            return e.getSQLState() + ": " + e.getMessage().lines().findFirst().orElse("");
        }
    }

    /**
     * @param sql a query whose first column is an integer type
     * @return that column of every row, in the query's order
     * @throws IllegalStateException if PostgreSQL refuses it
     */
    public List<Long> longs(String sql) {
        List<Long> result = new ArrayList<>();
        try (Connection c = source.open(); Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            while (rs.next()) {
                result.add(rs.getLong(1));
            }
        } catch (SQLException e) {
            throw new IllegalStateException("PostgreSQL refused: " + sql, e);
        }
        return result;
    }

    /**
     * Inserts one order in its own transaction.
     *
     * @param amount any value {@code numeric(12,2)} holds: negative (a refund), zero, up to ±9999999999.99
     * @return its order_id
     * @throws IllegalStateException if PostgreSQL refuses it
     */
    public long insertOrder(long customerId, BigDecimal amount) {
        try (Connection c = source.open();
             PreparedStatement insert = c.prepareStatement(
                     "INSERT INTO orders (customer_id, amount) VALUES (?, ?) RETURNING order_id")) {
            insert.setLong(1, customerId);
            insert.setBigDecimal(2, amount);
            try (ResultSet rs = insert.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("PostgreSQL refused an order of customer " + customerId + ", " + amount, e);
        }
    }

    /**
     * @param table a table of the public schema, e.g. {@code orders}
     * @return its replica identity as {@code ALTER TABLE … REPLICA IDENTITY} names it: DEFAULT, FULL, NOTHING or INDEX
     *     ({@code pg_class.relreplident}); what a DELETE's or UPDATE's old image carries in the log (claim B16)
     * @throws IllegalStateException if PostgreSQL refuses the query (e.g. no such table)
     */
    public String replicaIdentity(String table) {
        try (Connection c = source.open();
             PreparedStatement query = c.prepareStatement("SELECT CASE relreplident WHEN 'd' THEN 'DEFAULT' WHEN 'f' THEN 'FULL' "
                     + "WHEN 'n' THEN 'NOTHING' ELSE 'INDEX' END FROM pg_class WHERE oid = ?::regclass")) {
            query.setString(1, table);
            try (ResultSet rs = query.executeQuery()) {
                rs.next();
                return rs.getString(1);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("PostgreSQL refused the replica identity query of " + table, e);
        }
    }

    /**
     * @param table a table of the public schema, e.g. {@code orders}
     * @return its CHECK constraints, each as {@code name: definition}, by name (none: every value its column types hold
     *     is allowed)
     */
    public List<String> checkConstraints(String table) {
        try (Connection c = source.open();
             PreparedStatement query = c.prepareStatement("SELECT conname || ': ' || pg_get_constraintdef(oid) FROM pg_constraint "
                     + "WHERE contype = 'c' AND conrelid = ?::regclass ORDER BY conname")) {
            query.setString(1, table);
            try (ResultSet rs = query.executeQuery()) {
                List<String> constraints = new ArrayList<>();
                while (rs.next()) {
                    constraints.add(rs.getString(1));
                }
                return constraints;
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read the constraints of " + table, e);
        }
    }

    /** Inserts deterministic orders ({@link OrderSeeder}); @return them with their ids */
    public List<OrderSeeder.Order> seed(int count, int customers, long seed) {
        try (Connection c = source.open()) {
            return OrderSeeder.seed(c, count, customers, seed);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot seed orders", e);
        }
    }

    /** @return the grand total over all customers of a per-customer map */
    public static BigDecimal sum(Map<Long, Totals> perCustomer) {
        return perCustomer.values().stream().map(Totals::total).reduce(BigDecimal.ZERO.setScale(2), BigDecimal::add);
    }

    /** @return the order count over all customers of a per-customer map */
    public static long count(Map<Long, Totals> perCustomer) {
        return perCustomer.values().stream().mapToLong(Totals::orders).sum();
    }

    /** @return the server's version, e.g. {@code 15.14} */
    public String version() {
        try (Connection c = source.open(); Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SHOW server_version")) {
            rs.next();
            return rs.getString(1);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
