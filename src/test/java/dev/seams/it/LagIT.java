package dev.seams.it;

import static org.awaitility.Awaitility.await;

import dev.seams.check.LagSampler;
import dev.seams.check.Reconciliation;
import dev.seams.check.SnapshotSequence;
import dev.seams.faults.Fault;
import dev.seams.faults.FaultSchedule.Shot;
import dev.seams.faults.FaultSchedule;
import dev.seams.faults.LoadDriver;
import dev.seams.faults.ProcessKill;
import dev.seams.faults.TransactionKill;
import dev.seams.fixture.Pipeline;
import dev.seams.fixture.StandContext;
import dev.seams.lag.LagProbe;
import dev.seams.lag.PartitionLag;
import dev.seams.load.OrderLoad;
import dev.seams.project.Project;
import dev.seams.report.Anomaly;
import dev.seams.report.Claim;
import dev.seams.report.ClaimEvidence;
import dev.seams.sink.SinkMode;
import dev.seams.sink.SinkSummary;
import dev.seams.stand.Stand;
import dev.seams.stand.StreamsProcess;
import dev.seams.truth.Topics;
import dev.seams.wire.TopicNames;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.DoubleSupplier;
import java.util.stream.Stream;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Lag at every boundary, kill -9 of the Streams process and its recovery (source section "Лаг как
 * метрика здоровья"): G12, G13, G14. A killed Streams process is always restarted after the test.
 */
@ExtendWith(StandContext.Resolver.class)
class LagIT {

    /** Changes of G14's load (OrderLoad.Mix.REAL: inserts, amount updates, moves, deletes). */
    private static final int LOAD_CHANGES = 3_000;
    /**
     * Changes per PG transaction of that load: one every 50 ms at {@link #LOAD_RATE}, within ds-streams' 100 ms commit
     * interval, so that it has a transaction open at almost any moment (with 25, one every 250 ms, the 10 % kill found
     * ds-streams idle: input lag 0, nothing open).
     */
    private static final int LOAD_BATCH = 5;
    /**
     * Changes a second: the 3,000 changes take about 30 s, so that input still arrives at the 90 % kill, a restarted
     * ds-streams is at work again by the next point (12 s later), and ±5 points (FaultSchedule's rule) leave a kill
     * 1.5 s to find ds-streams with a transaction open (at 200/s, 15 s: 0.75 s, and a point 6 s after a restart).
     */
    private static final double LOAD_RATE = 100;
    private static final String SINK_GROUP = "ds-sink";
    private static final String COMMITTED = "read_committed";
    private static final String UNCOMMITTED = "read_uncommitted";

    @AfterEach
    void streamsRunsAgain() {
        StreamsProcess streams = StandContext.running().streams();
        streams.container().withDebugAgent(false);   // as it ships again (G14 turns the agent on)
        if (streams.isAlive() && streams.container().runsWithDebugAgent()) {
            streams.stop();   // the later claims of the tier meet ds-streams without the agent
        }
        if (!streams.isAlive()) {
            streams.start();
        }
    }

    @Test
    @Claim(id = "G12", title = "Lag at rest", exercises = {"lag/LagProbe", "sink/Sink", "streams/StreamsApp", "cli/StreamsCommand"})
    void g12LagAtRest(ClaimEvidence e, StandContext s) {
        Topics topics = s.topics();
        LagProbe probe = topics.lagProbe();
        s.pg().seed(12, 5, 12);
        s.settle();
        s.sink(SinkMode.TOTALS, o -> o);

        List<PartitionLag> streams = new ArrayList<>(probe.describe(Pipeline.STREAMS_GROUP, TopicNames.ORDERS_EVENTS));
        streams.addAll(probe.describe(Pipeline.STREAMS_GROUP, Pipeline.REPARTITION_TOPIC));
        List<PartitionLag> sink = probe.describe(SINK_GROUP, TopicNames.CUSTOMER_TOTALS);
        // What the source saw: a sink that commits last offset + 1 stops in front of the commit marker.
        String scratch = "seams-g12-last-offset-plus-1";
        topics.resetGroup(scratch, topics.lastDataOffsetPlusOne(TopicNames.CUSTOMER_TOTALS));
        List<PartitionLag> naive = probe.describe(scratch, TopicNames.CUSTOMER_TOTALS);

        e.table("Lag at rest (LagProbe, like kafka-consumer-groups --describe)",
                List.of("group", "topic", "partition", "committed", "log end", "last stable", "lag", "data records behind", "verdict"),
                Stream.of(streams, sink, naive).flatMap(List::stream).map(l -> List.<Object>of(l.group(), l.topic(), l.partition(),
                        l.committed(), l.logEnd(), l.lastStable(), l.lag(), l.dataRecordsBehind(),
                        l.onlyMarkersBehind() ? "control markers only" : l.lag() == 0 ? "caught up" : "data behind")).toList());
        e.check("ds_streams_partitions_described", streams.size()).isAtLeast(2 * Stand.PARTITIONS,
                "partitions of orders.events and of the repartition topic with a committed ds-streams offset");
        e.check("ds_streams_partitions_lagging", lagging(streams)).isZero("ds-streams partitions with lag > 0 at rest");
        e.check("ds_streams_total_lag", totalLag(streams)).isZero("ds-streams lag over orders.events and the repartition topic");
        e.check("ds_sink_partitions_lagging", lagging(sink)).isZero("ds-sink partitions of customer.totals with lag > 0 at rest");
        e.check("ds_sink_total_lag", totalLag(sink)).isZero("the sink commits its position, past the commit marker");
        long naiveLag = totalLag(naive);
        e.negativeControl("last_offset_plus_1_total_lag", naiveLag, Anomaly.STALE,
                "a consumer committing last offset + 1 (as the source's did) looks behind at rest");
        long naiveData = naive.stream().mapToLong(PartitionLag::dataRecordsBehind).sum();
        e.check("last_offset_plus_1_data_records_behind", naiveData).isZero("that lag is transaction control markers only, no data record");
        e.note("The sink commits its consumer position, which steps past the transaction's commit marker, so at rest "
                + "its lag is 0. A consumer that commits last offset + 1 (as the source's did) shows a lag of 1 per "
                + "partition written transactionally — the commit marker: the probe reads the gap of " + naiveLag
                + " offsets and finds " + naiveData + " data records in it.");
    }

    @Test
    @Claim(id = "G13", title = "Lag grows while a link is down", exercises = {"lag/LagProbe", "streams/StreamsApp", "cli/StreamsCommand"})
    void g13LagGrowsWhileDown(ClaimEvidence e, StandContext s) {
        Stand stand = s.stand();
        LagProbe probe = s.topics().lagProbe();
        s.settle();
        try (LagSampler sampler = new LagSampler(stand, 500)) {
            e.check("lag_before_kill", probe.totalLag(Pipeline.STREAMS_GROUP, TopicNames.ORDERS_EVENTS)).isZero("ds-streams caught up before the kill");
            ProcessKill kill = ProcessKill.streams(stand.streams());
            sampler.mark("kill -9");
            Fault.Proof killed = kill.inject();
            e.figure("streams_exit_status", kill.exitStatus());
            killed.require();
            long events = s.topics().totalEndOffset(TopicNames.ORDERS_EVENTS);
            int first = s.pg().seed(30, 5, 131).size();
            Pipeline.awaitOrdersEvents(stand, events + first);
            e.check("lag_after_30", probe.totalLag(Pipeline.STREAMS_GROUP, TopicNames.ORDERS_EVENTS)).isEqualTo(first,
                    "ds-streams lag = the orders that arrived while it was down");
            int second = s.pg().seed(30, 5, 132).size();
            Pipeline.awaitOrdersEvents(stand, events + first + second);
            e.check("lag_after_60", probe.totalLag(Pipeline.STREAMS_GROUP, TopicNames.ORDERS_EVENTS)).isEqualTo(first + second,
                    "ds-streams lag keeps growing with every order");
            sampler.mark("restart");
            kill.heal();
            sampler.mark("RUNNING");
            awaitStreamsLagZero(s.topics());
            sampler.writeChart(Project.root().resolve("reports/g13-lag.svg"), "G13: ds-streams killed, 30 then 60 orders arrive");
            e.chart("g13-lag.svg", "Lag over time, G13");
        }
    }

    @Test
    @Claim(id = "G14", title = "Recovery after kill -9", exercises = {"streams/StreamsApp", "cli/StreamsCommand", "streams/TotalsTopology", "sink/Sink"})
    void g14RecoveryAfterKill(ClaimEvidence e, StandContext s) {
        Stand stand = s.stand();
        Topics topics = s.topics();
        LagProbe probe = topics.lagProbe();
        s.settle();
        s.sink(SinkMode.TOTALS, o -> o);
        try (LagSampler sampler = new LagSampler(stand, 500)) {
            Map<TopicPartition, Long> totalsAtKill = topics.endOffsets(TopicNames.CUSTOMER_TOTALS);
            ProcessKill kill = ProcessKill.streams(stand.streams());
            sampler.mark("kill -9");
            Fault.Proof killed = kill.inject();
            e.figure("streams_exit_status", kill.exitStatus());
            killed.require();
            long events = topics.totalEndOffset(TopicNames.ORDERS_EVENTS);
            int seeded = e.figure("orders_while_down", s.pg().seed(60, 5, 141).size());
            Pipeline.awaitOrdersEvents(stand, events + seeded);
            e.check("streams_lag_while_down", probe.totalLag(Pipeline.STREAMS_GROUP, TopicNames.ORDERS_EVENTS)).isEqualTo(seeded,
                    "the orders that arrived while ds-streams was down");

            sampler.mark("restart");
            long t0 = System.nanoTime();
            kill.heal();
            sampler.mark("RUNNING");
            awaitStreamsLagZero(s.topics());
            e.figure("recovery_seconds", Math.round((System.nanoTime() - t0) / 1e8) / 10.0);
            boolean corrupted = e.figure("task_corrupted_exception_seen", stand.streams().logText().contains("TaskCorruptedException"));
            s.settle();

            long produced = topics.readFrom(TopicNames.CUSTOMER_TOTALS, COMMITTED, totalsAtKill, r -> { });
            e.check("changelog_records_produced", produced).isEqualTo(seeded, "one customer.totals snapshot per order that arrived");
            List<PartitionLag> sinkLag = probe.describe(SINK_GROUP, TopicNames.CUSTOMER_TOTALS);
            long backlog = sinkLag.stream().mapToLong(PartitionLag::dataRecordsBehind).sum();
            e.check("sink_backlog_data_records", backlog).isEqualTo(produced, "ds-sink backlog = the changelog records ds-streams produced on recovery");
            e.figure("sink_backlog_offsets", totalLag(sinkLag));
            SinkSummary drain = s.sink(SinkMode.TOTALS, o -> o);
            e.figure("drain_summary", drain.line());
            e.check("drain_inserted", drain.inserted()).isEqualTo(produced, "one sink run drains the backlog");
            sampler.mark("sink drained");

            Reconciliation.customerTotalsFinal(stand).record(e, "PostgreSQL vs customer_totals FINAL after the drain");
            e.check("ds_streams_lag_after", probe.totalLag(Pipeline.STREAMS_GROUP, TopicNames.ORDERS_EVENTS)
                    + probe.totalLag(Pipeline.STREAMS_GROUP, Pipeline.REPARTITION_TOPIC)).isZero("ds-streams on orders.events and repartition");
            e.check("ds_sink_lag_after", probe.totalLag(SINK_GROUP, TopicNames.CUSTOMER_TOTALS)).isZero("ds-sink on customer.totals after the drain");
            e.note("ds-streams runs with static membership (--instance-id " + stand.streams().instanceId() + "): the restarted "
                    + "process takes the killed member's place and its partitions at once, instead of waiting for the killed "
                    + "member's session to expire (session.timeout.ms, 45 s by default; B9 measures both). "
                    + "The sink's backlog was " + backlog + " data records.");
            e.note(corrupted
                    ? "ds-streams logged TaskCorruptedException on restart (its local checkpoint did not match the changelog after kill -9) and recovered by itself, as in the source."
                    : "ds-streams did not log TaskCorruptedException on this restart; it recovered from its state directory and changelogs.");
            sampler.writeChart(Project.root().resolve("reports/g14-lag.svg"), "G14: kill -9, 60 orders, restart, sink drain");
            e.chart("g14-lag.svg", "Lag over time, G14");
        }
    }

    @Test
    @Claim(id = "G14", variant = "3 kills under load", title = "Recovery after kill -9, repeated at 10/50/90% of a 3,000-change load",
            exercises = {"streams/StreamsApp", "cli/StreamsCommand", "streams/StreamsSettings", "streams/TotalsTopology", "sink/Sink"})
    void g14RepeatedKillsUnderLoad(ClaimEvidence e, StandContext s) throws Exception {
        Stand stand = s.stand();
        Topics topics = s.topics();
        LagProbe probe = topics.lagProbe();
        // the kills halt ds-streams at a point of its code (faults/TransactionKill): it runs with its debugger agent
        stand.streams().container().withDebugAgent(true);
        stand.streams().stop();
        stand.streams().start();
        s.settle();
        s.sink(SinkMode.TOTALS, o -> o);
        Map<TopicPartition, Long> totalsStart = topics.endOffsets(TopicNames.CUSTOMER_TOTALS);
        Map<Long, Long> versionsBefore = new TreeMap<>();   // settled: every committed snapshot lies before totalsStart
        topics.latestSnapshots().forEach((customer, t) -> versionsBefore.put(customer, t.version()));
        OrderLoad load = OrderLoad.plan(LOAD_CHANGES, 5, 50_000, OrderLoad.Mix.REAL);
        OrderLoad.Expected expected = load.expected();
        long committedStart = sum(topics.committed(Pipeline.STREAMS_GROUP, TopicNames.ORDERS_EVENTS));
        DoubleSupplier inputProgress = () -> (sum(topics.committed(Pipeline.STREAMS_GROUP, TopicNames.ORDERS_EVENTS)) - committedStart)
                / (double) load.size();

        List<Shot<StreamsKills.StreamsKill>> kills;
        int total;
        try (LagSampler sampler = new LagSampler(stand, 500);
             LoadDriver loader = LoadDriver.start(stand, load, LOAD_BATCH, LOAD_RATE)) {
            // the load applied at a steady rate by its own thread, the points are of the load Debezium published:
            // Debezium and ds-streams work through it while the kills land, also the one at 90 % (Kafka's Streams EOS
            // system test pattern). Scheduled on ds-streams' committed input instead, a point after a restart landed
            // 10 points late or more: the first commit after the restore takes the whole backlog at once.
            long eventsStart = topics.totalEndOffset(TopicNames.ORDERS_EVENTS);
            // what ds-streams can work on: Debezium publishes in bursts, so a point of the load committed in PG met
            // ds-streams idle (measured: load 93 %, output 89 %, input lag 0, nothing open)
            DoubleSupplier published = () -> (topics.totalEndOffset(TopicNames.ORDERS_EVENTS) - eventsStart) / (double) load.size();
            kills = FaultSchedule.atProgress(published, 0.1, 0.5, 0.9).run(target -> {
                double at = inputProgress.getAsDouble();
                long lag = probe.totalLag(Pipeline.STREAMS_GROUP, TopicNames.ORDERS_EVENTS);
                // it waits for a transaction open on customer.totals only as long as the load stays within its point's
                // ±5 points (0.5 s spare: the look at the broker and the kill itself take a moment)
                double secondsLeft = (target + FaultSchedule.TOLERANCE - published.getAsDouble()) * load.size() / LOAD_RATE - 0.5;
                Duration within = Duration.ofMillis(Math.max(300, Math.min(StreamsKills.OPEN_TRANSACTION_WAIT.toMillis(), (long) (secondsLeft * 1000))));
                TransactionKill.Result killed = TransactionKill.kill(stand.streams(), topics, TopicNames.CUSTOMER_TOTALS, within);
                double landed = published.getAsDouble();   // the kill may wait for an open transaction: where the load was when it struck
                sampler.mark("kill -9 at " + FaultSchedule.percent(landed));
                boolean openBefore = killed.frozenMidTransaction();
                int exit = killed.exit();
                Map<TopicPartition, Long> stable = topics.lastStableOffsets(TopicNames.CUSTOMER_TOTALS);
                Map<TopicPartition, long[]> openTotals = topics.openTransactions(TopicNames.CUSTOMER_TOTALS);
                Map<TopicPartition, long[]> openRepartition = topics.openTransactions(Pipeline.REPARTITION_TOPIC);
                sampler.mark("restart");
                stand.streams().start();
                return new StreamsKills.StreamsKill(landed, at, lag, openBefore, stable, openTotals, openRepartition, exit,
                        stand.streams().logText().contains("TaskCorruptedException"));
            });
            OrderLoad.Applied applied = loader.await(Duration.ofMinutes(5));
            total = (int) applied.changes();
            e.figure("load", applied.inserted() + " inserts, " + applied.updatedAmount() + " amount updates, " + applied.moved()
                    + " moves, " + applied.deleted() + " deletes");
            s.settle();
            sampler.mark("settled");
            sampler.writeChart(Project.root().resolve("reports/g14-repeated-lag.svg"),
                    "G14 repeated: three kill -9 while ds-streams works through " + total + " changes");
        }
        e.chart("g14-repeated-lag.svg", "Lag over time, three kills under load");

        SnapshotSequence committed = SnapshotSequence.read(topics, totalsStart, versionsBefore, expected.versionSteps(), COMMITTED);
        SnapshotSequence uncommitted = SnapshotSequence.read(topics, totalsStart, versionsBefore, expected.versionSteps(), UNCOMMITTED);
        StreamsKills.Changelog changelog = StreamsKills.changelogSince(topics, totalsStart);
        long rawBefore = s.ch().scalar("SELECT count() FROM raw_totals");
        SinkSummary drain = s.sink(SinkMode.TOTALS, o -> o);

        List<List<Object>> rows = new ArrayList<>();
        for (Shot<StreamsKills.StreamsKill> shot : kills) {
            double output = changelog.committedBelow(shot.result().totalsStable()) / (double) expected.snapshots();
            StreamsKills.recordKill(e.part("kill -9 " + shot.label()), shot, output, changelog.aborted(), s);
            StreamsKills.StreamsKill k = shot.result();
            rows.add(List.of(FaultSchedule.percent(shot.target()), FaultSchedule.percent(k.loadProgress()),
                    FaultSchedule.percent(k.inputProgress()), FaultSchedule.percent(output),
                    k.inputLag(), k.openBefore() ? "yes" : "no",
                    k.openTransaction() ? "yes (" + (k.openTotals().size() + k.openRepartition().size()) + ")" : "no", k.exit(), k.corrupted()));
        }
        e.table("Kills (each its own entry G14[kill -9 @N%])", List.of("target", "load published to orders.events at kill",
                "input progress at kill", "output progress at kill",
                "input lag at kill", "customer.totals transaction open when killed", "open transaction after the kill (partitions LSO < HW)",
                "exit status", "TaskCorruptedException"), rows);
        e.check("changelog_records_read_committed", committed.records()).isEqualTo(expected.snapshots(),
                "committed snapshots = one per change, two per move (one per customer)");
        e.anomaly(Anomaly.DUPLICATE, e.figure("read_committed_duplicate_snapshots", committed.duplicate()));
        e.anomaly(Anomaly.LOST, e.figure("read_committed_lost_version_steps", committed.lost()));
        e.anomaly(Anomaly.WRONG_VALUE, e.figure("read_committed_extra_version_steps", committed.extra()));
        e.figure("aborted_records_in_log", (long) changelog.aborted().size());
        e.negativeControl("read_uncommitted_twin_duplicate_snapshots", uncommitted.duplicate(), Anomaly.ABORTED_READ,
                "a read_uncommitted reader of the same log sees the aborted transactions' snapshots");
        e.figure("drain_summary", drain.line());
        e.check("drain_inserted", drain.inserted()).isEqualTo(committed.records(), "the sink inserts exactly the committed records");
        e.check("raw_totals_added", s.ch().scalar("SELECT count() FROM raw_totals") - rawBefore).isEqualTo(committed.records(),
                "raw_totals rows added by the drain = committed changelog records");
        e.anomaly(Anomaly.ABORTED_READ, e.figure("aborted_records_in_clickhouse", StreamsKills.abortedInClickHouse(s, changelog.aborted())));
        Reconciliation.customerTotalsFinal(stand).record(e, "PostgreSQL vs customer_totals FINAL after the load and the drain");
        e.note("Per change: every change of the load (inserts, amount updates, moves, deletes) must advance its customers' "
                + "snapshot versions by exactly the aggregate applications it implies, and no (customer, version) may be written "
                + "twice in the read_committed changelog. The read_uncommitted twin reads the same log including the "
                + changelog.aborted().size() + " records of transactions the kills aborted, and sees " + uncommitted.duplicate()
                + " (customer, version) pairs twice — what a read_uncommitted sink would have inserted.");
    }

    /** Waits on the broker's own offsets ({@link Topics#lag}), not on the probe that G13 checks. */
    private static void awaitStreamsLagZero(Topics topics) {
        await("ds-streams lag 0").atMost(Duration.ofMinutes(3)).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(200))
                .until(() -> topics.lag(Pipeline.STREAMS_GROUP, TopicNames.ORDERS_EVENTS) == 0);
    }

    private static long lagging(List<PartitionLag> lags) {
        return lags.stream().filter(l -> l.lag() != 0).count();
    }

    private static long totalLag(List<PartitionLag> lags) {
        return lags.stream().mapToLong(PartitionLag::lag).sum();
    }

    private static long sum(Map<TopicPartition, Long> offsets) {
        return offsets.values().stream().mapToLong(Long::longValue).sum();
    }
}
