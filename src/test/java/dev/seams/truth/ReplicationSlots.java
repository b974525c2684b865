package dev.seams.truth;

import static org.awaitility.Awaitility.await;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Callable;

/**
 * PostgreSQL's logical replication slots as the server sees them now ({@code pg_replication_slots}; claim B14): the
 * slot the shipped connector reads from must outlive a graceful stop of the connector, and must not hold WAL back
 * while the captured table is idle.
 */
public final class ReplicationSlots {

    private final Callable<Connection> pg;

    /** @param pg opens a connection to the source database */
    public ReplicationSlots(Callable<Connection> pg) {
        this.pg = pg;
    }

    /**
     * One slot.
     *
     * @param name      {@code slot_name}
     * @param active    whether a walsender streams from it now
     * @param walStatus {@code wal_status}: {@code reserved}, {@code extended}, {@code unreserved} or {@code lost}
     * @param retained  bytes of WAL between the server's current position and what the slot's consumer confirmed
     *                  ({@code pg_wal_lsn_diff(pg_current_wal_lsn(), confirmed_flush_lsn)}): what the slot holds back
     *                  from recycling; -1 before the consumer confirmed anything
     */
    public record Slot(String name, boolean active, String walStatus, long retained) {

        /** @return {@link #retained()} in MiB (2^20 bytes), rounded down; -1 if unknown */
        public long retainedMib() {
            return retained < 0 ? -1 : retained >> 20;
        }
    }

    /**
     * @param name a slot name, e.g. the connector's {@code slot.name}
     * @return the slot, or empty if the server has none of that name
     * @throws IllegalStateException if PostgreSQL cannot be read
     */
    public Optional<Slot> find(String name) {
        return first("SELECT slot_name, active, wal_status, "
                + "coalesce(pg_wal_lsn_diff(pg_current_wal_lsn(), confirmed_flush_lsn), -1)::bigint "
                + "FROM pg_replication_slots WHERE slot_name = ?", name, "pg_replication_slots",
                rs -> new Slot(rs.getString(1), rs.getBoolean(2), rs.getString(3), rs.getLong(4)));
    }

    /**
     * @return the server's WAL position now ({@code pg_current_wal_lsn()}), bytes from 0/0
     * @throws IllegalStateException if PostgreSQL cannot be read
     */
    public long walPosition() {
        try (Connection c = pg.call(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::bigint")) {
            rs.next();
            return rs.getLong(1);
        } catch (Exception e) {
            throw new IllegalStateException("cannot read pg_current_wal_lsn()", e);
        }
    }

    /** Reads a row of one slot, or none. */
    private <T> Optional<T> first(String sql, String slot, String what, RowReader<T> row) {
        try (Connection c = pg.call(); PreparedStatement st = c.prepareStatement(sql)) {
            st.setString(1, slot);
            try (ResultSet rs = st.executeQuery()) {
                return rs.next() ? Optional.of(row.read(rs)) : Optional.empty();
            }
        } catch (Exception e) {
            throw new IllegalStateException("cannot read " + what, e);
        }
    }

    /** One row of a result, read. */
    @FunctionalInterface
    private interface RowReader<T> {
        T read(ResultSet rs) throws java.sql.SQLException;
    }

    /**
     * The walsender streaming from a slot now.
     *
     * @param pid      its process id
     * @param unsentWal bytes of WAL the server wrote that it has not sent yet ({@code pg_wal_lsn_diff(pg_current_wal_lsn(),
     *                 sent_lsn)} of {@code pg_stat_replication}); -1 if not known. Sent means handed to the socket: what the
     *                 kernel's buffers hold counts as sent, whether or not the client ever gets it
     * @param unreceivedWal bytes of WAL the server wrote that the client has not reported receiving ({@code
     *                 pg_wal_lsn_diff(pg_current_wal_lsn(), write_lsn)}: its last standby status update, every 10 s at
     *                 Debezium's default {@code status.update.interval.ms}, or on the server's keepalive); -1 if not known
     */
    public record Walsender(int pid, long unsentWal, long unreceivedWal) {
    }

    /**
     * @param slot a slot name
     * @return the walsender streaming from it, or empty if none does (the slot inactive or missing)
     * @throws IllegalStateException if PostgreSQL cannot be read
     */
    public Optional<Walsender> walsender(String slot) {
        return first("SELECT s.active_pid, coalesce(pg_wal_lsn_diff(pg_current_wal_lsn(), r.sent_lsn), -1)::bigint, "
                + "coalesce(pg_wal_lsn_diff(pg_current_wal_lsn(), r.write_lsn), -1)::bigint "
                + "FROM pg_replication_slots s LEFT JOIN pg_stat_replication r ON r.pid = s.active_pid "
                + "WHERE s.slot_name = ? AND s.active_pid IS NOT NULL", slot, "pg_stat_replication",
                rs -> new Walsender(rs.getInt(1), rs.getLong(2), rs.getLong(3)));
    }

    /**
     * Terminates the walsender streaming from a slot and drops the slot, as an operator's clean-up or a failover to a
     * server without it does (claim B14 "slot dropped"). Retried every 100 ms for up to a minute, as the terminated
     * walsender takes a moment to release the slot and its client may reconnect in between.
     *
     * @param slot a slot name
     * @return the server's WAL position right after the drop, bytes from 0/0
     * @throws org.awaitility.core.ConditionTimeoutException if it could not be dropped within a minute
     */
    public long terminateAndDrop(String slot) {
        long[] lsn = new long[1];
        await("slot " + slot + " terminated and dropped").atMost(Duration.ofMinutes(1))
                .pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(100)).ignoreExceptions()
                .until(() -> {
                    try (Connection c = pg.call(); Statement st = c.createStatement()) {
                        st.execute("SELECT pg_terminate_backend(active_pid) FROM pg_replication_slots WHERE slot_name = '"
                                + slot + "' AND active_pid IS NOT NULL");
                        st.execute("SELECT pg_drop_replication_slot('" + slot + "')");
                        try (ResultSet rs = st.executeQuery("SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::bigint")) {
                            rs.next();
                            lsn[0] = rs.getLong(1);
                        }
                    }
                    return true;
                });
        return lsn[0];
    }

    /**
     * Drops a slot if it exists, retried for up to a minute: the slot cannot be dropped while a walsender (a deleted or
     * stopped connector's, still closing) holds it.
     *
     * @param slot a slot name
     * @throws org.awaitility.core.ConditionTimeoutException if it cannot be dropped within a minute
     */
    public void drop(String slot) {
        await("slot " + slot + " dropped").atMost(Duration.ofMinutes(1))
                .pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(500)).ignoreExceptions()
                .until(() -> {
                    try (Connection c = pg.call(); Statement st = c.createStatement()) {
                        st.execute("SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE slot_name = '"
                                + slot + "'");
                    }
                    return true;
                });
    }

    /**
     * Drops a slot ({@link #drop}) and the publication of the same name, as a test connector registered with its own
     * slot leaves them (a slot nobody reads retains WAL for good).
     *
     * @param slot a slot and publication name
     * @throws org.awaitility.core.ConditionTimeoutException if the slot cannot be dropped within a minute
     * @throws IllegalStateException if PostgreSQL refuses to drop the publication
     */
    public void dropWithPublication(String slot) {
        drop(slot);
        try (Connection c = pg.call(); Statement st = c.createStatement()) {
            st.execute("DROP PUBLICATION IF EXISTS " + slot);
        } catch (Exception e) {
            throw new IllegalStateException("cannot drop publication " + slot, e);
        }
    }
}
