package dev.seams.faults;

import static org.awaitility.Awaitility.await;

import dev.seams.check.FinalParity;
import dev.seams.report.Anomaly;
import dev.seams.report.ClaimEvidence;
import dev.seams.report.FaultNotObservedException;
import dev.seams.seed.OrderSeeder;
import dev.seams.stand.ConnectWorker;
import dev.seams.stand.ConnectorTwin;
import dev.seams.stand.KeyCounts;
import dev.seams.stand.Pg;
import dev.seams.stand.Stand;
import dev.seams.stand.StandContext;
import dev.seams.stand.Topics;
import dev.seams.truth.OrderEvents;
import dev.seams.truth.OrderEvents.Event;
import dev.seams.truth.ReplicationSlots;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.common.TopicPartition;

/**
 * A fault in the middle of Debezium's initial snapshot (claims B3 "connect kill -9 during snapshot" and B17
 * "restarts during the snapshot"). A second connector from the shipped configuration ({@link ConnectorTwin}: its own
 * slot and publication, {@code snapshot.mode=initial}) snapshots the newest orders of PostgreSQL into
 * {@code orders.events}, which already carried them: every snapshot event is an upstream redelivery. The fault strikes
 * once a third of the rows are in the topic and is healed at once; the run waits until the snapshot, started again,
 * sent every order. Then the real pipeline carries it all: ds-streams aggregates every event, the sink writes both modes,
 * and {@link #record} compares each order of {@code order_dedup FINAL} and each customer of {@code customer_totals FINAL}
 * with PostgreSQL.
 */
public final class SnapshotFault {

    /** How long orders.events must not grow to count as quiet, ms. */
    private static final long QUIET_MS = 2_000;

    private SnapshotFault() {
    }

    /**
     * How the snapshot is paced: Debezium's batch of rows per poll ({@code max.batch.size}, {@code snapshot.fetch.size}),
     * a pause of {@code poll.interval.ms} after each: about {@code batch * 1000 / pauseMs} rows a second at most, so the
     * fault lands in the middle.
     *
     * @param batch   rows per batch
     * @param pauseMs ms between batches
     */
    public record Pace(int batch, int pauseMs) {
    }

    /**
     * What the run did, for {@link #record}.
     *
     * @param ids                 the orders snapshotted
     * @param start               the end offsets of {@code orders.events} before the snapshot
     * @param recordsBeforeFault  snapshot records in the topic when the fault struck
     * @param proof               the fault's proof
     */
    public record Run(Set<Long> ids, Map<TopicPartition, Long> start, long recordsBeforeFault, Fault.Proof proof) {
    }

    /**
     * Seeds PostgreSQL up to {@code orders} orders if it holds fewer, runs the snapshot of the newest {@code orders} with
     * the fault in the middle, heals it and waits (up to 10 min) until every order was sent again.
     *
     * @param e         the claim's evidence: figures {@code orders_in_snapshot}, {@code orders_in_pg}, {@code
     *                  snapshot_filter}, {@code fault_proof}, {@code snapshot_records_before_fault}, {@code snapshot_records_while_held}
     * @param s         the stand
     * @param orders    how many orders the snapshot reads, the newest of PG
     * @param customers customers of the orders seeded first
     * @param pace      the snapshot's pace
     * @param fault     the fault; its {@link Fault#hold()} is waited between inject and heal
     * @return the run
     * @throws FaultNotObservedException if the fault's proof failed or the snapshot had ended when it struck
     */
    public static Run run(ClaimEvidence e, StandContext s, int orders, int customers, Pace pace, Fault fault) {
        Stand stand = s.stand();
        Topics topics = s.topics();
        ConnectWorker connect = new ConnectWorker(stand.connect());
        long existing = Pg.count(s.pg().truth());
        if (existing < orders) {
            s.pg().seed((int) (orders - existing), customers, 80_000);
        }
        s.settle();
        // the snapshot reads the newest orders only (snapshot.select.statement.overrides), so its length does not grow
        // with what other claims left in PG
        NavigableMap<Long, OrderSeeder.Order> pgOrders = s.pg().orders();
        long firstId = pgOrders.descendingKeySet().stream().skip(orders - 1).findFirst().orElse(pgOrders.firstKey());
        Set<Long> ids = Set.copyOf(pgOrders.tailMap(firstId, true).keySet());
        int n = e.figure("orders_in_snapshot", ids.size());
        e.figure("orders_in_pg", pgOrders.size());
        e.figure("snapshot_filter", "order_id >= " + firstId);
        Map<TopicPartition, Long> start = topics.endOffsets(Stand.ORDERS_EVENTS);
        String suffix = Long.toString(System.currentTimeMillis(), 36);
        String name = "seams-snapshot-" + suffix;
        String slot = "seams_snapshot_" + suffix;
        connect.register(name, connector(stand, slot, firstId, pace));
        long recordsBeforeFault;
        Fault.Proof proof = null;
        RuntimeException failed = null;
        try {
            await("snapshot in progress").atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(50))
                    .until(() -> topics.totalEndOffset(Stand.ORDERS_EVENTS) - sum(start) >= n / 3);
            try {
                proof = fault.inject();
                Map<TopicPartition, Long> atFault = topics.endOffsets(Stand.ORDERS_EVENTS);
                recordsBeforeFault = e.figure("snapshot_records_before_fault", sum(atFault) - sum(start));
                fault.holdOn();
                // a fault that stops the snapshot leaves at most Debezium's queue and one fetch to drain while held
                e.figure("snapshot_records_while_held", topics.totalEndOffset(Stand.ORDERS_EVENTS) - sum(atFault));
            } finally {
                fault.heal();   // whatever happened: the rest of the tier needs the target back
            }
            e.figure("fault_proof", proof.evidence());
            proof.measured().forEach(e::figure);
            if (!proof.tookEffect()) {
                throw new FaultNotObservedException(fault.name() + " did not take effect: " + proof.evidence());
            }
            if (recordsBeforeFault >= n) {
                throw new FaultNotObservedException("the fault did not land mid-snapshot: " + recordsBeforeFault + " of " + n
                        + " rows were already snapshotted");
            }
            connect.awaitTaskRunning(name);
            // from the snapshot's start: whether the snapshot began again or went on is the figure
            // snapshot_rows_resent_after_fault, not a condition of the wait
            await("the snapshot sent every order").atMost(Duration.ofMinutes(10)).pollInterval(Duration.ofMillis(500))
                    .until(() -> new HashSet<>(OrderEvents.orderIds(OrderEvents.read(topics, start))).containsAll(ids));
        } catch (RuntimeException ex) {
            failed = ex;
            throw ex;
        } finally {
            cleanUp(failed, () -> {
                if (!connect.isRunning()) {
                    connect.restart(Stand.CONNECTOR);
                }
            });
            cleanUp(failed, () -> connect.delete(name));
            cleanUp(failed, () -> new ReplicationSlots(stand::pg).dropWithPublication(slot));
        }
        return new Run(ids, start, recordsBeforeFault, proof);
    }

    /**
     * Runs the pipeline over the snapshot and records the claim's verdict: {@code orders_missing_from_snapshot} zero,
     * {@code order_counts_raw} counting every snapshot event, {@code order_dedup FINAL} = PG per order and {@code
     * customer_totals FINAL} = PG per customer; negative controls {@code snapshot_events_redelivered} (the snapshot's
     * events of orders the topic already carried) and {@code snapshot_rows_resent_after_fault} (rows the snapshot sent
     * twice: the restart re-read them; a figure only, when the fault need not restart the snapshot).
     *
     * @param e   the claim's evidence
     * @param s   the stand
     * @param run      what {@link #run} did
     * @param restarts whether the fault must make the snapshot begin again (a kill, a restart of PostgreSQL): then
     *                 {@code snapshot_rows_resent_after_fault} is a negative control; else (a network cut, which a TCP
     *                 connection may outlive) a figure
     */
    public static void record(ClaimEvidence e, StandContext s, Run run, boolean restarts) {
        Topics topics = s.topics();
        awaitQuiet(topics);
        s.settle();
        List<Event> all = OrderEvents.read(topics, Map.of());
        Set<Long> history = new HashSet<>();
        List<Event> snapshot = new ArrayList<>();
        for (Event ev : all) {
            if (ev.offset() < run.start().get(new TopicPartition(Stand.ORDERS_EVENTS, ev.partition()))) {
                if (ev.carriesOrder()) {
                    history.add(ev.orderId());
                }
            } else {
                snapshot.add(ev);
            }
        }
        KeyCounts<Long> perOrder = KeyCounts.of(run.ids(), OrderEvents.orderIds(snapshot));
        long delivered = snapshot.stream().filter(Event::carriesOrder).count();
        e.figure("snapshot_events", delivered);
        e.negativeControl("snapshot_events_redelivered", snapshot.stream().filter(ev -> ev.carriesOrder() && history.contains(ev.orderId())).count(),
                Anomaly.DUPLICATE, "snapshot events of orders orders.events already carried: upstream redelivery into the real pipeline");
        if (restarts) {
            e.negativeControl("snapshot_rows_resent_after_fault", perOrder.excess(), Anomaly.DUPLICATE,
                    "order ids the snapshot sent more than once: the rows before the fault, sent again by the restarted snapshot");
        } else {
            e.figure("snapshot_rows_resent_after_fault", perOrder.excess());
        }
        e.check("orders_missing_from_snapshot", perOrder.missing()).isZero("every PG order_id has a snapshot event");

        FinalParity.record(e, s, run.start(), delivered, run.ids());
        e.note("A second connector (own slot and publication, snapshot.mode=initial, snapshot.select.statement.overrides to the "
                + "newest orders) snapshotted " + run.ids().size() + " orders of PG into orders.events, which already carried them: "
                + "an upstream redelivery of each of them. " + run.proof().evidence() + " after " + run.recordsBeforeFault()
                + " snapshot records; " + (perOrder.excess() > 0 ? "the snapshot began again, re-sending " + perOrder.excess() + " rows"
                        : "the snapshot went on where it was, re-sending no row") + ". ds-streams aggregated "
                + "every event and the sink wrote both modes (totals and dedup-demo): compare each order in order_dedup FINAL and "
                + "each customer in customer_totals FINAL with PG above.");
    }

    /** The shipped connector's configuration as a twin snapshotting the orders from {@code firstId} on into orders.events. */
    private static Map<String, String> connector(Stand stand, String slot, long firstId, Pace pace) {
        Map<String, String> config = ConnectorTwin.of(stand.connectorConfig(), slot);
        config.put("snapshot.mode", "initial");
        config.put("transforms.route.replacement", Stand.ORDERS_EVENTS);
        config.put("snapshot.select.statement.overrides", "public.orders");
        config.put("snapshot.select.statement.overrides.public.orders", "SELECT * FROM public.orders WHERE order_id >= " + firstId);
        config.put("max.batch.size", Integer.toString(pace.batch()));
        config.put("max.queue.size", Integer.toString(2 * pace.batch()));
        config.put("poll.interval.ms", Integer.toString(pace.pauseMs()));
        config.put("snapshot.fetch.size", Integer.toString(pace.batch()));
        return config;
    }

    /** Waits until orders.events stops growing: nothing written for {@value #QUIET_MS} ms. */
    public static void awaitQuiet(Topics topics) {
        AtomicLong last = new AtomicLong(-1);
        AtomicLong since = new AtomicLong(System.nanoTime());
        await("orders.events quiet").atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(250)).until(() -> {
            long now = topics.totalEndOffset(Stand.ORDERS_EVENTS);
            if (last.getAndSet(now) != now) {
                since.set(System.nanoTime());
            }
            return System.nanoTime() - since.get() >= QUIET_MS * 1_000_000L;
        });
    }

    /**
     * Runs a clean-up step; when the run already failed, the step's own failure is attached to it (the run's error is
     * what the report shows, e.g. a {@link FaultNotObservedException}'s UNVERIFIED), else thrown.
     */
    private static void cleanUp(RuntimeException failed, Runnable step) {
        try {
            step.run();
        } catch (RuntimeException ex) {
            if (failed == null) {
                throw ex;
            }
            failed.addSuppressed(ex);
        }
    }

    private static long sum(Map<TopicPartition, Long> offsets) {
        return offsets.values().stream().mapToLong(Long::longValue).sum();
    }
}
