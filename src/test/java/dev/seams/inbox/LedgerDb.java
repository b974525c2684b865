package dev.seams.inbox;

import dev.seams.load.OrderChanges;
import dev.seams.seed.OrderSeeder;
import dev.seams.truth.Endpoints;
import dev.seams.truth.RunNames;
import dev.seams.truth.Totals;
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
import java.util.NavigableSet;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.kafka.common.TopicPartition;

/**
 * The inbox sink's target as a claim test reads it (claim B4): one schema of the database
 * {@code ledger} on the stand's PostgreSQL server, so the source {@code orders} table and
 * Debezium's publication are untouched. Each test run gets a fresh schema; the sink process
 * creates its tables there ({@code currentSchema} in its JDBC URL). Every read is scoped to what
 * the test needs (the order ids of its load, the positions of its topic), never to what other
 * claims left behind.
 */
public final class LedgerDb {

    /** The target database, created on first use. */
    public static final String DATABASE = RunNames.of("ledger");

    private final String url;
    private final String user;
    private final String password;
    private final String schema;
    private final String keysTable;

    private LedgerDb(Endpoints stand, String schema, String topic) {
        this.url = stand.pgJdbcUrl(DATABASE) + "?currentSchema=" + schema;
        this.user = stand.pgUser();
        this.password = stand.pgPassword();
        this.schema = schema;
        this.keysTable = schema + "." + InboxStore.keysTable(topic);
    }

    /**
     * Creates database {@code ledger} if it does not exist, and drops and re-creates the schema.
     *
     * @param schema a lower-case SQL identifier, e.g. {@code b4_after_db_commit_inbox}
     * @param topic  the topic the sink consumes (selects the keys table)
     * @return the empty target
     */
    public static LedgerDb fresh(Endpoints stand, String schema, String topic) {
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

    /** @return rows in the keys table, read on the given connection; 0 if the table does not exist yet */
    long keysCount(Connection c) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT count(*) FROM " + keysTable)) {
            rs.next();
            return rs.getLong(1);
        } catch (SQLException e) {
            if (UNDEFINED_TABLE.equals(e.getSQLState())) {
                return 0;
            }
            throw e;
        }
    }

    /**
     * @return partition → offsets of the records whose keys the keys table holds now (the window)
     */
    public Map<Integer, NavigableSet<Long>> windowPositions() {
        Map<Integer, NavigableSet<Long>> window = new TreeMap<>();
        query("SELECT source_partition, source_offset FROM " + keysTable, List.of(),
                rs -> window.computeIfAbsent(rs.getInt(1), p -> new TreeSet<>()).add(rs.getLong(2)));
        return window;
    }

    /**
     * Every change the ledger holds for these orders, one per ledger row (a change written twice
     * appears twice), named by its columns {@code (order_id, source_lsn, op)} — not by the sink's
     * own {@code change_key} — so that a claim test counts them against the changes it read from
     * the topic ({@link dev.seams.check.KeyCounts}), independently of the key format.
     *
     * @param ids order ids
     * @return the changes, in no particular order
     */
    public List<OrderChanges.Change> changes(Collection<Long> ids) {
        List<OrderChanges.Change> changes = new ArrayList<>();
        query("SELECT order_id, source_lsn, op FROM " + schema + "." + InboxStore.LEDGER + " WHERE order_id = ANY(?)", ids,
                rs -> changes.add(new OrderChanges.Change(rs.getLong(1), (Long) rs.getObject(2), rs.getString(3))));
        return changes;
    }

    /**
     * The ledger's state of these orders: each order's latest change that is not a deletion, read
     * from the view the sink creates ({@code order_ledger_state}), as (order_id, customer_id,
     * amount) in order id order. After every change was applied once it equals PostgreSQL's
     * {@code orders} rows of those ids.
     *
     * @param ids order ids
     * @return the per-order state
     */
    public List<OrderSeeder.Order> latestOrders(Collection<Long> ids) {
        List<OrderSeeder.Order> orders = new ArrayList<>();
        query("SELECT order_id, customer_id, amount FROM " + schema + "." + InboxStore.STATE
                        + " WHERE order_id = ANY(?) ORDER BY order_id", ids,
                rs -> orders.add(new OrderSeeder.Order(rs.getLong(1), rs.getInt(2), rs.getBigDecimal(3))));
        return orders;
    }

    /**
     * The ledger's per-customer totals of these orders, by docs/inbox.md's query on the state view
     * ({@code SELECT customer_id, count(*), sum(amount) FROM order_ledger_state GROUP BY customer_id}).
     *
     * @param ids order ids
     * @return customer id → (orders, total)
     */
    public Map<Long, Totals> customerTotals(Collection<Long> ids) {
        Map<Long, Totals> totals = new TreeMap<>();
        query("SELECT customer_id, count(*), sum(amount) FROM " + schema + "." + InboxStore.STATE
                        + " WHERE order_id = ANY(?) GROUP BY customer_id", ids,
                rs -> totals.put(rs.getLong(1), new Totals(rs.getLong(2), rs.getBigDecimal(3))));
        return totals;
    }

    /**
     * @return ledger rows beyond the first of each record position ({@code source_partition},
     *     {@code source_offset}): a record of the consumed topic written twice — in mode inbox
     *     never, since a Kafka redelivery is excluded by the stored offsets
     */
    public long positionsWrittenTwice() {
        List<Long> excess = new ArrayList<>();
        query("SELECT coalesce(sum(n - 1), 0) FROM (SELECT count(*) AS n FROM " + schema + "." + InboxStore.LEDGER
                + " GROUP BY source_partition, source_offset) positions", List.of(), rs -> excess.add(rs.getLong(1)));
        return excess.get(0);
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
            if (UNDEFINED_TABLE.equals(e.getSQLState())) {
                return stored;
            }
            throw new IllegalStateException("cannot read " + OffsetStore.TABLE, e);
        }
        return stored;
    }

    /**
     * The records whose rows the database committed but whose offsets Kafka did not: ledger rows at
     * or beyond the given offset of their partition, counted once per (partition, offset).
     *
     * @param offsets partition → offset (e.g. the group's committed offsets in Kafka)
     * @return that count
     */
    public long recordsAheadOf(Map<TopicPartition, Long> offsets) {
        try (Connection c = connect(); PreparedStatement st = c.prepareStatement(
                "SELECT count(*) FROM (SELECT DISTINCT l.source_partition, l.source_offset FROM " + schema + "."
                        + InboxStore.LEDGER + " l JOIN unnest(?::int[], ?::bigint[]) AS k(p, o) "
                        + "ON l.source_partition = k.p AND l.source_offset >= k.o) ahead")) {
            st.setArray(1, c.createArrayOf("int4", offsets.keySet().stream().map(TopicPartition::partition).toArray()));
            st.setArray(2, c.createArrayOf("int8", offsets.values().toArray()));
            try (ResultSet rs = st.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        } catch (SQLException e) {
            if (UNDEFINED_TABLE.equals(e.getSQLState())) {
                return 0;
            }
            throw new IllegalStateException("cannot compare the ledger with the offsets", e);
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

    private static final String UNDEFINED_TABLE = "42P01";

    private interface Row {
        void read(ResultSet rs) throws SQLException;
    }

    /** Runs a query; its parameter 1, if it has one, is the array of order ids. */
    private void query(String sql, Collection<Long> ids, Row row) {
        try (Connection c = connect(); PreparedStatement st = c.prepareStatement(sql)) {
            if (sql.contains("?")) {
                st.setArray(1, c.createArrayOf("int8", ids.toArray()));
            }
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    row.read(rs);
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot run " + sql, e);
        }
    }

    private void execute(String sql) {
        try (Connection c = connect(); Statement st = c.createStatement()) {
            st.execute(sql);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot run " + sql, e);
        }
    }

    /** @return a new connection to the target (auto-commit on) */
    Connection connect() throws SQLException {
        return DriverManager.getConnection(url, user, password);
    }
}
