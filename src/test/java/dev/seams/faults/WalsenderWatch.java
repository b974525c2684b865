package dev.seams.faults;

import dev.seams.truth.ReplicationSlots.Walsender;
import dev.seams.truth.ReplicationSlots;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * A fault of the source watched from its replication slot (claim B17 "network cut during streaming"): before the
 * injection it reads the walsender streaming the slot (its pid, and the WAL the server had not sent yet), and after the
 * heal the walsender again, so the report shows whether the connector's replication connection outlived the fault
 * (the same pid) or was opened anew. Figures {@code walsender_pid_before}, {@code wal_not_sent_at_injection_bytes},
 * {@code walsender_after_heal}; what proves the fault took effect is the wrapped fault's proof.
 */
public final class WalsenderWatch implements Fault {

    private final Fault fault;
    private final ReplicationSlots slots;
    private final String slot;
    private CompletableFuture<Object> after = new CompletableFuture<>();
    private Optional<Walsender> before = Optional.empty();

    /**
     * @param fault the fault of the source, e.g. PostgreSQL cut off the network
     * @param slots the source's slots, read while PostgreSQL answers (before the injection, after the heal)
     * @param slot  the connector's {@code slot.name}
     */
    public WalsenderWatch(Fault fault, ReplicationSlots slots, String slot) {
        this.fault = fault;
        this.slots = slots;
        this.slot = slot;
    }

    @Override
    public String name() {
        return fault.name();
    }

    @Override
    public Proof inject() {
        before = slots.walsender(slot);
        after = new CompletableFuture<>();
        Proof proof = fault.inject();
        return proof.with("walsender_pid_before", before.map(w -> (Object) w.pid()).orElse("none"))
                .with("wal_not_sent_at_injection_bytes", before.map(w -> (Object) w.unsentWal()).orElse("unknown"))
                .with("walsender_after_heal", after);
    }

    @Override
    public Duration hold() {
        return fault.hold();
    }

    /**
     * Heals the wrapped fault, then reads the slot's walsender: {@code same pid N}, {@code new pid N} or {@code none}.
     */
    @Override
    public void heal() {
        try {
            fault.heal();
        } finally {
            try {
                Optional<Walsender> now = slots.walsender(slot);
                after.complete(now.map(w -> before.isPresent() && before.get().pid() == w.pid() ? "same pid " + w.pid()
                        : "new pid " + w.pid()).orElse("none"));
            } catch (RuntimeException e) {
                after.complete("unknown: " + e.getMessage());
            }
        }
    }
}
