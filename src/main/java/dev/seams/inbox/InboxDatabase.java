package dev.seams.inbox;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Collection;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The inbox sink's connection to its target database (claim B4): opened on first use with
 * auto-commit off, the sink's tables created then ({@link InboxStore}, {@link OffsetStore}), and
 * discarded after a failed transaction so that the next attempt starts on a fresh connection.
 */
final class InboxDatabase implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(InboxDatabase.class);

    private final InboxOptions options;
    private Connection connection;

    /** @param options the run's settings (JDBC URL, credentials, topic, group, mode) */
    InboxDatabase(InboxOptions options) {
        this.options = options;
    }

    /**
     * @return the open connection, auto-commit off, the tables created
     * @throws SQLException if the database cannot be reached or the tables created
     */
    Connection connection() throws SQLException {
        if (connection == null) {
            Connection opened = DriverManager.getConnection(options.target().jdbcUrl(), options.target().user(), options.target().password());
            try {
                opened.setAutoCommit(false);
                new InboxStore(opened, options.source().topic()).createTables(options.mode());
                if (options.mode() == InboxMode.INBOX) {
                    offsets(opened).createTable();
                }
                opened.commit();
            } catch (SQLException e) {
                opened.close();
                throw e;
            }
            connection = opened;
        }
        return connection;
    }

    /**
     * Reads the stored next offsets of these partitions in a short transaction of its own.
     *
     * @return partition → next offset, for the partitions that have one
     * @throws SQLException if the read fails (the connection is discarded)
     */
    Map<Integer, Long> storedOffsets(Collection<Integer> partitions) throws SQLException {
        Connection c = connection();
        try {
            Map<Integer, Long> stored = offsets(c).read(partitions);
            c.commit();
            return stored;
        } catch (SQLException e) {
            discard();
            throw e;
        }
    }

    /** @return the offsets table's statements on this connection */
    OffsetStore offsets(Connection c) {
        return new OffsetStore(c, options.membership().groupId(), options.source().topic());
    }

    /** Rolls back quietly and closes the connection; the next {@link #connection()} opens a new one. */
    void discard() {
        if (connection != null) {
            try {
                connection.rollback();
            } catch (SQLException e) {
                LOG.warn("rollback failed (the server rolls back when the connection closes): {}", e.toString());
            }
            close();
        }
    }

    @Override
    public void close() {
        if (connection != null) {
            try {
                connection.close();
            } catch (SQLException e) {
                LOG.warn("cannot close the database connection: {}", e.toString());
            }
            connection = null;
        }
    }
}
