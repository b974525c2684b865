package dev.seams.it;

import static org.awaitility.Awaitility.await;

import dev.seams.check.KeyCounts;
import dev.seams.faults.ContainerFaults;
import dev.seams.faults.Fault;
import dev.seams.faults.FaultSchedule.Shot;
import dev.seams.faults.FaultSchedule;
import dev.seams.faults.FinalParity;
import dev.seams.faults.SnapshotFault;
import dev.seams.fixture.StandContext;
import dev.seams.report.Anomaly;
import dev.seams.report.Claim;
import dev.seams.report.ClaimEvidence;
import dev.seams.stand.ConnectWorker;
import dev.seams.truth.ClickHouse;
import dev.seams.truth.OrderEvents.Event;
import dev.seams.truth.OrderEvents;
import dev.seams.truth.Pg;
import dev.seams.truth.RunNames;
import dev.seams.truth.Topics;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Kafka Connect (Debezium) is at-least-once: after kill -9 of the worker it re-delivers what it had
 * not flushed offsets for (source section "Композиция гарантий"). Claim B3: the per-order_id
 * aggregation of ds-streams and the dedup views absorb the redelivery — every order exactly once,
 * every customer equal to PG — while the raw count of events (the twin) shows the redelivered ones.
 * Both tests run the redelivered events through the real pipeline: {@code orders.events} →
 * ds-streams → {@code customer.totals} → sink → ClickHouse. In the fault tier: three kills under a 40 s load and a kill
 * mid-snapshot take about 75 s, which the default tier's budget has no room for; B3 itself (redelivered events, an
 * UPDATE and a DELETE) stays there ({@link RedeliveryIT}).
 */
@ExtendWith(StandContext.Resolver.class)
class ConnectFaultIT {

    /**
     * The load under the kills: 2,500 orders in batches of 100, one batch a second, so 10 s lie between the
     * kills at 10/50/90 % — time for the worker to start again (a few seconds) before the next point.
     */
    private static final int BATCHES = 25;
    private static final int BATCH_SIZE = 100;
    /** One batch every 1.6 s (the load takes 40 s): a killed worker streams again within the 16 s between kill points. */
    private static final long BATCH_PERIOD_MS = 1_600;
    private static final int CUSTOMERS = 5;
    /** Orders the mid-snapshot kill test snapshots: the newest ones of PG, seeded first if PG has fewer. */
    private static final int SNAPSHOT_ORDERS = 2_000;
    /** About 500 rows a second (batches of 50, a pause of 100 ms after each), so the kill lands in the middle of it. */
    private static final SnapshotFault.Pace SNAPSHOT_PACE = new SnapshotFault.Pace(50, 100);

    @AfterEach
    void connectRunsAgain() {
        ConnectWorker connect = new ConnectWorker(StandContext.running().connect());
        if (!connect.isRunning()) {
            connect.restart(RunNames.CONNECTOR);
        }
    }

    /** One kill of the worker: the orders PG had, orders.events' end offsets once the worker was dead, the kill's proof. */
    private record ConnectKill(int ordersInPg, Map<TopicPartition, Long> endAtKill, Fault.Proof proof) {
    }

    @Test
    @Claim(id = "B3", variant = "connect kill -9 under load", title = "Upstream redelivery does not double count: Connect killed under load",
            exercises = {"streams/TotalsTopology", "sink/DedupDemoMapper", "containers/debezium/orders-connector.json"})
    void b3ConnectKilledUnderLoad(ClaimEvidence e, StandContext s) {
        Topics topics = s.topics();
        s.settle();
        Map<TopicPartition, Long> start = topics.endOffsets(RunNames.ORDERS_EVENTS);
        Set<Long> seeded = ConcurrentHashMap.newKeySet();
        List<Shot<ConnectKill>> kills = loadWithKills(s, seeded);
        e.figure("orders_loaded", seeded.size());
        await("every seeded order reached orders.events").atMost(Duration.ofMinutes(5)).pollInterval(Duration.ofMillis(500))
                .until(() -> new HashSet<>(OrderEvents.orderIds(OrderEvents.read(topics, start))).containsAll(seeded));
        // from the load's start: a re-sent event repeats one of the load's (its LSN is in its bytes), never an older one
        List<Event> all = OrderEvents.read(topics, start);
        Map<TopicPartition, Long> end = topics.endOffsets(RunNames.ORDERS_EVENTS);

        for (int i = 0; i < kills.size(); i++) {
            Shot<ConnectKill> shot = kills.get(i);
            Map<TopicPartition, Long> next = i + 1 < kills.size() ? kills.get(i + 1).result().endAtKill() : end;
            ClaimEvidence part = e.part("connect kill -9 " + shot.label());
            part.figure("target", FaultSchedule.percent(shot.target()));
            part.figure("progress_at_kill", FaultSchedule.percent(shot.progress()));
            part.figure("orders_in_pg_at_kill", shot.result().ordersInPg());
            part.figure("events_of_the_load_at_kill", sum(shot.result().endAtKill()) - sum(start));
            part.figure("connect_kill", shot.result().proof().evidence());
            if (!shot.onPoint()) {
                part.unverified("the kill " + shot.offPoint());
            }
            if (!shot.result().proof().tookEffect()) {
                part.unverified("the Connect container's kill did not take effect: " + shot.result().proof().evidence());
            }
            part.negativeControl("redelivered_events", redelivered(all, shot.result().endAtKill(), next), Anomaly.DUPLICATE,
                    "events written after this kill (up to the next kill) that orders.events already held before it: Debezium re-sent them");
        }
        e.table("Connect kills (each its own entry B3[connect kill -9 @N%])", List.of("target", "orders in PG", "events of the load", "kill"),
                kills.stream().map(k -> List.<Object>of(FaultSchedule.percent(k.target()), k.result().ordersInPg(),
                        sum(k.result().endAtKill()) - sum(start), k.result().proof().evidence())).toList());

        KeyCounts<Long> deliveries = KeyCounts.of(seeded, OrderEvents.orderIds(all));
        long delivered = all.stream().filter(Event::carriesOrder).count();
        e.figure("events_since_load_start", delivered);
        e.negativeControl("redelivered_events", deliveries.excess(), Anomaly.DUPLICATE,
                "events of the load's orders beyond one per order_id: the redeliveries the pipeline must absorb");
        e.check("seeded_orders_missing_from_orders_events", deliveries.missing()).isZero("every seeded order_id has an event");

        FinalParity.record(e, s, start, delivered, seeded);
        e.note("Debezium re-sent " + deliveries.excess() + " events of the load after the kills (offsets it had not flushed); "
                + "order_counts_raw, which counts events, shows them; order_dedup FINAL and the per-order_id Streams "
                + "aggregation do not.");
    }

    /** Where the worker is killed, as a share of the load's batches. */
    private static final double[] KILL_POINTS = {0.1, 0.5, 0.9};

    /**
     * Seeds {@value #BATCHES} batches of {@value #BATCH_SIZE} orders, one every {@value #BATCH_PERIOD_MS} ms, and kills the
     * worker at 10/50/90 % of them, each kill once Debezium streams again after the one before. So that each kill lands on
     * its point on a slow machine too (FaultSchedule's ±5 points are two batches), the load holds still from the moment
     * a point is reached until the worker is dead, and while the worker starts again it goes on only up to the batch
     * before the next point: orders keep arriving while the worker is down, but a slow restart cannot carry the load past
     * the next point.
     */
    private static List<Shot<ConnectKill>> loadWithKills(StandContext s, Set<Long> seeded) {
        Fault kill = connectKill(s);
        Pg pg = s.pg();
        AtomicInteger done = new AtomicInteger();
        AtomicInteger allowed = new AtomicInteger(BATCHES);   // the batches the load may have seeded by now
        ScheduledExecutorService loader = Executors.newSingleThreadScheduledExecutor();
        try {
            loader.scheduleAtFixedRate(() -> {
                if (done.get() < allowed.get()) {
                    pg.seed(BATCH_SIZE, CUSTOMERS, 70_000 + done.get()).forEach(o -> seeded.add(o.orderId()));
                    done.incrementAndGet();
                }
            }, 0, BATCH_PERIOD_MS, TimeUnit.MILLISECONDS);
            List<Shot<ConnectKill>> kills = FaultSchedule.atProgress(() -> done.get() / (double) BATCHES, KILL_POINTS)
                    .pollEvery(Duration.ofMillis(100)).run(target -> {
                        allowed.set(done.get());   // the load holds still until the kill
                        // kill right after Debezium wrote new events: they are not yet in its flushed offsets (flushed every
                        // 5 s), so the restarted worker re-sends them; a kill in a quiet moment after a flush has nothing to re-send
                        long written = sum(s.topics().endOffsets(RunNames.ORDERS_EVENTS));
                        await("Debezium writing events").atMost(Duration.ofSeconds(30)).pollDelay(Duration.ZERO)
                                .pollInterval(Duration.ofMillis(50)).until(() -> sum(s.topics().endOffsets(RunNames.ORDERS_EVENTS)) > written);
                        int inPg = seeded.size();
                        Fault.Proof killed = kill.inject();
                        Map<TopicPartition, Long> endAtKill = s.topics().endOffsets(RunNames.ORDERS_EVENTS);
                        allowed.set(batchBefore(target));   // orders go on arriving while the worker is down, short of the next point
                        kill.heal();
                        // the task reports RUNNING seconds before Debezium streams again: the next kill waits for its
                        // first event, or it hits a worker that has nothing to re-send yet (redelivered 0: UNVERIFIED)
                        long before = sum(endAtKill);
                        await("Debezium streaming again after the kill").atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(200))
                                .until(() -> sum(s.topics().endOffsets(RunNames.ORDERS_EVENTS)) > before);
                        allowed.set(BATCHES);
                        return new ConnectKill(inPg, endAtKill, killed);
                    });
            await("the load is in PG").atMost(Duration.ofMinutes(5)).until(() -> done.get() == BATCHES);
            return kills;
        } finally {
            loader.shutdownNow();
        }
    }

    /** @return the last batch before the kill point after {@code target} (all of them after the last point) */
    private static int batchBefore(double target) {
        for (double point : KILL_POINTS) {
            if (point > target) {
                return (int) Math.ceil(point * BATCHES) - 1;
            }
        }
        return BATCHES;
    }

    @Test
    @Claim(id = "B3", variant = "connect kill -9 during snapshot", title = "Upstream redelivery does not double count: Connect killed mid-snapshot",
            exercises = {"streams/TotalsTopology", "sink/DedupDemoMapper", "sink/TotalsMapper", "containers/debezium/orders-connector.json"})
    void b3ConnectKilledDuringSnapshot(ClaimEvidence e, StandContext s) {
        SnapshotFault.record(e, s, SnapshotFault.run(e, s, SNAPSHOT_ORDERS, CUSTOMERS, SNAPSHOT_PACE, connectKill(s)), true);
    }

    /** SIGKILL of the Connect worker's container, healed by starting it again until the connector's task runs. */
    private static Fault connectKill(StandContext s) {
        ConnectWorker connect = new ConnectWorker(s.stand().connect());
        return ContainerFaults.kill("connect-kill", s.stand().control("connect"),
                () -> "RUNNING".equals(connect.taskStatus(RunNames.CONNECTOR).state()));
    }

    /**
     * Events written in [boundary, next) per partition whose bytes orders.events already held before
     * {@code boundary} (an order lives in one partition): what Debezium re-sent after the kill at {@code boundary}.
     */
    private static long redelivered(List<Event> all, Map<TopicPartition, Long> boundary, Map<TopicPartition, Long> next) {
        Set<String> before = new HashSet<>();
        long count = 0;
        for (Event ev : all) {
            TopicPartition tp = tp(ev.partition());
            if (ev.offset() < boundary.get(tp)) {
                before.add(ev.partition() + "|" + ev.identity());
            } else if (ev.offset() < next.get(tp) && before.contains(ev.partition() + "|" + ev.identity())) {
                count++;
            }
        }
        return count;
    }

    private static TopicPartition tp(int partition) {
        return new TopicPartition(RunNames.ORDERS_EVENTS, partition);
    }

    private static long sum(Map<TopicPartition, Long> offsets) {
        return offsets.values().stream().mapToLong(Long::longValue).sum();
    }
}
