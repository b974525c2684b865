package dev.seams.seed;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Deterministic orders for the source of truth: the same (count, customers, seed) always yields the
 * same customer ids and amounts, in the same order (like the source's {@code scripts/seed.sh}).
 *
 * <p>Customer ids are uniform in {@code 1..customers}; amounts are uniform in 1.00..100.00, exact
 * to the cent. All rows go in with one multi-row batch in one transaction.
 */
public final class OrderSeeder {

    /** One order: its id, its customer (PostgreSQL integer or bigint, B15) and its exact amount. */
    public record Order(long orderId, long customerId, BigDecimal amount) {
    }

    private OrderSeeder() {
    }

    /**
     * The orders that {@link #seed} would insert, without their ids.
     *
     * @param count     number of orders, >= 0
     * @param customers number of customers, >= 1
     * @param seed      random seed
     * @return (customer id, amount) pairs as {@link Order}s with orderId 0
     */
    public static List<Order> plan(int count, int customers, long seed) {
        if (count < 0 || customers < 1) {
            throw new IllegalArgumentException("count must be >= 0 and customers >= 1, got " + count + ", " + customers);
        }
        Random random = new Random(seed);
        List<Order> orders = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            int customer = 1 + random.nextInt(customers);
            BigDecimal amount = BigDecimal.valueOf(100 + random.nextInt(9_901), 2);
            orders.add(new Order(0, customer, amount));
        }
        return orders;
    }

    /**
     * Inserts {@link #plan(int, int, long)}'s orders into {@code orders} in one transaction.
     *
     * @param connection a connection to the source database (its auto-commit mode is restored)
     * @return the inserted orders with their generated order ids, in insert order
     * @throws SQLException if the insert fails (the transaction is rolled back)
     */
    public static List<Order> seed(Connection connection, int count, int customers, long seed) throws SQLException {
        List<Order> planned = plan(count, customers, seed);
        List<Order> inserted = new ArrayList<>(count);
        boolean autoCommit = connection.getAutoCommit();
        connection.setAutoCommit(false);
        try (PreparedStatement insert = connection.prepareStatement(
                "INSERT INTO orders (customer_id, amount) SELECT * FROM unnest(?::bigint[], ?::numeric[]) "
                        + "RETURNING order_id, customer_id, amount")) {
            insert.setArray(1, connection.createArrayOf("int8",
                    planned.stream().map(Order::customerId).toArray()));
            insert.setArray(2, connection.createArrayOf("numeric",
                    planned.stream().map(Order::amount).toArray()));
            try (ResultSet rs = insert.executeQuery()) {
                while (rs.next()) {
                    inserted.add(new Order(rs.getLong(1), rs.getLong(2), rs.getBigDecimal(3)));
                }
            }
            connection.commit();
        } catch (SQLException e) {
            connection.rollback();
            throw e;
        } finally {
            connection.setAutoCommit(autoCommit);
        }
        return inserted;
    }
}
