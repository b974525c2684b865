package dev.seams.faults;

import dev.seams.truth.ReplicationSlots.Walsender;
import dev.seams.truth.ReplicationSlots;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * A fault of the source watched from its replication slot (claim B17 "network cut during streaming"): before the
 * injection it reads the walsender streaming the slot (its pid, and the WAL the server had not sent yet), just before the
 * heal the WAL written while the fault held, what of it the walsender had not sent and what the connector had not
 * reported receiving, and after the heal the walsender again, so the report shows what was at stake and whether the
 * connector's replication connection outlived the fault (the same pid) or was opened anew. Figures {@code
 * walsender_pid_before}, {@code wal_not_sent_at_injection_bytes}, {@code wal_written_while_held_bytes}, {@code
 * wal_not_sent_before_heal_bytes}, {@code wal_not_received_before_heal_bytes}, {@code walsender_after_heal}; what proves
 * the fault took effect is the wrapped fault's proof, and with no WAL the connector had not received before the heal
 * nothing was at stake ({@link #nothingAtStake()}). Not sent is no measure of the stake: the walsender hands a cut-off
 * client's WAL to the socket until the kernel's buffers are full (a few hundred kilobytes of changes count as sent).
 */
public final class WalsenderWatch implements Fault {

    private final Fault fault;
    private final ReplicationSlots slots;
    private final String slot;
    private CompletableFuture<Object> after = new CompletableFuture<>();
    private CompletableFuture<Object> written = new CompletableFuture<>();
    private CompletableFuture<Object> notSent = new CompletableFuture<>();
    private CompletableFuture<Object> notReceived = new CompletableFuture<>();
    private Optional<Walsender> before = Optional.empty();
    private long walAtInjection = -1;
    /** Bytes of WAL the connector had not reported receiving just before the heal; -1 not known. */
    private long notReceivedBeforeHeal = -1;

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
        walAtInjection = slots.walPosition();
        after = new CompletableFuture<>();
        written = new CompletableFuture<>();
        notSent = new CompletableFuture<>();
        notReceived = new CompletableFuture<>();
        notReceivedBeforeHeal = -1;
        Proof proof = fault.inject();
        return proof.with("walsender_pid_before", before.map(w -> (Object) w.pid()).orElse("none"))
                .with("wal_not_sent_at_injection_bytes", before.map(w -> (Object) w.unsentWal()).orElse("unknown"))
                .with("wal_written_while_held_bytes", written)
                .with("wal_not_sent_before_heal_bytes", notSent)
                .with("wal_not_received_before_heal_bytes", notReceived)
                .with("walsender_after_heal", after);
    }

    @Override
    public Duration hold() {
        return fault.hold();
    }

    /** @return a reason when the connector had received every byte of WAL just before the heal (or that was not known) */
    @Override
    public Optional<String> nothingAtStake() {
        return notReceivedBeforeHeal > 0 ? Optional.empty() : Optional.of(notReceivedBeforeHeal == 0
                ? "no WAL was waiting for the connector when the fault ended (it had reported receiving all of it)"
                : "the WAL the connector had not received before the heal could not be read");
    }

    /**
     * Reads the WAL written since the injection and what of it the walsender had not sent, heals the wrapped fault, then
     * reads the slot's walsender: {@code same pid N}, {@code new pid N} or {@code none}.
     */
    @Override
    public void heal() {
        try {
            long now = slots.walPosition();
            written.complete(now - walAtInjection);
            // no walsender while held: none of the WAL written since the injection was sent or received
            Optional<Walsender> held = slots.walsender(slot);
            notSent.complete(held.map(Walsender::unsentWal).orElse(now - walAtInjection));
            notReceivedBeforeHeal = held.map(Walsender::unreceivedWal).orElse(now - walAtInjection);
            notReceived.complete(notReceivedBeforeHeal);
        } catch (RuntimeException unread) {   // PostgreSQL not answering the harness: the stake is not known
            written.complete("unknown: " + unread.getMessage());
            notSent.complete("unknown: " + unread.getMessage());
            notReceived.complete("unknown: " + unread.getMessage());
        }
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
