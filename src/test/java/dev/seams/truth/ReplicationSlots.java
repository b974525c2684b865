package dev.seams.truth;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.Optional;
import java.util.concurrent.Callable;

/**
 * PostgreSQL's logical replication slots as the server sees them now ({@code pg_replication_slots}; claim B14): the
 * slot the shipped connector reads from must outlive a graceful stop of the connector.
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
     */
    public record Slot(String name, boolean active, String walStatus) {
    }

    /**
     * @param name a slot name, e.g. the connector's {@code slot.name}
     * @return the slot, or empty if the server has none of that name
     * @throws IllegalStateException if PostgreSQL cannot be read
     */
    public Optional<Slot> find(String name) {
        try (Connection c = pg.call();
             PreparedStatement st = c.prepareStatement(
                     "SELECT slot_name, active, wal_status FROM pg_replication_slots WHERE slot_name = ?")) {
            st.setString(1, name);
            try (ResultSet rs = st.executeQuery()) {
                return rs.next() ? Optional.of(new Slot(rs.getString(1), rs.getBoolean(2), rs.getString(3))) : Optional.empty();
            }
        } catch (Exception e) {
            throw new IllegalStateException("cannot read pg_replication_slots", e);
        }
    }
}
