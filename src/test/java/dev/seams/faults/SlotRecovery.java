package dev.seams.faults;

import static org.awaitility.Awaitility.await;

import dev.seams.stand.ConnectWorker;
import dev.seams.truth.ReplicationSlots;
import java.time.Duration;

/**
 * The documented recovery from a lost replication slot (claim B14, docs/source.md "When the slot is lost"), the part
 * Kafka Connect and PostgreSQL do: the connector stopped, its source offsets deleted, any slot of its name dropped (a
 * slot invalidated by {@code max_slot_wal_keep_size}, or one created since, would start streaming from the wrong
 * position), the connector resumed — with no offsets, {@code snapshot.mode=initial} creates a new slot and snapshots
 * every row again. The deletes no snapshot carries are {@code seams reconcile}'s, which a claim runs itself.
 */
public final class SlotRecovery {

    private SlotRecovery() {
    }

    /**
     * Runs the recovery and waits until the connector's task runs again.
     *
     * @param connect   the Connect worker running the connector
     * @param slots     the source's slots
     * @param connector the connector
     * @param slot      its slot
     * @throws org.awaitility.core.ConditionTimeoutException if the connector does not stop within a minute or its task
     *                                                       does not run within 3 minutes
     * @throws IllegalStateException                         if Connect refuses a call
     */
    public static void resnapshot(ConnectWorker connect, ReplicationSlots slots, String connector, String slot) {
        connect.stop(connector);
        await("connector " + connector + " STOPPED").atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofMillis(250))
                .ignoreExceptions().until(() -> "STOPPED".equals(connect.connectorState(connector)));
        connect.deleteOffsets(connector);
        slots.drop(slot);
        connect.resume(connector);
        connect.awaitTaskRunning(connector);
    }
}
