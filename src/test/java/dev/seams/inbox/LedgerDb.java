package dev.seams.inbox;

import dev.seams.seed.OrderSeeder;
import dev.seams.stand.Stand;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.common.TopicPartition;

/**
 * The inbox sink's target as a claim test reads it (claim B4): one schema of the database
 * {@value #DATABASE} on the stand's PostgreSQL server, so the source {@code orders} table and
 * Debezium's publication are untouched. Each test run gets a fresh schema; the sink process
 * creates its tables there ({@code currentSchema} in its JDBC URL).
 */
public final class LedgerDb {

    /** The target database, created on first use. */
    public static final String DATABASE = "ledger";

    private final String url;
    private final String user;
    private final String password;
    private final String schema;
    private final String keysTable;

    private LedgerDb(Stand stand, String schema, String topic) {
        this.url = stand.pgJdbcUrl(DATABASE) + "?currentSchema=" + schema;
        this.user = stand.pgUser();
        this.password = stand.pgPassword();
        this.schema = schema;
        this.keysTable = schema + "." + InboxStore.keysTable(topic);
    }

    /**
     * Creates database {@value #DATABASE} if it does not exist, and drops and re-creates the schema.
     *
     * @param schema a lower-case SQL identifier, e.g. {@code b4_after_db_commit_inbox}
     * @param topic  the topic the sink consumes (selects the keys table)
     * @return the empty target
     */
    public static LedgerDb fresh(Stand stand, String schema, String topic) {
        if (!schema.matches("[a-z_][a-z0-9_]*")) {
            throw new IllegalArgumentException("not a plain identifier: " + schema);
        }
        try (Connection c = stand.pg(); PreparedStatement exists = c.prepareStatement(
                "SELECT count(*) FROM pg_database WHERE datname = ?")) {
            exists.setString(1, DATABASE);
            try (ResultSet rs = exists.executeQuery()) {
                rs.next();
                if (rs.getLong(1) == 0) {
                    try (Statement st = c.createStatement()) {
                        st.execute("CREATE DATABASE " + DATABASE);
                    }
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot create database " + DATABASE, e);
        }
        LedgerDb db = new LedgerDb(stand, schema, topic);
        db.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
        db.execute("CREATE SCHEMA " + schema);
        return db;
    }

    /** @return the JDBC URL the sink process gets (its tables land in this schema) */
    public String jdbcUrl() {
        return url;
    }

    /** @return the database user */
    public String user() {
        return user;
    }

    /** @return its password */
    public String password() {
        return password;
    }

    /** @return rows in the keys table now; 0 if the sink has not created it yet */
    public long keysCount() {
        try (Connection c = connect()) {
            return keysCount(c);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot count " + keysTable, e);
        }
    }

    private long keysCount(Connection c) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT count(*) FROM " + keysTable)) {
            rs.next();
            return rs.getLong(1);
        } catch (SQLException e) {
            if ("42P01".equals(e.getSQLState())) {
                return 0;
            }
            throw e;
        }
    }

    /**
     * @return partition → offsets of the records whose keys the keys table holds now (the window),
     *     as (partition, offset) pairs
     */
    public List<long[]> windowPositions() {
        return query("SELECT source_partition, source_offset FROM " + keysTable, rs -> new long[] {rs.getInt(1), rs.getLong(2)});
    }

    /**
     * @param ids order ids
     * @return every ledger row of those orders as (order_id, customer_id, amount), duplicates kept;
     *     since the ledger records changes, an order has one row per INSERT, UPDATE and DELETE
     *     ({@link #latestOrders()} is its state, {@link #duplicateChanges()} its duplicates)
     */
    public List<OrderSeeder.Order> ledgerRows(Collection<Long> ids) {
        List<OrderSeeder.Order> rows = new ArrayList<>();
        try (Connection c = connect(); PreparedStatement st = c.prepareStatement(
                "SELECT order_id, customer_id, amount FROM " + schema + "." + InboxStore.LEDGER + " WHERE order_id = ANY(?)")) {
            st.setArray(1, c.createArrayOf("int8", ids.toArray()));
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    rows.add(new OrderSeeder.Order(rs.getLong(1), rs.getInt(2), rs.getBigDecimal(3)));
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read the ledger", e);
        }
        return rows;
    }

    /**
     * The ledger's state per order (claim B4): each order's latest change that is not a deletion,
     * read from the view the sink creates ({@code order_ledger_state}), as (order_id, customer_id,
     * amount), ordered by order id. After every change was applied once it equals PostgreSQL's
     * {@code orders} rows; per-customer totals follow by grouping.
     *
     * @return the per-order state
     */
    public List<OrderSeeder.Order> latestOrders() {
        return query("SELECT order_id, customer_id, amount FROM " + schema + "." + InboxStore.STATE + " ORDER BY order_id",
                rs -> new OrderSeeder.Order(rs.getLong(1), rs.getInt(2), rs.getBigDecimal(3)));
    }

    /**
     * @return ledger rows beyond the first of each change (same order_id, source LSN and op): the
     *     duplicates of the exactly-once claim, counted by change and not by order, since an order
     *     has one row per INSERT, UPDATE and DELETE (rows without LSN are not counted)
     */
    public long duplicateChanges() {
        return query("SELECT coalesce(sum(n - 1), 0) FROM (SELECT count(*) AS n FROM " + schema + "." + InboxStore.LEDGER
                + " WHERE source_lsn IS NOT NULL GROUP BY order_id, source_lsn, op) changes", rs -> rs.getLong(1)).get(0);
    }

    /**
     * @param group the sink's consumer group
     * @param topic the consumed topic
     * @return partition → the next offset the sink stored in the database in the same transaction
     *     as its ledger rows (mode inbox; empty before its first commit or in mode plain)
     */
    public Map<TopicPartition, Long> storedOffsets(String group, String topic) {
        Map<TopicPartition, Long> stored = new TreeMap<>(Comparator.comparingInt(TopicPartition::partition));
        try (Connection c = connect(); PreparedStatement st = c.prepareStatement("SELECT kafka_partition, next_offset FROM "
                + schema + "." + OffsetStore.TABLE + " WHERE consumer_group = ? AND topic = ? AND next_offset >= 0")) {
            st.setString(1, group);
            st.setString(2, topic);
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    stored.put(new TopicPartition(topic, rs.getInt(1)), rs.getLong(2));
                }
            }
        } catch (SQLException e) {
            if ("42P01".equals(e.getSQLState())) {
                return stored;
            }
            throw new IllegalStateException("cannot read " + OffsetStore.TABLE, e);
        }
        return stored;
    }

    /** @return all rows of the ledger */
    public long ledgerCount() {
        return query("SELECT count(*) FROM " + schema + "." + InboxStore.LEDGER, rs -> rs.getLong(1)).get(0);
    }

    /**
     * The records whose rows the database committed but whose offsets Kafka did not: ledger rows at
     * or beyond the group's committed offset of their partition, counted once per (partition, offset).
     *
     * @param committed the group's committed offsets
     * @return that count
     */
    public long recordsAheadOf(Map<TopicPartition, Long> committed) {
        try (Connection c = connect(); PreparedStatement st = c.prepareStatement(
                "SELECT count(*) FROM (SELECT DISTINCT l.source_partition, l.source_offset FROM " + schema + "."
                        + InboxStore.LEDGER + " l JOIN unnest(?::int[], ?::bigint[]) AS k(p, o) "
                        + "ON l.source_partition = k.p AND l.source_offset >= k.o) ahead")) {
            st.setArray(1, c.createArrayOf("int4", committed.keySet().stream().map(TopicPartition::partition).toArray()));
            st.setArray(2, c.createArrayOf("int8", committed.values().toArray()));
            try (ResultSet rs = st.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot compare the ledger with the committed offsets", e);
        }
    }

    /**
     * @param txid a transaction id the sink printed ({@code txid_current()})
     * @return PostgreSQL's {@code txid_status}: {@code committed}, {@code aborted} or {@code in progress}
     */
    public String txidStatus(long txid) {
        try (Connection c = connect(); PreparedStatement st = c.prepareStatement("SELECT txid_status(?)")) {
            st.setLong(1, txid);
            try (ResultSet rs = st.executeQuery()) {
                rs.next();
                return String.valueOf(rs.getString(1));
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read txid_status(" + txid + ")", e);
        }
    }

    /**
     * Samples the keys table's row count in the background (every {@code period}) until closed.
     *
     * @return the sampler; its {@link KeysSampler#max()} is the largest count seen
     */
    public KeysSampler sampleKeys(Duration period) {
        return new KeysSampler(this, period);
    }

    /**
     * The largest keys-table size seen by periodic {@code count(*)} reads on one connection in
     * auto-commit mode, i.e. of committed states only (claim B4: the table stays bounded).
     */
    public static final class KeysSampler implements AutoCloseable {

        private final ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor();
        private final AtomicLong max = new AtomicLong();
        private final AtomicLong samples = new AtomicLong();
        private final AtomicLong errors = new AtomicLong();
        private final LedgerDb db;
        private Connection connection;

        private KeysSampler(LedgerDb db, Duration period) {
            this.db = db;
            executor.scheduleWithFixedDelay(this::sample, 0, period.toMillis(), TimeUnit.MILLISECONDS);
        }

        private void sample() {
            try {
                if (connection == null) {
                    connection = db.connect();
                }
                max.accumulateAndGet(db.keysCount(connection), Math::max);
                samples.incrementAndGet();
            } catch (SQLException e) {
                errors.incrementAndGet();
                closeConnection();
            }
        }

        /** @return the largest count seen so far */
        public long max() {
            return max.get();
        }

        /** @return how many samples were taken */
        public long samples() {
            return samples.get();
        }

        /** @return how many samples failed (the database did not answer) */
        public long errors() {
            return errors.get();
        }

        /** Stops sampling (waits up to 10 s for a running sample) and closes the connection. */
        @Override
        public void close() {
            executor.shutdown();
            try {
                executor.awaitTermination(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            closeConnection();
        }

        private void closeConnection() {
            if (connection != null) {
                try {
                    connection.close();
                } catch (SQLException e) {
                    errors.incrementAndGet();
                }
                connection = null;
            }
        }
    }

    private interface Row<T> {
        T read(ResultSet rs) throws SQLException;
    }

    private <T> List<T> query(String sql, Row<T> row) {
        List<T> result = new ArrayList<>();
        try (Connection c = connect(); Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            while (rs.next()) {
                result.add(row.read(rs));
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot run " + sql, e);
        }
        return result;
    }

    private void execute(String sql) {
        try (Connection c = connect(); Statement st = c.createStatement()) {
            st.execute(sql);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot run " + sql, e);
        }
    }

    private Connection connect() throws SQLException {
        return DriverManager.getConnection(url, user, password);
    }
}
