package dev.seams.inbox;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The consumed positions of the inbox sink, stored in the target database in the same transaction
 * as the ledger rows (claim B4: Kafka redeliveries are excluded exactly, without a window). Table
 * {@value #TABLE}: {@code (consumer_group, topic, kafka_partition)} primary key, {@code next_offset}
 * (the consumer's position after the poll: the next offset to read), {@code updated_at}.
 *
 * <ul>
 *   <li>on assignment the sink seeks every partition that has a row to its {@code next_offset}
 *       ({@link #read}), so it resumes where the database is, never earlier and never from the
 *       earliest offset, whatever Kafka's committed offset says;</li>
 *   <li>in each poll's transaction it locks the poll's partitions' rows ({@link #lock}), skips the
 *       records below them (a redelivery the seek could not prevent, e.g. a poll that ran before a
 *       concurrent member's commit), and raises them ({@link #save}, never lowered). The row lock
 *       serialises two members that both believe they own a partition (a zombie after a rebalance):
 *       the second one sees the first one's offsets and skips what it wrote.</li>
 * </ul>
 * To replay a topic into the ledger on purpose, delete the group's rows. Every method runs in the
 * caller's transaction; none commits. Values are bound parameters.
 */
final class OffsetStore {

    /** The offsets table, one for every group and topic. */
    static final String TABLE = "inbox_offsets";

    private final Connection connection;
    private final String group;
    private final String topic;

    /**
     * @param connection a connection with auto-commit off; the caller commits
     * @param group      the consumer group
     * @param topic      the consumed topic
     */
    OffsetStore(Connection connection, String group, String topic) {
        this.connection = connection;
        this.group = group;
        this.topic = topic;
    }

    /** Creates the table if it does not exist. */
    void createTable() throws SQLException {
        try (Statement st = connection.createStatement()) {
            st.execute("CREATE TABLE IF NOT EXISTS " + TABLE + " (consumer_group text NOT NULL, topic text NOT NULL, "
                    + "kafka_partition integer NOT NULL, next_offset bigint NOT NULL, "
                    + "updated_at timestamptz NOT NULL DEFAULT clock_timestamp(), "
                    + "PRIMARY KEY (consumer_group, topic, kafka_partition))");
        }
    }

    /**
     * @param partitions partitions of the topic
     * @return partition → stored next offset, for those that have one
     */
    Map<Integer, Long> read(Collection<Integer> partitions) throws SQLException {
        return select("SELECT kafka_partition, next_offset FROM " + TABLE
                + " WHERE consumer_group = ? AND topic = ? AND kafka_partition = ANY(?) AND next_offset >= 0", partitions);
    }

    /**
     * Locks the rows of these partitions for the rest of the transaction (creating them with no
     * offset, {@code -1}, if absent; a concurrent creator waits for this transaction) and reads them.
     *
     * @return partition → stored next offset, {@code -1} where none was stored yet
     */
    Map<Integer, Long> lock(Collection<Integer> partitions) throws SQLException {
        try (PreparedStatement st = connection.prepareStatement("INSERT INTO " + TABLE
                + " (consumer_group, topic, kafka_partition, next_offset) SELECT ?, ?, p, -1 FROM unnest(?::int[]) AS p "
                + "ON CONFLICT DO NOTHING")) {
            bindGroupTopic(st);
            st.setArray(3, connection.createArrayOf("int4", partitions.toArray()));
            st.executeUpdate();
        }
        return select("SELECT kafka_partition, next_offset FROM " + TABLE
                + " WHERE consumer_group = ? AND topic = ? AND kafka_partition = ANY(?) FOR UPDATE", partitions);
    }

    /**
     * Stores the next offsets, keeping the higher of the stored and the given one.
     *
     * @param next partition → next offset to read
     */
    void save(Map<Integer, Long> next) throws SQLException {
        List<Integer> partitions = List.copyOf(next.keySet());
        try (PreparedStatement st = connection.prepareStatement("INSERT INTO " + TABLE
                + " (consumer_group, topic, kafka_partition, next_offset) SELECT ?, ?, p, o FROM unnest(?::int[], ?::bigint[]) "
                + "AS t(p, o) ON CONFLICT (consumer_group, topic, kafka_partition) DO UPDATE SET "
                + "next_offset = GREATEST(" + TABLE + ".next_offset, EXCLUDED.next_offset), updated_at = clock_timestamp()")) {
            bindGroupTopic(st);
            st.setArray(3, connection.createArrayOf("int4", partitions.toArray()));
            st.setArray(4, connection.createArrayOf("int8", partitions.stream().map(next::get).toArray()));
            st.executeUpdate();
        }
    }

    private Map<Integer, Long> select(String sql, Collection<Integer> partitions) throws SQLException {
        Map<Integer, Long> stored = new HashMap<>();
        try (PreparedStatement st = connection.prepareStatement(sql)) {
            bindGroupTopic(st);
            st.setArray(3, connection.createArrayOf("int4", partitions.toArray()));
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    stored.put(rs.getInt(1), rs.getLong(2));
                }
            }
        }
        return stored;
    }

    private void bindGroupTopic(PreparedStatement st) throws SQLException {
        st.setString(1, group);
        st.setString(2, topic);
    }
}
