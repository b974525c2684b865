package dev.seams.faults;

import static org.awaitility.Awaitility.await;

import dev.seams.check.KeyCounts;
import dev.seams.fixture.StandContext;
import dev.seams.report.Anomaly;
import dev.seams.report.ClaimEvidence;
import dev.seams.report.FaultNotObservedException;
import dev.seams.seed.OrderSeeder;
import dev.seams.stand.ConnectWorker;
import dev.seams.stand.ConnectorTwin;
import dev.seams.stand.Stand;
import dev.seams.truth.OrderEvents.Event;
import dev.seams.truth.OrderEvents;
import dev.seams.truth.Pg;
import dev.seams.truth.ReplicationSlots;
import dev.seams.truth.RunNames;
import dev.seams.truth.Topics;
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

    /** Debezium's operation of a snapshot read. */
    private static final String SNAPSHOT_READ = "r";
    /** How long orders.events must not grow to count as quiet, ms. */
    private static final long QUIET_MS = 2_000;

    private SnapshotFault() {
    }

    /**
     * The snapshot's batch sizes where a claim sets them (B3's kill: little in flight), the one deviation of the second
     * connector from the shipped configuration besides its name, slot, publication, topic and row filter: Debezium's {@code max.batch.size} and {@code snapshot.fetch.size}
     * (rows the driver fetches at a time) set to {@code batch}, {@code max.queue.size} to twice that, {@code
     * poll.interval.ms} to {@code pauseMs}. Smaller batches than Debezium's defaults (2,048 and 10,240) leave less in
     * flight inside Connect when the fault strikes; they slow the snapshot little (Debezium waits {@code
     * poll.interval.ms} only when its queue holds less than a batch), so where the fault lands is measured ({@code
     * snapshot_records_at_fault}) and checked to be mid-snapshot, not assumed.
     *
     * @param batch   rows per batch and per fetch
     * @param pauseMs Debezium's poll interval, ms
     */
    public record Pace(int batch, int pauseMs) {
    }

    /**
     * What the run did, for {@link #record}.
     *
     * @param ids             the orders snapshotted
     * @param start           the end offsets of {@code orders.events} before the snapshot
     * @param atFault         the end offsets of {@code orders.events} once the fault took effect
     * @param recordsAtFault  records in the topic since {@code start} once the fault took effect
     * @param proof           the fault's proof
     */
    public record Run(Set<Long> ids, Map<TopicPartition, Long> start, Map<TopicPartition, Long> atFault, long recordsAtFault,
                      Fault.Proof proof) {
    }

    /**
     * Seeds PostgreSQL up to {@code orders} orders if it holds fewer, runs the snapshot of the newest {@code orders} with
     * the fault in the middle, heals it and waits (up to 10 min) until every order was sent again.
     *
     * @param e         the claim's evidence: figures {@code orders_in_snapshot}, {@code orders_in_pg}, {@code
     *                  snapshot_filter}, {@code fault_proof}, {@code snapshot_records_at_fault} and, for a fault held a
     *                  while, {@code snapshot_records_while_held}
     * @param s         the stand
     * @param orders    how many orders the snapshot reads, the newest of PG
     * @param customers customers of the orders seeded first
     * @param pace      the snapshot's pace
     * @param fault     the fault; its {@link Fault#hold()} is waited between inject and heal
     * @return the run
     * @throws FaultNotObservedException if the fault's proof failed, the snapshot had ended when it struck, or (a fault
     *                                   held a while) every row was in the topic by the heal: then it interrupted nothing
     */
    public static Run run(ClaimEvidence e, StandContext s, int orders, int customers, Pace pace, Fault fault) {
        return snapshot(e, s, orders, customers, pace, fault);
    }

    /**
     * {@link #run(ClaimEvidence, StandContext, int, int, Pace, Fault)} with the shipped connector's own batch sizes and
     * poll interval: the second connector differs from the shipped one only in its names and the snapshot's row filter
     * (claim B17), each difference a row of the figure {@code connector_overrides}.
     */
    public static Run run(ClaimEvidence e, StandContext s, int orders, int customers, Fault fault) {
        return snapshot(e, s, orders, customers, null, fault);
    }

    private static Run snapshot(ClaimEvidence e, StandContext s, int orders, int customers, Pace pace, Fault fault) {
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
        Map<TopicPartition, Long> start = topics.endOffsets(RunNames.ORDERS_EVENTS);
        String suffix = Long.toString(System.currentTimeMillis(), 36);
        String name = "seams-snapshot-" + suffix;
        String slot = "seams_snapshot_" + suffix;
        Map<String, String> config = connector(stand, slot, firstId, pace);
        e.figure("connector_overrides", ConnectorTwin.overrides(stand.connectorConfig(), config));
        connect.register(name, config);
        long recordsAtFault;
        long whileHeld = 0;
        Map<TopicPartition, Long> atFault;
        Fault.Proof proof = null;
        RuntimeException failed = null;
        try {
            await("snapshot in progress").atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(50))
                    .until(() -> topics.totalEndOffset(RunNames.ORDERS_EVENTS) - sum(start) >= n / 3);
            try {
                proof = fault.inject();
                atFault = topics.endOffsets(RunNames.ORDERS_EVENTS);
                recordsAtFault = e.figure("snapshot_records_at_fault", sum(atFault) - sum(start));
                if (!fault.hold().isZero()) {
                    fault.holdOn();
                    // what Connect still held (Debezium's queue, the producer, the driver's fetch) drains while held
                    whileHeld = e.figure("snapshot_records_while_held", topics.totalEndOffset(RunNames.ORDERS_EVENTS) - sum(atFault));
                }
            } finally {
                fault.heal();   // whatever happened: the rest of the tier needs the target back
            }
            e.figure("fault_proof", proof.evidence());
            proof.measured().forEach(e::figure);
            if (!proof.tookEffect()) {
                throw new FaultNotObservedException(fault.name() + " did not take effect: " + proof.evidence());
            }
            if (recordsAtFault >= n) {
                throw new FaultNotObservedException("the fault did not land mid-snapshot: " + recordsAtFault + " of " + n
                        + " rows were already snapshotted");
            }
            if (recordsAtFault + whileHeld >= n) {
                throw new FaultNotObservedException("every row reached the topic while the fault was held (" + recordsAtFault
                        + " at the fault, " + whileHeld + " while held, of " + n + "): it interrupted nothing");
            }
            connect.awaitTaskRunning(name);
            // reads from the snapshot's start: whether the snapshot began again or went on is recorded by record(), not a
            // condition of the wait; record() waits until orders.events is quiet before it counts
            await("the snapshot read every order").atMost(Duration.ofMinutes(10)).pollInterval(Duration.ofMillis(500))
                    .until(() -> new HashSet<>(OrderEvents.orderIds(OrderEvents.read(topics, start), Set.of(SNAPSHOT_READ)))
                            .containsAll(ids));
        } catch (RuntimeException ex) {
            failed = ex;
            throw ex;
        } finally {
            cleanUp(failed, () -> {
                if (!connect.isRunning()) {
                    connect.restart(RunNames.CONNECTOR);
                }
            });
            cleanUp(failed, () -> connect.delete(name));
            cleanUp(failed, () -> new ReplicationSlots(stand::pg).dropWithPublication(slot));
        }
        return new Run(ids, start, atFault, recordsAtFault, proof);
    }

    /**
     * Runs the pipeline over the snapshot and records the claim's verdict: {@code orders_missing_from_snapshot} zero (every
     * order has a snapshot read, {@code __op} {@code r}), {@code order_counts_raw} counting every event since the
     * snapshot began, {@code order_dedup FINAL} = PG per order and {@code customer_totals FINAL} = PG per customer.
     * Negative control {@code snapshot_events_redelivered}: the snapshot's reads of orders the topic already carried (every
     * one, as the second connector re-reads what the shipped one sent), the duplicates the per-order and per-customer
     * comparisons are there to absorb. Figures {@code snapshot_reads_before_fault}, {@code
     * snapshot_rows_not_sent_again_after_fault} (0: the snapshot began again from its first row). {@code
     * snapshot_rows_sent_before_and_after_fault} (rows the snapshot sent twice) is a negative control where the fault
     * must make the snapshot begin again, else a figure.
     *
     * @param e        the claim's evidence
     * @param s        the stand
     * @param run      what {@link #run} did
     * @param restarts whether the fault must make the snapshot begin again (a kill of Connect, a restart of PostgreSQL:
     *                 Debezium keeps no position inside a snapshot); else (a network cut, which a TCP connection may
     *                 outlive) whether it did is a figure
     */
    public static void record(ClaimEvidence e, StandContext s, Run run, boolean restarts) {
        Topics topics = s.topics();
        awaitQuiet(topics);
        s.settle();
        Set<Long> history = new HashSet<>();
        List<Event> since = new ArrayList<>();
        Set<Long> readBefore = new HashSet<>();
        Set<Long> readAfter = new HashSet<>();
        for (Event ev : OrderEvents.read(topics, Map.of())) {
            TopicPartition tp = new TopicPartition(RunNames.ORDERS_EVENTS, ev.partition());
            if (ev.offset() < run.start().get(tp)) {
                if (ev.carriesOrder()) {
                    history.add(ev.orderId());
                }
                continue;
            }
            since.add(ev);
            if (SNAPSHOT_READ.equals(ev.op()) && ev.carriesOrder()) {
                (ev.offset() < run.atFault().get(tp) ? readBefore : readAfter).add(ev.orderId());
            }
        }
        List<Long> reads = OrderEvents.orderIds(since, Set.of(SNAPSHOT_READ));
        KeyCounts<Long> perOrder = KeyCounts.of(run.ids(), reads);
        long delivered = since.stream().filter(Event::carriesOrder).count();
        e.figure("events_since_snapshot_start", delivered);
        e.figure("snapshot_reads", reads.size());
        e.negativeControl("snapshot_events_redelivered", reads.stream().filter(history::contains).count(), Anomaly.DUPLICATE,
                "snapshot reads of orders orders.events already carried: each reaches the pipeline twice, and a consumer "
                        + "that counts events (order_counts_raw read from the topic's start) counts it twice");
        e.figure("snapshot_reads_before_fault", readBefore.size());
        Set<Long> notAgain = new HashSet<>(readBefore);
        notAgain.removeAll(readAfter);
        e.figure("snapshot_rows_not_sent_again_after_fault", notAgain.size());
        Set<Long> twice = new HashSet<>(readBefore);
        twice.retainAll(readAfter);
        if (restarts) {
            e.negativeControl("snapshot_rows_sent_before_and_after_fault", twice.size(), Anomaly.DUPLICATE,
                    "orders the snapshot read both before and after the fault: the restarted snapshot sent them again, and "
                            + "order_counts_raw counts each of them twice");
        } else {
            e.figure("snapshot_rows_sent_before_and_after_fault", twice.size());
        }
        e.check("orders_missing_from_snapshot", perOrder.missing()).isZero("every PG order_id has a snapshot read");

        FinalParity.record(e, s, run.start(), delivered, run.ids());
        e.note("A second connector (own slot and publication, snapshot.mode=initial, snapshot.select.statement.overrides to the "
                + "newest orders) snapshotted " + run.ids().size() + " orders of PG into orders.events, which already carried them: "
                + "an upstream redelivery of each of them. " + run.proof().evidence() + " once " + run.recordsAtFault()
                + " records were in the topic; " + (twice.isEmpty() ? "the snapshot went on where it was: no row was read twice"
                        : twice.size() + " rows were read before the fault and again after it (" + notAgain.size()
                        + " read before it were not read again)") + ". ds-streams aggregated every event and the sink wrote both "
                + "modes (totals and dedup-demo): compare each order in order_dedup FINAL and each customer in customer_totals "
                + "FINAL with PG above.");
    }

    /** The shipped connector's configuration as a twin snapshotting the orders from {@code firstId} on into orders.events. */
    private static Map<String, String> connector(Stand stand, String slot, long firstId, Pace pace) {
        Map<String, String> config = ConnectorTwin.of(stand.connectorConfig(), slot);
        config.put("snapshot.mode", "initial");
        config.put("transforms.route.replacement", RunNames.ORDERS_EVENTS);
        config.put("snapshot.select.statement.overrides", "public.orders");
        config.put("snapshot.select.statement.overrides.public.orders", "SELECT * FROM public.orders WHERE order_id >= " + firstId);
        if (pace != null) {
            config.put("max.batch.size", Integer.toString(pace.batch()));
            config.put("max.queue.size", Integer.toString(2 * pace.batch()));
            config.put("poll.interval.ms", Integer.toString(pace.pauseMs()));
            config.put("snapshot.fetch.size", Integer.toString(pace.batch()));
        }
        return config;
    }

    /** Waits until orders.events stops growing: nothing written for {@value #QUIET_MS} ms. */
    public static void awaitQuiet(Topics topics) {
        AtomicLong last = new AtomicLong(-1);
        AtomicLong since = new AtomicLong(System.nanoTime());
        await("orders.events quiet").atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(250)).until(() -> {
            long now = topics.totalEndOffset(RunNames.ORDERS_EVENTS);
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
