package dev.seams.faults;

import dev.seams.stand.ConnectWorker;
import dev.seams.truth.ReplicationSlots;
import java.time.Duration;

/**
 * A connector's replication slot dropped under it (claim B14 "slot dropped"): its walsender terminated and the slot
 * dropped, as an operator's clean-up of "unused" slots or a failover to a server without the slot does. Proof: the drop
 * succeeded (the server's WAL position then is recorded). {@link #heal()} is the documented recovery
 * ({@link SlotRecovery}).
 */
public final class SlotDrop implements Fault {

    private final ReplicationSlots slots;
    private final ConnectWorker connect;
    private final String connector;
    private final String slot;

    /**
     * @param slots     the source's slots
     * @param connect   the Connect worker running the connector
     * @param connector the connector reading from {@code slot}
     * @param slot      the slot dropped
     */
    public SlotDrop(ReplicationSlots slots, ConnectWorker connect, String connector, String slot) {
        this.slots = slots;
        this.connect = connect;
        this.connector = connector;
        this.slot = slot;
    }

    @Override
    public String name() {
        return "slot-dropped";
    }

    @Override
    public Proof inject() {
        long lsn = slots.terminateAndDrop(slot);
        return Proof.of("slot " + slot + " dropped at WAL position " + lsn + " (its walsender terminated first)")
                .with("wal_position_at_drop", lsn);
    }

    @Override
    public Duration hold() {
        return Duration.ZERO;   // the claim writes its orders while the slot is gone, then observes the connector
    }

    /** The documented recovery ({@link SlotRecovery#resnapshot}); then the connector's task runs. */
    @Override
    public void heal() {
        SlotRecovery.resnapshot(connect, slots, connector, slot);
    }
}
