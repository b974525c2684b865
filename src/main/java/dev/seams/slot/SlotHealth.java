package dev.seams.slot;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * The health of a logical replication slot as PostgreSQL reports it ({@code pg_replication_slots}; claim B14,
 * docs/source.md "Watching the slot"): whether the slot still exists, whether WAL it needs has been removed
 * ({@code wal_status} {@code lost}: PostgreSQL invalidated it, e.g. by {@code max_slot_wal_keep_size}), and how much
 * WAL it holds back. A connector can report its task RUNNING while its slot is lost (Debezium retries the refused
 * replication forever): this is what a monitor checks instead.
 *
 * @param slot          the slot's name
 * @param exists        whether the slot exists
 * @param active        whether a walsender streams from it now
 * @param walStatus     {@code reserved}, {@code extended}, {@code unreserved} or {@code lost}; null if it does not exist
 * @param retainedBytes WAL between the server's position and the slot's confirmed position, -1 when unknown
 *                      (no slot, nothing confirmed, or invalidated)
 */
public record SlotHealth(String slot, boolean exists, boolean active, String walStatus, long retainedBytes) {

    /** What a slot's health means for the connector reading it. */
    public enum Verdict {
        /** The slot exists and holds every WAL segment its consumer needs, within the bound. */
        HEALTHY,
        /**
         * The slot still serves, but PostgreSQL may invalidate it ({@code wal_status} {@code unreserved}: past
         * {@code max_slot_wal_keep_size}) or it holds back more WAL than the bound.
         */
        AT_RISK,
        /**
         * The slot cannot serve its consumer any more: it does not exist, or PostgreSQL removed WAL it needs
         * ({@code wal_status} {@code lost}). The changes since its consumer's position are gone from the CDC stream;
         * recovery is a new slot and a re-snapshot (docs/source.md "When the slot is lost").
         */
        LOST
    }

    /**
     * Reads a slot's health.
     *
     * @param pg   a connection to the source database
     * @param slot the slot's name
     * @return its health; {@code exists} false if there is no such slot
     * @throws SQLException if PostgreSQL refuses the query (e.g. a server before 13, which has no {@code wal_status})
     */
    public static SlotHealth read(Connection pg, String slot) throws SQLException {
        try (PreparedStatement st = pg.prepareStatement("SELECT active, wal_status, "
                + "coalesce(pg_wal_lsn_diff(pg_current_wal_lsn(), confirmed_flush_lsn), -1)::bigint "
                + "FROM pg_replication_slots WHERE slot_name = ?")) {
            st.setString(1, slot);
            try (ResultSet rs = st.executeQuery()) {
                if (!rs.next()) {
                    return new SlotHealth(slot, false, false, null, -1);
                }
                String walStatus = rs.getString(2);
                return new SlotHealth(slot, true, rs.getBoolean(1), walStatus, "lost".equals(walStatus) ? -1 : rs.getLong(3));
            }
        }
    }

    /**
     * @param maxRetainedBytes the most WAL the slot may hold back before it counts as at risk; {@link Long#MAX_VALUE}
     *                         for no bound
     * @return the verdict: {@link Verdict#LOST} for a missing or lost slot, {@link Verdict#AT_RISK} for an unreserved
     *     one or one holding more than the bound, else {@link Verdict#HEALTHY}
     */
    public Verdict verdict(long maxRetainedBytes) {
        if (!exists || "lost".equals(walStatus)) {
            return Verdict.LOST;
        }
        if ("unreserved".equals(walStatus) || retainedBytes > maxRetainedBytes) {
            return Verdict.AT_RISK;
        }
        return Verdict.HEALTHY;
    }

    /** @return one line, e.g. {@code slot seams_orders: exists active wal_status=reserved retained_bytes=1048576} */
    @Override
    public String toString() {
        return "slot " + slot + ": " + (exists ? "exists " + (active ? "active" : "inactive") + " wal_status=" + walStatus
                + " retained_bytes=" + (retainedBytes < 0 ? "unknown" : Long.toString(retainedBytes)) : "does not exist");
    }
}
