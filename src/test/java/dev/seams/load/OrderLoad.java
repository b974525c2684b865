package dev.seams.load;

import static org.awaitility.Awaitility.await;

import dev.seams.seed.OrderSeeder;
import dev.seams.truth.Endpoints;
import dev.seams.truth.Pg;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.IntConsumer;

/**
 * A deterministic load of real CDC traffic on {@code orders} (docs/event-contract.md "Real traffic, not the demo"):
 * INSERTs, UPDATEs of the amount, UPDATEs that move an order to another customer, and DELETEs, in
 * a fixed order for a given seed. Each change is one row statement, so it yields exactly one
 * {@code orders.events} record; changes are committed in batches (one PG transaction each) so that
 * a fault can land in the middle of the load ({@link #apply}).
 *
 * <p>Updates and deletes only touch orders this load inserted and has not deleted, so the load
 * never depends on what other claims left in the table; amounts stay in 1.00..100.00 and
 * customers in {@code 1..customers}.
 */
public final class OrderLoad {

    /**
     * Fractions of the changes after the first insert that are not inserts.
     *
     * @param updateAmount UPDATE amount of an existing order
     * @param moveCustomer UPDATE customer_id of an existing order
     * @param delete       DELETE an existing order
     */
    public record Mix(double updateAmount, double moveCustomer, double delete) {

        /** Ordinary traffic: 15 % amount updates, 5 % moves, 5 % deletes, the rest inserts. */
        public static final Mix REAL = new Mix(0.15, 0.05, 0.05);
    }

    /** One change of the load, before it is applied. */
    private record Change(Op op, int ref, int customerId, BigDecimal amount) {
    }

    private enum Op { INSERT, UPDATE_AMOUNT, MOVE, DELETE }

    /**
     * What an applied load did.
     *
     * @param inserted      INSERTs
     * @param updatedAmount UPDATEs of the amount
     * @param moved         UPDATEs of customer_id
     * @param deleted       DELETEs
     * @param retriedBatches batches applied again after the connection broke (see {@link #apply})
     * @param acknowledged  what the acknowledged commits left in the source ({@link Acknowledged#NONE} for a plan)
     */
    public record Applied(long inserted, long updatedAmount, long moved, long deleted, long retriedBatches,
                          Acknowledged acknowledged) {

        /** @return all changes: the number of {@code orders.events} records the load produces */
        public long changes() {
            return inserted + updatedAmount + moved + deleted;
        }
    }

    /**
     * What the load's acknowledged commits left in the source: a commit that returned is durable, whatever fault
     * struck after it (B5, B18: a restarted or promoted source must hold every one).
     *
     * @param rows    the last row of every order the load wrote and did not delete, by order id
     * @param deleted the ids of the orders it deleted
     */
    public record Acknowledged(Map<Long, OrderSeeder.Order> rows, Set<Long> deleted) {

        /** Nothing acknowledged: a load not applied. */
        public static final Acknowledged NONE = new Acknowledged(Map.of(), Set.of());

        /**
         * @param source the source's orders now, by order id ({@link Pg#orders()})
         * @return the acknowledged changes the source does not hold: an order missing or with another customer or
         *     amount, and a deleted order present again
         */
        public long differingIn(Map<Long, OrderSeeder.Order> source) {
            long stale = rows.values().stream().filter(o -> {
                OrderSeeder.Order now = source.get(o.orderId());
                return now == null || now.customerId() != o.customerId() || now.amount().compareTo(o.amount()) != 0;
            }).count();
            return stale + deleted.stream().filter(source::containsKey).count();
        }
    }

    private final List<Change> changes;
    private final int customers;

    private OrderLoad(List<Change> changes, int customers) {
        this.changes = changes;
        this.customers = customers;
    }

    /**
     * Plans a load.
     *
     * @param count     number of changes, >= 1
     * @param customers customers {@code 1..customers}, >= 2 (a move needs another customer)
     * @param seed      random seed: the same arguments give the same load
     * @param mix       fractions of updates, moves and deletes
     * @return the planned load
     * @throws IllegalArgumentException for a count < 1, customers < 2 or fractions summing to 1 or more
     */
    public static OrderLoad plan(int count, int customers, long seed, Mix mix) {
        if (count < 1 || customers < 2 || mix.updateAmount() + mix.moveCustomer() + mix.delete() >= 1) {
            throw new IllegalArgumentException("count >= 1, customers >= 2 and a mix below 1 needed, got "
                    + count + ", " + customers + ", " + mix);
        }
        Random random = new Random(seed);
        List<Change> planned = new ArrayList<>(count);
        List<Integer> live = new ArrayList<>();   // indexes into the inserts of the orders not deleted
        List<Integer> customerOf = new ArrayList<>();
        int inserts = 0;
        for (int i = 0; i < count; i++) {
            double r = random.nextDouble();
            Op op = live.isEmpty() ? Op.INSERT
                    : r < mix.updateAmount() ? Op.UPDATE_AMOUNT
                    : r < mix.updateAmount() + mix.moveCustomer() ? Op.MOVE
                    : r < mix.updateAmount() + mix.moveCustomer() + mix.delete() ? Op.DELETE
                    : Op.INSERT;
            BigDecimal amount = BigDecimal.valueOf(100 + random.nextInt(9_901), 2);
            if (op == Op.INSERT) {
                int customer = 1 + random.nextInt(customers);
                planned.add(new Change(op, inserts, customer, amount));
                live.add(inserts);
                customerOf.add(customer);
                inserts++;
                continue;
            }
            int pick = random.nextInt(live.size());
            int ref = live.get(pick);
            int customer = customerOf.get(ref);
            if (op == Op.MOVE) {
                customer = 1 + (customer + random.nextInt(customers - 1)) % customers;
                customerOf.set(ref, customer);
            } else if (op == Op.DELETE) {
                live.set(pick, live.get(live.size() - 1));
                live.remove(live.size() - 1);
            }
            planned.add(new Change(op, ref, customer, amount));
        }
        return new OrderLoad(List.copyOf(planned), customers);
    }

    /** @return the number of changes, i.e. of {@code orders.events} records the load produces */
    public int size() {
        return changes.size();
    }

    /** @return what {@link #apply} will do, counted from the plan */
    public Applied planned() {
        long[] counts = new long[Op.values().length];
        changes.forEach(ch -> counts[ch.op().ordinal()]++);
        return new Applied(counts[Op.INSERT.ordinal()], counts[Op.UPDATE_AMOUNT.ordinal()], counts[Op.MOVE.ordinal()],
                counts[Op.DELETE.ordinal()], 0, Acknowledged.NONE);
    }

    /**
     * What ds-streams must write for this load if it applies every change exactly once (claims G14,
     * B5): per customer, how far its snapshot's {@code version} advances — one step per application
     * of the aggregate's adder or subtractor ({@code wire/CustomerTotals}): an insert +1, a delete
     * +1, an amount update +2 (subtract the old row, add the new one, KIP-904), a move +1 for each of
     * the two customers — and how many {@code customer.totals} records it writes: one per change,
     * two per move (one per customer).
     *
     * @param versionSteps customer → version steps the load adds
     * @param snapshots    records the load makes ds-streams write
     */
    public record Expected(Map<Long, Long> versionSteps, long snapshots) {
    }

    /** @return what ds-streams must write for this load, computed from the plan ({@link Expected}) */
    public Expected expected() {
        Map<Long, Long> steps = new TreeMap<>();
        Map<Integer, Integer> customerOf = new HashMap<>();
        long snapshots = 0;
        for (Change ch : changes) {
            switch (ch.op()) {
                case INSERT -> {
                    customerOf.put(ch.ref(), ch.customerId());
                    steps.merge((long) ch.customerId(), 1L, Long::sum);
                    snapshots++;
                }
                case UPDATE_AMOUNT -> {
                    steps.merge((long) ch.customerId(), 2L, Long::sum);
                    snapshots++;
                }
                case MOVE -> {
                    steps.merge((long) customerOf.get(ch.ref()), 1L, Long::sum);
                    steps.merge((long) ch.customerId(), 1L, Long::sum);
                    customerOf.put(ch.ref(), ch.customerId());
                    snapshots += 2;
                }
                case DELETE -> {
                    steps.merge((long) ch.customerId(), 1L, Long::sum);
                    snapshots++;
                }
            }
        }
        return new Expected(steps, snapshots);
    }

    /**
     * @return the plan as text lines {@code OP ref customer amount}, for tests of the plan's rules
     */
    List<String> lines() {
        return changes.stream().map(ch -> ch.op() + " " + ch.ref() + " " + ch.customerId() + " " + ch.amount()).toList();
    }

    /** @return the customers the load uses, {@code 1..customers} */
    public int customers() {
        return customers;
    }

    /**
     * Applies the load to the source database, {@code batch} changes per transaction. A batch whose
     * connection breaks (the server restarts: SQLState class 08, 57P) is rolled back by the server and
     * applied again on a new connection once PostgreSQL answers (claim B5, PostgreSQL restart); a
     * COMMIT whose answer was lost may then apply that batch twice — harmless to every claim, which
     * compares with what PG holds at the end, and counted in {@link Applied#retriedBatches()}.
     *
     * @param stand    the stand
     * @param batch    changes per PG transaction, >= 1
     * @param progress called after each committed transaction with the changes applied so far (may be a no-op)
     * @return what was applied
     * @throws IllegalStateException if a statement fails for another reason, or PG stays away for 3 minutes
     */
    public Applied apply(Endpoints stand, int batch, IntConsumer progress) {
        long[] counts = new long[Op.values().length];
        long[] ids = new long[changes.size()];
        int retried = 0;
        for (int from = 0; from < changes.size(); from += batch) {
            int to = Math.min(from + batch, changes.size());
            while (true) {
                try (Connection c = stand.pg()) {
                    applyBatch(c, from, to, ids);
                    break;
                } catch (SQLException e) {
                    if (!connectionLost(e)) {
                        throw new IllegalStateException("cannot apply the order load", e);
                    }
                    retried++;
                    awaitPostgres(stand);
                }
            }
            for (int i = from; i < to; i++) {
                counts[changes.get(i).op().ordinal()]++;
            }
            progress.accept(to);
        }
        return new Applied(counts[Op.INSERT.ordinal()], counts[Op.UPDATE_AMOUNT.ordinal()], counts[Op.MOVE.ordinal()],
                counts[Op.DELETE.ordinal()], retried, acknowledged(ids));
    }

    /** @return the rows the plan leaves, under the order ids the source gave its inserts (a batch applied again: the last) */
    private Acknowledged acknowledged(long[] ids) {
        Map<Long, OrderSeeder.Order> rows = new HashMap<>();
        Set<Long> deleted = new HashSet<>();
        for (Change ch : changes) {
            long id = ids[ch.ref()];
            switch (ch.op()) {
                case INSERT -> rows.put(id, new OrderSeeder.Order(id, ch.customerId(), ch.amount()));
                case UPDATE_AMOUNT -> rows.computeIfPresent(id, (k, o) -> new OrderSeeder.Order(k, o.customerId(), ch.amount()));
                case MOVE -> rows.computeIfPresent(id, (k, o) -> new OrderSeeder.Order(k, ch.customerId(), o.amount()));
                case DELETE -> {
                    rows.remove(id);
                    deleted.add(id);
                }
            }
        }
        return new Acknowledged(Map.copyOf(rows), Set.copyOf(deleted));
    }

    private void applyBatch(Connection c, int from, int to, long[] ids) throws SQLException {
        c.setAutoCommit(false);
        try (PreparedStatement insert = c.prepareStatement("INSERT INTO orders (customer_id, amount) VALUES (?, ?) RETURNING order_id");
             PreparedStatement amount = c.prepareStatement("UPDATE orders SET amount = ? WHERE order_id = ?");
             PreparedStatement move = c.prepareStatement("UPDATE orders SET customer_id = ? WHERE order_id = ?");
             PreparedStatement delete = c.prepareStatement("DELETE FROM orders WHERE order_id = ?")) {
            for (int i = from; i < to; i++) {
                Change ch = changes.get(i);
                switch (ch.op()) {
                    case INSERT -> {
                        insert.setInt(1, ch.customerId());
                        insert.setBigDecimal(2, ch.amount());
                        try (var rs = insert.executeQuery()) {
                            rs.next();
                            ids[ch.ref()] = rs.getLong(1);
                        }
                    }
                    case UPDATE_AMOUNT -> one(amount, ch.amount(), ids[ch.ref()]);
                    case MOVE -> one(move, ch.customerId(), ids[ch.ref()]);
                    case DELETE -> {
                        delete.setLong(1, ids[ch.ref()]);
                        requireOneRow(delete.executeUpdate(), ch);
                    }
                }
            }
            c.commit();
        }
    }

    /** @return whether the error is the connection going away (server restart or shutdown), not the statement */
    private static boolean connectionLost(SQLException e) {
        String state = e.getSQLState();
        return state != null && (state.startsWith("08") || state.startsWith("57P"));
    }

    private static void awaitPostgres(Endpoints stand) {
        await("PostgreSQL answers again").atMost(Duration.ofMinutes(3))
                .pollInterval(Duration.ofMillis(500)).ignoreExceptions()
                .until(() -> {
                    try (Connection c = stand.pg(); Statement st = c.createStatement()) {
                        return st.execute("SELECT 1");
                    }
                });
    }

    private static void one(PreparedStatement update, Object value, long orderId) throws SQLException {
        update.setObject(1, value);
        update.setLong(2, orderId);
        requireOneRow(update.executeUpdate(), orderId);
    }

    private static void requireOneRow(int rows, Object change) {
        if (rows != 1) {
            throw new IllegalStateException("a change of the load touched " + rows + " rows: " + change);
        }
    }
}
