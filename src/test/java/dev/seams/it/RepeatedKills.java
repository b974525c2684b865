package dev.seams.it;

import dev.seams.check.LagSampler;
import dev.seams.check.Reconciliation;
import dev.seams.check.SnapshotSequence;
import dev.seams.faults.FaultSchedule.Shot;
import dev.seams.faults.FaultSchedule;
import dev.seams.faults.LoadDriver;
import dev.seams.faults.TransactionKill;
import dev.seams.fixture.Pipeline;
import dev.seams.fixture.StandContext;
import dev.seams.lag.LagProbe;
import dev.seams.load.OrderLoad;
import dev.seams.report.Anomaly;
import dev.seams.report.ClaimEvidence;
import dev.seams.report.ReportWriter;
import dev.seams.sink.SinkMode;
import dev.seams.sink.SinkSummary;
import dev.seams.stand.Stand;
import dev.seams.truth.RunNames;
import dev.seams.truth.StreamsLogs;
import dev.seams.truth.Topics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.DoubleSupplier;
import org.apache.kafka.common.TopicPartition;

/**
 * G14[3 kills under load] ({@link LagIT#g14RepeatedKillsUnderLoad}) as phases: the baseline it starts from, three
 * kill -9 of ds-streams at points of a load of real changes (Kafka's Streams EOS system test pattern), and what the
 * changelog, the sink and ClickHouse show afterwards; each kill is its own entry {@code G14[kill -9 @N%]}
 * ({@link StreamsKills}).
 */
final class RepeatedKills {

    private static final String COMMITTED = "read_committed";
    private static final String UNCOMMITTED = "read_uncommitted";

    private RepeatedKills() {
    }

    /**
     * Where the kills start from.
     *
     * @param totalsStart    customer.totals' end offsets once settled: every committed snapshot before lies below them
     * @param versionsBefore every customer's latest snapshot version then
     * @param load           the load the kills land in
     * @param committedStart ds-streams' committed offsets on orders.events then, summed
     */
    record Baseline(Map<TopicPartition, Long> totalsStart, Map<Long, Long> versionsBefore, OrderLoad load, long committedStart) {
    }

    /**
     * What the kills did.
     *
     * @param kills   each kill, scheduled and landed
     * @param changes the changes the load applied
     */
    record UnderLoad(List<Shot<StreamsKills.StreamsKill>> kills, int changes) {
    }

    /**
     * Restarts ds-streams with its debugger agent (the kills halt it at a point of its code, faults/TransactionKill),
     * settles the pipeline and drains the sink.
     *
     * @param load the load the kills will land in
     * @return the baseline
     */
    static Baseline given(StandContext s, OrderLoad load) {
        Stand stand = s.stand();
        Topics topics = s.topics();
        stand.streams().container().withDebugAgent(true);
        stand.streams().stop();
        stand.streams().start();
        s.settle();
        s.sink(SinkMode.TOTALS, o -> o);
        Map<TopicPartition, Long> totalsStart = topics.endOffsets(RunNames.CUSTOMER_TOTALS);
        Map<Long, Long> versionsBefore = new TreeMap<>();
        topics.latestSnapshots().forEach((customer, t) -> versionsBefore.put(customer, t.version()));
        return new Baseline(totalsStart, versionsBefore, load, sum(topics.committed(Pipeline.STREAMS_GROUP, RunNames.ORDERS_EVENTS)));
    }

    /**
     * Applies the load at a steady rate on its own thread and kills ds-streams at 10, 50 and 90 % of what Debezium
     * published, each time restarting it; then waits for the load and settles. Writes the lag chart.
     *
     * @param batch changes per PG transaction
     * @param rate  changes per second
     * @return the kills and the changes applied
     * @throws Exception if the load or a kill fails
     */
    static UnderLoad when(ClaimEvidence e, StandContext s, Baseline before, int batch, double rate) throws Exception {
        Stand stand = s.stand();
        Topics topics = s.topics();
        LagProbe probe = topics.lagProbe();
        OrderLoad load = before.load();
        DoubleSupplier inputProgress = () -> (sum(topics.committed(Pipeline.STREAMS_GROUP, RunNames.ORDERS_EVENTS)) - before.committedStart())
                / (double) load.size();
        List<Shot<StreamsKills.StreamsKill>> kills;
        int total;
        try (LagSampler sampler = new LagSampler(stand, 500);
             LoadDriver loader = LoadDriver.start(stand, load, batch, rate)) {
            // the points are of the load Debezium published: Debezium and ds-streams work through it while the kills
            // land, also the one at 90 %. Scheduled on ds-streams' committed input instead, a point after a restart
            // landed 10 points late or more: the first commit after the restore takes the whole backlog at once.
            long eventsStart = topics.totalEndOffset(RunNames.ORDERS_EVENTS);
            // what ds-streams can work on: Debezium publishes in bursts, so a point of the load committed in PG met
            // ds-streams idle (measured: load 93 %, output 89 %, input lag 0, nothing open)
            DoubleSupplier published = () -> (topics.totalEndOffset(RunNames.ORDERS_EVENTS) - eventsStart) / (double) load.size();
            kills = FaultSchedule.atProgress(published, 0.1, 0.5, 0.9).run(target -> {
                double at = inputProgress.getAsDouble();
                long lag = probe.totalLag(Pipeline.STREAMS_GROUP, RunNames.ORDERS_EVENTS);
                // it waits for a transaction open on customer.totals only as long as the load stays within its point's
                // ±5 points (0.5 s spare: the look at the broker and the kill itself take a moment)
                double secondsLeft = (target + FaultSchedule.TOLERANCE - published.getAsDouble()) * load.size() / rate - 0.5;
                Duration within = Duration.ofMillis(Math.max(300, Math.min(StreamsKills.OPEN_TRANSACTION_WAIT.toMillis(), (long) (secondsLeft * 1000))));
                TransactionKill.Result killed = TransactionKill.kill(stand.streams(), topics, RunNames.CUSTOMER_TOTALS, within);
                double landed = published.getAsDouble();   // the kill may wait for an open transaction: where the load was when it struck
                sampler.mark("kill -9 at " + FaultSchedule.percent(landed));
                boolean openBefore = killed.frozenMidTransaction();
                int exit = killed.exit();
                Map<TopicPartition, Long> stable = topics.lastStableOffsets(RunNames.CUSTOMER_TOTALS);
                Map<TopicPartition, long[]> openTotals = topics.openTransactions(RunNames.CUSTOMER_TOTALS);
                Map<TopicPartition, long[]> openRepartition = topics.openTransactions(Pipeline.REPARTITION_TOPIC);
                sampler.mark("restart");
                stand.streams().start();
                return new StreamsKills.StreamsKill(landed, at, lag, openBefore, stable, openTotals, openRepartition, exit,
                        StreamsLogs.taskCorrupted(stand.streams().logText()));
            });
            OrderLoad.Applied applied = loader.await(Duration.ofMinutes(5));
            total = (int) applied.changes();
            e.figure("load", applied.inserted() + " inserts, " + applied.updatedAmount() + " amount updates, " + applied.moved()
                    + " moves, " + applied.deleted() + " deletes");
            s.settle();
            sampler.mark("settled");
            sampler.writeChart(ReportWriter.runDir().resolve("g14-repeated-lag.svg"),
                    "G14 repeated: three kill -9 while ds-streams works through " + total + " changes");
        }
        e.chart("g14-repeated-lag.svg", "Lag over time, three kills under load");
        return new UnderLoad(kills, total);
    }

    /**
     * Reads the changelog since the baseline read_committed and read_uncommitted, drains the sink, records each kill's
     * entry and the claim's checks: one snapshot per change, none twice, none lost; the sink inserts exactly the
     * committed records; no aborted record in ClickHouse; customer_totals FINAL = PG.
     */
    static void then(ClaimEvidence e, StandContext s, Baseline before, UnderLoad run) {
        Topics topics = s.topics();
        OrderLoad.Expected expected = before.load().expected();
        SnapshotSequence committed = SnapshotSequence.read(topics, before.totalsStart(), before.versionsBefore(), expected.versionSteps(), COMMITTED);
        SnapshotSequence uncommitted = SnapshotSequence.read(topics, before.totalsStart(), before.versionsBefore(), expected.versionSteps(), UNCOMMITTED);
        StreamsKills.Changelog changelog = StreamsKills.changelogSince(topics, before.totalsStart());
        long rawBefore = s.ch().scalar("SELECT count() FROM raw_totals");
        SinkSummary drain = s.sink(SinkMode.TOTALS, o -> o);

        List<List<Object>> rows = new ArrayList<>();
        for (Shot<StreamsKills.StreamsKill> shot : run.kills()) {
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
        Reconciliation.customerTotalsFinal(s.stand()).record(e, "PostgreSQL vs customer_totals FINAL after the load and the drain");
        e.note("Per change: every change of the load (inserts, amount updates, moves, deletes) must advance its customers' "
                + "snapshot versions by exactly the aggregate applications it implies, and no (customer, version) may be written "
                + "twice in the read_committed changelog. The read_uncommitted twin reads the same log including the "
                + changelog.aborted().size() + " records of transactions the kills aborted, and sees " + uncommitted.duplicate()
                + " (customer, version) pairs twice — what a read_uncommitted sink would have inserted.");
    }

    private static long sum(Map<TopicPartition, Long> offsets) {
        return offsets.values().stream().mapToLong(Long::longValue).sum();
    }
}
