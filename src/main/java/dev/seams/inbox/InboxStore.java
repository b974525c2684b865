package dev.seams.inbox;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * The inbox sink's tables in the target PostgreSQL database and every statement it runs on them
 * (claim B4; seed 001). Tables are created unqualified, i.e. in the first schema of the
 * connection's {@code search_path} (pgjdbc {@code currentSchema=...} selects it).
 *
 * <ul>
 *   <li>{@value #LEDGER}: one row per order change (INSERT, UPDATE, DELETE): {@code order_id},
 *       {@code customer_id}, {@code amount}, {@code op}, {@code source_lsn}, {@code deleted},
 *       {@code change_key}, {@code source_partition}, {@code source_offset}, {@code written_at}.
 *       Deliberately NO primary key and NO unique index: a plain INSERT is not idempotent, as in the
 *       seed. The columns added for changes are added to a ledger of an earlier release too.</li>
 *   <li>{@value #STATE}: a view of each order's latest change (highest {@code source_lsn}, then
 *       offset) that is not a deletion — the ledger's per-order state, which equals PostgreSQL's
 *       {@code orders} row for row when every change was applied once; per-customer totals are
 *       {@code SELECT customer_id, count(*), sum(amount) FROM order_ledger_state GROUP BY customer_id}.</li>
 *   <li>One processed-keys table per topic ({@link #keysTable(String)}, e.g.
 *       {@code processed_keys_orders_events}): {@code id bigserial} (insertion order),
 *       {@code msg_key} (unique: a concurrent writer of the same key, e.g. a zombie consumer after a
 *       rebalance, fails its transaction instead of writing a duplicate), {@code source_lsn} (the
 *       change's {@code __lsn}, null without one), {@code source_partition}, {@code source_offset},
 *       {@code processed_at}. A key names a change ({@link ChangeKeys}): it catches Debezium
 *       re-sending a change at a new offset; Kafka's own redeliveries are excluded before, exactly,
 *       by the offsets table ({@link OffsetStore}). The window it keeps is the keys of the newest
 *       changes by source position ({@link #trim}), walked on an index in that order (the seed's
 *       "индекс с обратной сортировкой"); the columns and index are added to a keys table of an
 *       earlier release too.</li>
 * </ul>
 *
 * <p>No statement is built from values: values are bound parameters (arrays via {@code unnest});
 * only the keys table's name, derived from the topic name and checked against
 * {@code [a-z0-9_]+}, is part of the SQL text. Every method runs in the caller's transaction; none
 * commits.
 */
final class InboxStore {

    /** The ledger table (no unique index). */
    static final String LEDGER = "order_ledger";
    /** The view of each order's latest state. */
    static final String STATE = "order_ledger_state";

    private static final Pattern IDENTIFIER = Pattern.compile("[a-z_][a-z0-9_]{0,62}");

    private final Connection connection;
    private final String keysTable;

    /**
     * @param connection a connection with auto-commit off; the caller commits
     * @param topic      the consumed topic (selects the keys table)
     */
    InboxStore(Connection connection, String topic) {
        this.connection = connection;
        this.keysTable = keysTable(topic);
    }

    /**
     * @param topic a Kafka topic name
     * @return the name of its processed-keys table: {@code processed_keys_} + the topic in lower
     *     case with every character outside {@code [a-z0-9]} replaced by {@code _}
     *     ({@code orders.events} → {@code processed_keys_orders_events})
     * @throws IllegalArgumentException if the result is longer than PostgreSQL's 63-character identifiers
     */
    static String keysTable(String topic) {
        String name = "processed_keys_" + topic.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]", "_");
        if (!IDENTIFIER.matcher(name).matches()) {
            throw new IllegalArgumentException("topic name too long for a keys table: " + topic);
        }
        return name;
    }

    /**
     * Creates the ledger, its state view and, in mode inbox, the keys table if they do not exist.
     *
     * @throws SQLException if the DDL fails
     */
    void createTables(InboxMode mode) throws SQLException {
        try (Statement st = connection.createStatement()) {
            // amount unconstrained numeric: every decimal the source holds, never rounded (B15)
            st.execute("CREATE TABLE IF NOT EXISTS " + LEDGER + " ("
                    + "order_id bigint NOT NULL, customer_id bigint NOT NULL, amount numeric NOT NULL, "
                    + "source_partition integer NOT NULL, source_offset bigint NOT NULL, "
                    + "written_at timestamptz NOT NULL DEFAULT clock_timestamp())");
            // a ledger of an earlier release has numeric(12,2), which rounds 1.005 to 1.01 on insert: drop the typmod
            // (no rewrite of the table: PostgreSQL only relabels a numeric column losing its precision)
            st.execute("DO $$ BEGIN IF EXISTS (SELECT 1 FROM information_schema.columns WHERE table_schema = current_schema() "
                    + "AND table_name = '" + LEDGER + "' AND column_name = 'amount' AND numeric_precision IS NOT NULL) THEN "
                    + "ALTER TABLE " + LEDGER + " ALTER COLUMN amount TYPE numeric; END IF; END $$");
            // and customer_id integer, which refuses a customer beyond 32 bits (B15): widened (a rewrite, once)
            st.execute("DO $$ BEGIN IF EXISTS (SELECT 1 FROM information_schema.columns WHERE table_schema = current_schema() "
                    + "AND table_name = '" + LEDGER + "' AND column_name = 'customer_id' AND data_type = 'integer') THEN "
                    + "ALTER TABLE " + LEDGER + " ALTER COLUMN customer_id TYPE bigint; END IF; END $$");
            st.execute("ALTER TABLE " + LEDGER + " ADD COLUMN IF NOT EXISTS op text, "
                    + "ADD COLUMN IF NOT EXISTS source_lsn bigint, "
                    + "ADD COLUMN IF NOT EXISTS deleted boolean NOT NULL DEFAULT false, "
                    + "ADD COLUMN IF NOT EXISTS change_key text");
            st.execute("CREATE OR REPLACE VIEW " + STATE + " AS SELECT order_id, customer_id, amount, source_lsn FROM ("
                    + "SELECT DISTINCT ON (order_id) order_id, customer_id, amount, source_lsn, deleted FROM " + LEDGER
                    + " ORDER BY order_id, source_lsn DESC NULLS LAST, source_offset DESC) latest WHERE NOT deleted");
            if (mode == InboxMode.INBOX) {
                st.execute("CREATE TABLE IF NOT EXISTS " + keysTable + " ("
                        + "id bigserial PRIMARY KEY, msg_key text NOT NULL UNIQUE, "
                        + "source_partition integer NOT NULL, source_offset bigint NOT NULL, "
                        + "processed_at timestamptz NOT NULL DEFAULT clock_timestamp())");
                st.execute("ALTER TABLE " + keysTable + " ADD COLUMN IF NOT EXISTS source_lsn bigint");
                st.execute("CREATE INDEX IF NOT EXISTS " + newestIndex(keysTable) + " ON " + keysTable
                        + " (" + NEWEST_FIRST + ")");
            }
        }
    }

    /**
     * @param keys change keys of a poll
     * @return those already in the keys table
     * @throws SQLException if the query fails
     */
    Set<String> processed(Collection<String> keys) throws SQLException {
        Set<String> found = new HashSet<>();
        if (keys.isEmpty()) {
            return found;
        }
        try (PreparedStatement st = connection.prepareStatement(
                "SELECT msg_key FROM " + keysTable + " WHERE msg_key = ANY(?)")) {
            st.setArray(1, connection.createArrayOf("text", keys.toArray()));
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    found.add(rs.getString(1));
                }
            }
        }
        return found;
    }

    /**
     * Inserts one ledger row per entry with one statement.
     *
     * @return rows inserted
     * @throws SQLException if the insert fails
     */
    int insertLedger(List<LedgerEntry> entries) throws SQLException {
        return insert("INSERT INTO " + LEDGER + " (order_id, customer_id, amount, op, source_lsn, deleted, change_key, "
                + "source_partition, source_offset) SELECT * FROM unnest(?::bigint[], ?::bigint[], ?::numeric[], ?::text[], "
                + "?::bigint[], ?::boolean[], ?::text[], ?::int[], ?::bigint[])", entries, List.of(
                new Column("int8", LedgerEntry::orderId), new Column("int8", LedgerEntry::customerId),
                new Column("numeric", LedgerEntry::amount), new Column("text", LedgerEntry::op),
                LSN, new Column("bool", LedgerEntry::deleted), KEY, PARTITION, OFFSET));
    }

    /**
     * Records the entries' keys as processed, with their source LSNs, in entry order (ids
     * ascending), with one statement.
     *
     * @return keys inserted
     * @throws SQLException if the insert fails, e.g. a key is already there (unique violation)
     */
    int insertKeys(List<LedgerEntry> entries) throws SQLException {
        return insert("INSERT INTO " + keysTable + " (msg_key, source_lsn, source_partition, source_offset) "
                + "SELECT m, l, p, o FROM unnest(?::text[], ?::bigint[], ?::int[], ?::bigint[]) WITH ORDINALITY AS k(m, l, p, o, n) "
                + "ORDER BY n", entries, List.of(KEY, LSN, PARTITION, OFFSET));
    }

    /**
     * Trims the keys table to the keys of its newest {@code keep} changes: highest source LSN
     * first, a key without LSN (an older connector's position key) below every key with one, ties
     * by insertion order ({@value #NEWEST_FIRST}) — the seed's clean-up script ordered by the
     * change's source position instead of by insertion.
     *
     * <p>Why not by insertion (claim B4[window]): Debezium re-sends a suffix of the changes by LSN.
     * A re-send deeper than the window starts with changes older than the window; kept by insertion,
     * their keys push out the window's keys right before the re-sent copies of those keys arrive, so
     * every re-sent change — the window's own included — is written again (measured: 600 of 600 for
     * a re-send of twice the window). Kept by LSN, an older change's key ranks below the window and
     * is the one trimmed: only the re-sent changes older than the window are written again. And the
     * window holds the newest changes whatever order the partitions were consumed in, which is what a
     * suffix by LSN needs.
     *
     * @param keep rows to keep, >= 1
     * @return rows deleted
     * @throws SQLException if the delete fails
     */
    int trim(int keep) throws SQLException {
        try (PreparedStatement st = connection.prepareStatement("DELETE FROM " + keysTable
                + " WHERE id IN (SELECT id FROM " + keysTable + " ORDER BY " + NEWEST_FIRST + " OFFSET ?)")) {
            st.setInt(1, keep);
            return st.executeUpdate();
        }
    }

    /** The keys table's order from the newest change to the oldest: the window is its first {@code keep} rows. */
    static final String NEWEST_FIRST = "source_lsn DESC NULLS LAST, id DESC";

    /** @return the name of the keys table's index in {@link #NEWEST_FIRST} order (at most 63 characters) */
    static String newestIndex(String keysTable) {
        return keysTable.substring(0, Math.min(keysTable.length(), 56)) + "_newest";
    }

    /**
     * @return the id of the open transaction ({@code txid_current()}; assigns one if none), which
     *     {@code txid_status(id)} later reports as committed or aborted
     * @throws SQLException if the query fails
     */
    long txid() throws SQLException {
        try (Statement st = connection.createStatement(); ResultSet rs = st.executeQuery("SELECT txid_current()")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** One bound array parameter: its PostgreSQL element type and how an entry gives its value. */
    private record Column(String type, Function<LedgerEntry, Object> value) {
    }

    private static final Column KEY = new Column("text", LedgerEntry::key);
    private static final Column LSN = new Column("int8", LedgerEntry::lsn);
    private static final Column PARTITION = new Column("int4", LedgerEntry::partition);
    private static final Column OFFSET = new Column("int8", LedgerEntry::offset);

    /** Runs an {@code INSERT ... SELECT FROM unnest(...)} with one array parameter per column. */
    private int insert(String sql, List<LedgerEntry> entries, List<Column> columns) throws SQLException {
        if (entries.isEmpty()) {
            return 0;
        }
        try (PreparedStatement st = connection.prepareStatement(sql)) {
            for (int i = 0; i < columns.size(); i++) {
                Column column = columns.get(i);
                st.setArray(i + 1, connection.createArrayOf(column.type(), entries.stream().map(column.value()).toArray()));
            }
            return st.executeUpdate();
        }
    }
}
