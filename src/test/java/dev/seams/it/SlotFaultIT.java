package dev.seams.it;

import static org.awaitility.Awaitility.await;

import dev.seams.check.Reconciliation;
import dev.seams.cli.ExitStatus;
import dev.seams.cli.SeamsCli;
import dev.seams.faults.ContainerFaults;
import dev.seams.faults.Fault;
import dev.seams.faults.SlotDrop;
import dev.seams.faults.SlotRecovery;
import dev.seams.fixture.Pipeline;
import dev.seams.fixture.StandContext;
import dev.seams.load.UncapturedWrites;
import dev.seams.reconcile.MissingOrders;
import dev.seams.report.Anomaly;
import dev.seams.report.Claim;
import dev.seams.report.ClaimEvidence;
import dev.seams.report.FaultNotObservedException;
import dev.seams.stand.ConnectWorker;
import dev.seams.stand.ConnectorTwin;
import dev.seams.stand.Stand;
import dev.seams.truth.OrderEvents;
import dev.seams.truth.Pg;
import dev.seams.truth.ReplicationSlots;
import dev.seams.truth.RunNames;
import dev.seams.wire.OrderEvent;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.common.TopicPartition;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The replication slot lost under a running connector (claim B14 "slot dropped"; tier {@code faults}: the stand's
 * connector fails and snapshots again). The shipped connector's slot and a twin's are dropped at once (walsender
 * terminated first) and orders are written, changed and deleted while no slot exists. A connector that then starts on
 * a new slot at the current position has lost those changes: the shipped configuration must stop instead, its task
 * FAILED with Debezium's log position check's reason ("... no longer available on the server", which does not name
 * the slot), also after a supervisor's restart, and {@code seams slot} must name the slot lost (exit status 8); the twin with {@code offset.mismatch.strategy=trust_slot} (which skips that check, as Debezium's
 * documentation recommends where slots are durable) shows what happens otherwise — RUNNING on a new slot, the gap's
 * orders missing from its topic. Then the documented recovery (docs/source.md "When the slot is lost": offsets deleted,
 * a new slot, a re-snapshot, {@code seams reconcile} for the deletes no snapshot carries) must bring ds-streams and
 * FINAL to PostgreSQL; the re-snapshot alone, read before the reconcile, shows the deletes it leaves behind.
 */
@ExtendWith(StandContext.Resolver.class)
class SlotFaultIT {

    /** B14[slot dropped]'s customers: 7301..7304 before the drop, orders moved to 7305 in the gap, 7306 the marker's. */
    private static final int FIRST_CUSTOMER = 7301;
    private static final int CUSTOMERS = 4;
    private static final int MARKER_CUSTOMER = FIRST_CUSTOMER + CUSTOMERS + 1;
    /** B14[slot invalidated]'s: 7401..7404, 7405 moved to, 7406 the marker's. */
    private static final int INVALIDATED_FIRST_CUSTOMER = 7401;
    /** The server's bound on the WAL a slot may hold while its consumer is away (PostgreSQL 13+), B14[slot invalidated]. */
    private static final String MAX_SLOT_WAL_KEEP_SIZE = "32MB";
    /** WAL written past it while Connect is down: 5 transactions of 20,000 rows (~1 KiB each) into a table outside the publication. */
    private static final int WAL_BATCHES = 5;
    private static final int WAL_ROWS = 20_000;
    private static final int ORDERS_BEFORE = 24;
    private static final int ORDERS_IN_GAP = 20;
    private static final String TWIN_CONNECTOR = "orders-connector-trust-slot";
    private static final String TWIN_SLOT = "seams_b14_trust_slot";
    /** Debezium's reason when the position its offsets hold is not on the server (BaseSourceTask#validateSchemaHistory). */
    private static final String NO_LONGER_AVAILABLE = "no longer available on the server";
    /** How long a connector may take to fail, or to run again on a new slot, after its slot was dropped. */
    private static final Duration SETTLES_WITHIN = Duration.ofMinutes(2);
    /** How long a restarted task is given before its FAILED state counts as its own, not the one before the restart. */
    private static final Duration AFTER_RESTART = Duration.ofSeconds(10);

    @Test
    @Claim(id = "B14", variant = "slot dropped", title = "A slot dropped under the connector stops it by name; the recovery loses nothing",
            exercises = {"containers/debezium/orders-connector.json", "faults/SlotDrop", "reconcile/MissingOrders",
                "cli/ReconcileCommand"})
    void b14SlotDropped(ClaimEvidence e, StandContext s) {
        // given: a twin connector that skips the log position check, both connectors with offsets, this claim's orders
        Stand stand = s.stand();
        Pg pg = s.pg();
        ConnectWorker connect = new ConnectWorker(stand.connect());
        ReplicationSlots slots = new ReplicationSlots(stand::pg);
        String slot = stand.connectorConfig().get("slot.name");
        e.figure("offset_mismatch_strategy", stand.connectorConfig().getOrDefault("offset.mismatch.strategy", "(default) no_validation"));
        Map<String, String> twinConfig = ConnectorTwin.of(stand.connectorConfig(), TWIN_SLOT);
        twinConfig.put("snapshot.mode", "no_data");
        twinConfig.put("offset.mismatch.strategy", "trust_slot");
        connect.register(TWIN_CONNECTOR, twinConfig);
        Fault drop = new SlotDrop(slots, connect, RunNames.CONNECTOR, slot);
        try {
            connect.awaitTaskRunning(TWIN_CONNECTOR);
            await("the twin streaming from " + TWIN_SLOT).atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofMillis(250))
                    .until(() -> slots.find(TWIN_SLOT).map(ReplicationSlots.Slot::active).orElse(false));
            List<Long> before = new ArrayList<>();
            for (int i = 0; i < ORDERS_BEFORE; i++) {
                before.add(pg.insertOrder(FIRST_CUSTOMER + i % CUSTOMERS, BigDecimal.valueOf(500 + i * 13L, 2)));
            }
            await("the twin's source offsets stored").atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofSeconds(1))
                    .ignoreExceptions().until(() -> !connect.get("/connectors/" + TWIN_CONNECTOR + "/offsets").path("offsets").isEmpty());
            s.settle();
            // when: both slots dropped, and orders written, changed and deleted while neither exists
            e.figure("twin_slot_drop", new SlotDrop(slots, connect, TWIN_CONNECTOR, TWIN_SLOT).inject().evidence());
            Fault.Proof proof = drop.inject();
            e.figure("slot_drop_proof", proof.evidence());
            if (!proof.tookEffect()) {
                throw new FaultNotObservedException(proof.evidence());
            }
            Gap gap = writeGap(pg, before, FIRST_CUSTOMER);
            e.figure("gap", gap.toString());
            // then: the shipped connector fails, also after a restart, and seams slot names the slot; the twin runs on a new slot without the gap
            ConnectWorker.TaskStatus shipped = awaitOutcome(connect, slots, RunNames.CONNECTOR, slot, e, "shipped");
            e.check("shipped_task_failed_position_not_available", "FAILED".equals(shipped.state())
                    && shipped.trace().contains(NO_LONGER_AVAILABLE) ? 1 : 0).isEqualTo(1, "the shipped connector's task fails, "
                    + "also after a restart, because the position of its offsets is not on the server (\"" + NO_LONGER_AVAILABLE
                    + "\"): stopped, not streaming on from a new slot");
            e.figure("shipped_task_trace_names_the_slot", shipped.trace().contains(slot));
            e.check("seams_slot_exit_status_once_dropped", slotCommand(s, slot)).isEqualTo(ExitStatus.SLOT_LOST,
                    "seams slot --slot " + slot + " names the dropped slot lost (it does not exist), exit status 8: Debezium's "
                            + "reason says the position is gone, not which slot");
            ConnectWorker.TaskStatus twin = awaitOutcome(connect, slots, TWIN_CONNECTOR, TWIN_SLOT, e, "twin");
            e.negativeControl("twin_gap_orders_lost", twinLost(s, pg, gap, "RUNNING".equals(twin.state())), Anomaly.LOST,
                    "the twin (offset.mismatch.strategy=trust_slot: no log position check) runs on a new slot: the orders "
                            + "inserted while no slot existed never reach its topic " + ConnectorTwin.events(TWIN_SLOT));
            recover(e, s, drop::heal, gap, MARKER_CUSTOMER);
        } finally {
            if (!"RUNNING".equals(connect.taskStatus(RunNames.CONNECTOR).state())) {
                drop.heal();   // the stand's connector serving again, whatever happened above
                reconcile(s);
            }
            connect.delete(TWIN_CONNECTOR);
            slots.dropWithPublication(TWIN_SLOT);
        }
        s.settle();
    }

    @Test
    @Claim(id = "B14", variant = "slot invalidated", title = "A slot invalidated while Connect is down is named lost; the recovery loses nothing",
            exercises = {"cli/SlotCommand", "slot/SlotHealth", "faults/SlotRecovery", "cli/ReconcileCommand",
                "containers/debezium/orders-connector.json"})
    void b14SlotInvalidated(ClaimEvidence e, StandContext s) {
        // given: this claim's orders in the pipeline, and seams slot saying the streaming slot is healthy
        Stand stand = s.stand();
        Pg pg = s.pg();
        ConnectWorker connect = new ConnectWorker(stand.connect());
        ReplicationSlots slots = new ReplicationSlots(stand::pg);
        String slot = stand.connectorConfig().get("slot.name");
        List<Long> before = new ArrayList<>();
        for (int i = 0; i < ORDERS_BEFORE; i++) {
            before.add(pg.insertOrder(INVALIDATED_FIRST_CUSTOMER + i % CUSTOMERS, BigDecimal.valueOf(700 + i * 11L, 2)));
        }
        s.settle();
        e.check("seams_slot_exit_status_while_streaming", slotCommand(s, slot)).isEqualTo(ExitStatus.OK,
                "seams slot reports the streaming slot healthy: the detector does not fire on a healthy slot");
        // when: Connect down, the server's max_slot_wal_keep_size small, orders changed and WAL written past it
        Map<TopicPartition, Long> start = s.topics().endOffsets(RunNames.ORDERS_EVENTS);
        Fault down = ContainerFaults.stop("connect-down", stand.control("connect"), Duration.ZERO, () -> answers(connect));
        Fault.Proof proof = down.inject();
        try {
            Gap gap;
            try {
                e.figure("connect_down_proof", proof.evidence());
                if (!proof.tookEffect()) {
                    throw new FaultNotObservedException(proof.evidence());
                }
                pg.execute("ALTER SYSTEM SET max_slot_wal_keep_size = '" + MAX_SLOT_WAL_KEEP_SIZE + "'");
                pg.longs("SELECT 1 FROM pg_reload_conf()");
                gap = writeGap(pg, before, INVALIDATED_FIRST_CUSTOMER);
                e.figure("gap", gap.toString());
                e.figure("wal_written_mib", UncapturedWrites.write(pg, WAL_BATCHES, WAL_ROWS) >> 20);
                e.figure("wal_status", awaitLost(pg, slots, slot));
            } finally {
                down.heal();
            }
            // then: whatever the connector reports, seams slot names the slot lost
            e.figure("connector_task_after_restart", observe(connect, RunNames.CONNECTOR, Duration.ofSeconds(30)));
            e.check("seams_slot_exit_status_once_lost", slotCommand(s, slot)).isEqualTo(ExitStatus.SLOT_LOST,
                    "seams slot names the invalidated slot lost (wal_status lost), exit status 8: what a monitor alerts on");
            Set<Long> streamed = new HashSet<>(OrderEvents.orderIds(OrderEvents.read(s.topics(), start)));
            e.figure("gap_inserts_in_orders_events_before_recovery", gap.inserted().stream().filter(streamed::contains).count());
            recover(e, s, () -> SlotRecovery.resnapshot(connect, slots, RunNames.CONNECTOR, slot), gap,
                    INVALIDATED_FIRST_CUSTOMER + CUSTOMERS + 1);
        } finally {
            // the server's bound restored and the stand's slot serving again, whatever happened above
            pg.execute("ALTER SYSTEM RESET max_slot_wal_keep_size");
            pg.longs("SELECT 1 FROM pg_reload_conf()");
            UncapturedWrites.drop(pg);
            boolean lost = slots.find(slot).map(sl -> "lost".equals(sl.walStatus())).orElse(true);
            if (lost || !"RUNNING".equals(connect.taskStatus(RunNames.CONNECTOR).state())) {
                SlotRecovery.resnapshot(connect, slots, RunNames.CONNECTOR, slot);
                reconcile(s);
            }
        }
        s.settle();
    }

    /** @return {@code seams reconcile}'s exit status against the stand */
    private static int reconcile(StandContext s) {
        return SeamsCli.commandLine().execute("reconcile", "--bootstrap-servers", s.stand().bootstrapServers(),
                "--jdbc-url", s.stand().sourceJdbcUrl(), "--user", s.stand().pgUser(), "--password", s.stand().pgPassword());
    }

    /** @return {@code seams slot}'s exit status for the source's slot */
    private static int slotCommand(StandContext s, String slot) {
        return SeamsCli.commandLine().execute("slot", "--jdbc-url", s.stand().sourceJdbcUrl(), "--user", s.stand().pgUser(),
                "--password", s.stand().pgPassword(), "--slot", slot);
    }

    /** Checkpoints until PostgreSQL has invalidated the slot; @return its wal_status then */
    private static String awaitLost(Pg pg, ReplicationSlots slots, String slot) {
        try {
            await("slot " + slot + " invalidated (wal_status lost)").atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofSeconds(2))
                    .until(() -> {
                        pg.execute("CHECKPOINT");
                        return slots.find(slot).map(sl -> "lost".equals(sl.walStatus())).orElse(false);
                    });
            return "lost";
        } catch (ConditionTimeoutException notYet) {
            String status = slots.find(slot).map(ReplicationSlots.Slot::walStatus).orElse("absent");
            throw new FaultNotObservedException("the slot was not invalidated: wal_status " + status);
        }
    }

    /** @return the task's states over {@code span} after Connect started again, in order, repeats removed */
    private static String observe(ConnectWorker connect, String connector, Duration span) {
        List<String> seen = new ArrayList<>();
        long end = System.nanoTime() + span.toNanos();
        await("the connector observed for " + span.toSeconds() + " s").atMost(span.plusSeconds(30)).pollInterval(Duration.ofSeconds(1))
                .until(() -> {
                    try {
                        ConnectWorker.TaskStatus status = connect.taskStatus(connector);
                        String state = status.state() + (status.reason().isEmpty() ? "" : " (" + status.shortReason() + ")");
                        if (seen.isEmpty() || !seen.get(seen.size() - 1).equals(state)) {
                            seen.add(state);
                        }
                    } catch (RuntimeException notAnswering) {
                        // Connect still starting
                    }
                    return System.nanoTime() > end;
                });
        return String.join(" → ", seen);
    }

    private static boolean answers(ConnectWorker connect) {
        try {
            connect.get("/connectors");
            return true;
        } catch (RuntimeException e) {
            return false;
        }
    }

    /**
     * The documented recovery: {@link SlotDrop#heal()} (offsets deleted, a new slot, a re-snapshot), then
     * {@code seams reconcile}. Before the reconcile, once ds-streams has read the snapshot, the customers whose orders
     * were deleted in the gap still count them (the negative control of the reconcile); after it, ds-streams and FINAL
     * equal PostgreSQL.
     */
    private static void recover(ClaimEvidence e, StandContext s, Runnable heal, Gap gap, int markerCustomer) {
        Map<TopicPartition, Long> start = s.topics().endOffsets(RunNames.ORDERS_EVENTS);
        heal.run();
        long marker = s.pg().insertOrder(markerCustomer, new BigDecimal("1.00"));   // written after the snapshot began
        await("the re-snapshot and the marker order in orders.events").atMost(Duration.ofMinutes(5)).pollInterval(Duration.ofSeconds(1))
                .until(() -> OrderEvents.orderIds(OrderEvents.read(s.topics(), start)).contains(marker));
        List<OrderEvents.Event> events = OrderEvents.read(s.topics(), start);
        e.figure("resnapshot_reads", OrderEvents.orderIds(events, Set.of("r")).size());
        Set<Long> resent = new HashSet<>(OrderEvents.orderIds(events));
        e.check("gap_orders_missing_after_the_resnapshot", gap.inserted().stream().filter(id -> !resent.contains(id)).count())
                .isZero("every order inserted while the slot was gone is in the re-snapshot");
        Pipeline.Settle resnapshotOnly = s.drain();
        e.figure("ds_streams_after_the_resnapshot_alone", resnapshotOnly.detail());
        Reconciliation stale = Reconciliation.customers(s.pg().truth(), s.topics().latestTotals());
        e.negativeControl("customers_stale_after_the_resnapshot_alone", stale.differences().size(), Anomaly.STALE,
                "the re-snapshot without seams reconcile: customers still counting the orders deleted while the slot was gone");
        e.check("reconcile_exit_status", reconcile(s)).isEqualTo(0, "seams reconcile wrote its deletes");
        long reconciled = s.topics().recordsSince(RunNames.ORDERS_EVENTS, "read_committed", start).stream()
                .filter(r -> r.headers().lastHeader(MissingOrders.ORIGIN_HEADER) != null)
                .map(r -> OrderEvent.ofValue(r.value()).orderId()).filter(gap.deleted()::contains).count();
        e.check("gap_deletes_reconciled", reconciled).isEqualTo((long) gap.deleted().size(),
                "one delete from seams reconcile for each order deleted while the slot was gone");
        s.settle();
        FinalFromStart.record(e, s, "PostgreSQL vs customer_totals FINAL after the recovery");
    }

    /**
     * What was written while no slot existed.
     *
     * @param inserted new orders
     * @param updated  orders of before whose amount changed, half of them moved to another customer
     * @param deleted  orders of before deleted
     */
    record Gap(List<Long> inserted, List<Long> updated, List<Long> deleted) {

        @Override
        public String toString() {
            return inserted.size() + " orders inserted, " + updated.size() + " updated (half moved to another customer), "
                    + deleted.size() + " deleted";
        }
    }

    /** Writes the gap's changes for the customers {@code first}..{@code first + 3}, moving orders to {@code first + 4}. */
    private static Gap writeGap(Pg pg, List<Long> before, int first) {
        List<Long> inserted = new ArrayList<>();
        for (int i = 0; i < ORDERS_IN_GAP; i++) {
            inserted.add(pg.insertOrder(first + i % CUSTOMERS, BigDecimal.valueOf(2000 + i * 7L, 2)));
        }
        List<Long> updated = before.subList(0, 8);
        for (int i = 0; i < updated.size(); i++) {
            pg.execute("UPDATE orders SET amount = amount + 1.11" + (i % 2 == 0 ? ", customer_id = " + (first + CUSTOMERS) : "")
                    + " WHERE order_id = " + updated.get(i));
        }
        List<Long> deleted = before.subList(8, 14);
        pg.execute("DELETE FROM orders WHERE order_id IN (" + String.join(",", deleted.stream().map(String::valueOf).toList()) + ")");
        return new Gap(List.copyOf(inserted), List.copyOf(updated), List.copyOf(deleted));
    }

    /**
     * Waits until the connector either runs on a slot again or has failed; a failed task is restarted once, as an
     * operator or a supervisor's automatic restart would, and must then fail again (what it does on every start).
     */
    private static ConnectWorker.TaskStatus awaitOutcome(ConnectWorker connect, ReplicationSlots slots, String connector,
                                                         String slot, ClaimEvidence e, String who) {
        int[] restarts = new int[1];
        long[] restartedAt = new long[1];
        List<String> seen = new ArrayList<>();
        try {
            ConnectWorker.TaskStatus outcome = await(connector + " failed on, or running on, a slot " + slot).atMost(SETTLES_WITHIN)
                    .pollInterval(Duration.ofMillis(500))
                    .until(() -> {
                        ConnectWorker.TaskStatus status = connect.taskStatus(connector);
                        Optional<ReplicationSlots.Slot> now = slots.find(slot);
                        String state = status.state() + (status.reason().isEmpty() ? "" : " (" + status.shortReason() + ")")
                                + ", slot " + now.map(sl -> sl.active() ? "active" : "inactive").orElse("absent");
                        if (seen.isEmpty() || !seen.get(seen.size() - 1).equals(state)) {
                            seen.add(state);
                        }
                        if ("FAILED".equals(status.state()) && restarts[0] == 0) {
                            restarts[0]++;
                            restartedAt[0] = System.nanoTime();
                            connect.restartFailed(connector);
                            return null;
                        }
                        boolean failedAgain = "FAILED".equals(status.state())
                                && System.nanoTime() - restartedAt[0] > AFTER_RESTART.toNanos();
                        boolean running = "RUNNING".equals(status.state()) && now.map(ReplicationSlots.Slot::active).orElse(false);
                        return failedAgain || running ? status : null;
                    }, java.util.Objects::nonNull);
            e.figure(who + "_task", outcome.state() + (outcome.reason().isEmpty() ? "" : ": " + outcome.shortReason()));
            return outcome;
        } finally {
            e.figure(who + "_states_after_the_drop", String.join(" → ", seen));
            e.figure(who + "_task_restarts_after_the_drop", restarts[0]);
        }
    }

    /**
     * @return the gap's inserted orders absent from the twin's topic once an order written after its restart is there;
     *     0 if the twin is not running (it then loses nothing silently)
     */
    private static long twinLost(StandContext s, Pg pg, Gap gap, boolean running) {
        if (!running) {
            return 0;
        }
        long marker = pg.insertOrder(MARKER_CUSTOMER, new BigDecimal("0.50"));
        Set<Long> seen = new HashSet<>();
        String topic = ConnectorTwin.events(TWIN_SLOT);
        await("the twin's marker order in " + topic).atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofMillis(500))
                .ignoreExceptions().until(() -> {
                    s.topics().readFrom(topic, "read_committed", Map.of(), r -> {
                        OrderEvent event = OrderEvent.ofValue(r.value());
                        if (event != null) {
                            seen.add(event.orderId());
                        }
                    });
                    return seen.contains(marker);
                });
        pg.execute("DELETE FROM orders WHERE order_id = " + marker);
        return gap.inserted().stream().filter(id -> !seen.contains(id)).count();
    }
}
