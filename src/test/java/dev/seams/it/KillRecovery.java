package dev.seams.it;

import static org.awaitility.Awaitility.await;

import dev.seams.check.Reconciliation;
import dev.seams.faults.FaultSchedule.Shot;
import dev.seams.faults.FaultSchedule;
import dev.seams.faults.LoadDriver;
import dev.seams.faults.ProcessKill;
import dev.seams.faults.Sigkill;
import dev.seams.fixture.Pipeline;
import dev.seams.fixture.StandContext;
import dev.seams.load.OrderLoad;
import dev.seams.project.Project;
import dev.seams.report.ClaimEvidence;
import dev.seams.sink.ClickHouseTarget;
import dev.seams.sink.SinkMode;
import dev.seams.sinks.SinkUnderTest;
import dev.seams.stand.Brokers;
import dev.seams.stand.JvmProcess;
import dev.seams.stand.Stand;
import dev.seams.stand.StreamsProcess;
import dev.seams.truth.Groups;
import dev.seams.truth.RunNames;
import dev.seams.truth.StreamsLogs;
import dev.seams.truth.Topics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.DoubleSupplier;
import org.apache.kafka.common.TopicPartition;

/**
 * One kill -9 of ds-streams and the sink mid-load and their recovery, measured (claim B9; used by
 * {@link RecoveryIT}, one kill per membership, and {@link RecoveryFaultIT}, three): both processes are
 * started with the membership under test, a load is applied at a steady rate, both are killed with
 * SIGKILL when ds-streams has committed half of it and started again at once; then the seconds from
 * the restart to each step of the recovery, and the rebalances the broker completed. The stand's
 * ds-streams is put back to its own membership by {@link #restoreStand()}.
 */
final class KillRecovery {

    /**
     * Changes of the load (OrderLoad.Mix.REAL), applied to PG in transactions of {@link #LOAD_BATCH}. Up to the kill at
     * {@link #RATE_TO_KILL} changes/s: the shipped connector publishes what it read every 500 ms (Debezium's
     * {@code poll.interval.ms}), 20 changes or 3.3 % of the load at that rate, so ds-streams' committed progress grows
     * in steps small enough for the kill to land within FaultSchedule's ±5 points of half (at 300 changes/s Debezium
     * published 150 at a time, a quarter of the load, and the kills "at half" landed at 57–64 %). From the kill on at
     * {@link #LOAD_RATE} changes/s, so that the rest of the load is applied within about a second of the restart, as
     * before. Applied as one transaction, Debezium delivered the load as one burst, ds-streams' committed progress
     * jumped from 0 to 100 %, and a kill "at 50 %" could land after it.
     */
    static final int LOAD = 600;
    static final int LOAD_BATCH = 10;
    static final double RATE_TO_KILL = 40;
    static final double LOAD_RATE = 300;
    static final int CUSTOMERS = 5;
    static final long LOAD_SEED = 909;
    /** Where in ds-streams' progress through the load the kill lands. */
    static final double KILL_AT = 0.5;
    /** The sink's static membership id in the static run. */
    static final String SINK_INSTANCE_ID = "ds-sink-b9";
    static final String SINK_GROUP = RunNames.SINK_GROUP;
    static final double STATIC_MAX_SECONDS = 10;
    static final double MIN_SPEEDUP = 3;

    private JvmProcess sink;

    /** The kill: ds-streams' progress through the load and its lags right before it, the processes' exit statuses. */
    record Kill(double inputProgress, long inputLag, long sinkLag, int streamsExit, int sinkExit) {
    }

    /**
     * One recovery, seconds after the restart; NaN where it never happened.
     *
     * @param streamsUp     the new ds-streams process started Kafka Streams ({@code CREATED -> REBALANCING}): its JVM is up, its clients built
     *                      (the process start's share of the recovery)
     * @param streamsRunning the new ds-streams process reached {@code RUNNING}: joined, its tasks restored
     * @param streamsBack   ds-streams' partitions held by the new process (group stable)
     * @param sinkBack      the sink's partitions held by the new process
     * @param streamsLag0   ds-streams' lag 0 on orders.events and the repartition topic (no data record behind), the
     *                      whole load in orders.events
     * @param sinkLag0      the sink's lag 0 on customer.totals (no data record behind), after ds-streams'
     * @param finalEqualsPg customer_totals FINAL equals PG per customer
     * @param restoredRecords changelog records the new ds-streams process restored into its state stores before
     *                      {@code RUNNING} (its "Finished restoring changelog ... with a total number of N records" lines):
     *                      after kill -9 under exactly-once the whole state, so the restore grows with the stand's history
     * @param slowestRoundMs the slowest round of the harness's checks while it waited for these moments, ms: each
     *                      moment is the start of the first round that saw it, so it may be late by up to about this
     */
    record Recovery(Kill kill, double streamsUp, double streamsRunning, double streamsBack, double sinkBack, double streamsLag0, double sinkLag0,
                            double finalEqualsPg, long streamsRebalances, long sinkRebalances, long sessionsExpired,
                            List<String> streamsRebalanceReasons, List<String> sinkRebalanceReasons, boolean taskCorrupted,
                            long restoredRecords, long slowestRoundMs) {
    }

    /**
     * Before the kills: the pipeline settled, the sink caught up and {@code customer_totals FINAL} = PG (rebuilt from
     * the changelog if another claim emptied or rewrote the tables), so that each recovery's FINAL = PG is its own.
     */
    static void settleWithFinalEqualPg(StandContext s) {
        SinkUnderTest.requireDsSink("B9 kills and restarts ds-sink's process");   // before anything is killed
        s.settle();
        s.sink(SinkMode.TOTALS, o -> o);
        if (!Reconciliation.customerTotalsFinal(s.stand()).matches()) {
            s.ch().truncate("raw_totals", "customer_totals");
            s.sink(SinkMode.TOTALS, o -> o.withFromStart(true));
        }
    }

    /** Kills the sink process if it still runs and restarts ds-streams with the stand's membership. */
    void restoreStand() {
        Stand stand = StandContext.running();
        if (sink != null && sink.isAlive()) {
            sink.kill();
        }
        Groups.of(stand.admin()).removeAllMembers(SINK_GROUP);
        StreamsProcess streams = stand.streams();
        if (!StreamsProcess.STAND_INSTANCE_ID.equals(streams.instanceId()) || !streams.isAlive()) {
            streams.stop();
            streams.membership(StreamsProcess.STAND_INSTANCE_ID).start();
        }
    }

    /** Kills and restarts ds-streams and the sink mid-load with the given membership; measures the recovery into {@code e}. */
    Recovery recover(ClaimEvidence e, StandContext s, String streamsId, String sinkId) {
        Stand stand = s.stand();
        Topics topics = s.topics();
        Groups groups = Groups.of(stand.admin());
        StreamsProcess streams = stand.streams();
        streams.stop();
        sink = sinkProcess(stand, sinkId);
        sink.start();   // its JVM starts while ds-streams restarts with the membership under test
        streams.membership(streamsId).start();
        s.settle();
        await("the sink process holds its partitions").atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(200))
                .until(() -> groups.look(SINK_GROUP).heldByNewMember(List.of()));
        Reconciliation before = Reconciliation.customerTotalsFinal(stand);
        if (!before.matches()) {
            throw new IllegalStateException("before the load, customer_totals FINAL differs from PG: " + before.describe());
        }

        long eventsBefore = topics.totalEndOffset(RunNames.ORDERS_EVENTS);
        long committedBefore = sum(topics.committed(Pipeline.STREAMS_GROUP, RunNames.ORDERS_EVENTS));
        OrderLoad load = OrderLoad.plan(LOAD, CUSTOMERS, LOAD_SEED, OrderLoad.Mix.REAL);
        LoadDriver driver = LoadDriver.start(stand, load, LOAD_BATCH, RATE_TO_KILL);
        List<String> streamsMembers = groups.look(Pipeline.STREAMS_GROUP).memberIds();
        List<String> sinkMembers = groups.look(SINK_GROUP).memberIds();
        Brokers.LogMark brokerLogMark = stand.kafka().mark();
        long[] restartNanos = new long[1];
        DoubleSupplier progress = () -> (sum(topics.committed(Pipeline.STREAMS_GROUP, RunNames.ORDERS_EVENTS)) - committedBefore)
                / (double) load.size();
        Shot<Kill> shot = FaultSchedule.atProgress(progress, KILL_AT).within(Duration.ofMinutes(2)).run(target -> {
                    double at = progress.getAsDouble();
                    long inputLag = topics.lag(Pipeline.STREAMS_GROUP, RunNames.ORDERS_EVENTS);
                    long sinkLag = topics.lag(SINK_GROUP, RunNames.CUSTOMER_TOTALS);
                    ProcessKill streamsKill = ProcessKill.streamsRelaunched(streams);
                    ProcessKill sinkKill = ProcessKill.jvm("sink-kill", sink);
                    streamsKill.inject();
                    sinkKill.inject();
                    restartNanos[0] = System.nanoTime();
                    driver.rate(LOAD_RATE);
                    streamsKill.heal();
                    sinkKill.heal();
                    return new Kill(at, inputLag, sinkLag, streamsKill.exitStatus(), sinkKill.exitStatus());
                }).get(0);
        Kill kill = shot.result();
        OrderLoad.Applied applied = driver.await(Duration.ofMinutes(2));
        driver.close();

        double[] t = {Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN};
        long[] slowestRoundNanos = {0};
        await("ds-streams and the sink recovered, FINAL = PG").atMost(Duration.ofMinutes(3))
                .pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(100)).until(() -> {
                    long roundStart = System.nanoTime();
                    double now = (roundStart - restartNanos[0]) / 1e9;
                    firstTime(t, 0, now, () -> groups.look(Pipeline.STREAMS_GROUP).heldByNewMember(streamsMembers));
                    firstTime(t, 1, now, () -> groups.look(SINK_GROUP).heldByNewMember(sinkMembers));
                    firstTime(t, 2, now, () -> topics.totalEndOffset(RunNames.ORDERS_EVENTS) >= eventsBefore + applied.changes()
                            && topics.caughtUp(Pipeline.STREAMS_GROUP, RunNames.ORDERS_EVENTS)
                            && topics.caughtUp(Pipeline.STREAMS_GROUP, Pipeline.REPARTITION_TOPIC));
                    firstTime(t, 3, now, () -> !Double.isNaN(t[2]) && topics.caughtUp(SINK_GROUP, RunNames.CUSTOMER_TOTALS));
                    firstTime(t, 4, now, () -> !Double.isNaN(t[2]) && Reconciliation.customerTotalsFinal(stand).matches());
                    firstTime(t, 5, now, () -> streams.logText().contains(StreamsProcess.STARTING));
                    firstTime(t, 6, now, () -> streams.logText().contains(StreamsProcess.RUNNING));
                    if (Pipeline.stuckSeconds() > 0 && Double.isNaN(t[4]) && !Double.isNaN(t[3]) && now - t[3] > Pipeline.stuckSeconds()) {
                        String how = "ds-streams and the sink read everything " + Math.round(now - t[3]) + " s ago and "
                                + "ClickHouse's FINAL still differs from PG: " + Reconciliation.customerTotalsFinal(stand).describe();
                        dev.seams.report.TierClock.pipelineStalled(how);
                        throw new AssertionError("recovered, FINAL = PG: " + how);   // B9's own check, not the settle's
                    }
                    slowestRoundNanos[0] = Math.max(slowestRoundNanos[0], System.nanoTime() - roundStart);
                    return !Double.isNaN(t[0] + t[1] + t[3] + t[4] + t[5] + t[6]);
                });
        String brokerLog = stand.kafka().since(brokerLogMark);
        String streamsLog = streams.logText();
        sink.kill();
        groups.removeAllMembers(SINK_GROUP);

        Recovery r = new Recovery(kill, round(t[5]), round(t[6]), round(t[0]), round(t[1]), round(t[2]), round(t[3]), round(t[4]),
                Groups.rebalances(brokerLog, Pipeline.STREAMS_GROUP), Groups.rebalances(brokerLog, SINK_GROUP),
                count(brokerLog, "has failed, removing it from the group"),
                Groups.rebalanceReasons(brokerLog, Pipeline.STREAMS_GROUP), Groups.rebalanceReasons(brokerLog, SINK_GROUP),
                StreamsLogs.taskCorrupted(streamsLog), StreamsLogs.restoredRecords(streamsLog),
                Math.round(slowestRoundNanos[0] / 1e6));
        record(e, r, streamsId, sinkId, applied);
        return r;
    }

    /** Records one recovery's figures and the proofs that the kill landed mid-load and took effect. */
    private static void record(ClaimEvidence e, Recovery r, String streamsId, String sinkId, OrderLoad.Applied applied) {
        e.figure("ds_streams_instance_id", String.valueOf(streamsId));
        e.figure("sink_instance_id", String.valueOf(sinkId));
        e.figure("load", applied.inserted() + " inserts, " + applied.updatedAmount() + " amount updates, " + applied.moved()
                + " moves, " + applied.deleted() + " deletes");
        e.figure("input_progress_at_kill", FaultSchedule.percent(r.kill().inputProgress()));
        e.figure("ds_streams_lag_at_kill", r.kill().inputLag());
        e.figure("sink_lag_at_kill", r.kill().sinkLag());
        e.figure("streams_exit_status", r.kill().streamsExit());
        e.figure("sink_exit_status", r.kill().sinkExit());
        e.figure("seconds_to_streams_process_up", r.streamsUp());
        e.figure("seconds_to_streams_running", r.streamsRunning());
        e.figure("seconds_to_streams_partitions_back", r.streamsBack());
        e.figure("seconds_to_sink_partitions_back", r.sinkBack());
        e.figure("seconds_to_streams_lag_0", r.streamsLag0());
        e.figure("seconds_to_sink_lag_0", r.sinkLag0());
        e.figure("seconds_to_final_equals_pg", r.finalEqualsPg());
        e.figure("rebalances_ds_streams", r.streamsRebalances());
        e.figure("rebalances_ds_sink", r.sinkRebalances());
        e.figure("sessions_expired", r.sessionsExpired());
        e.figure("streams_task_corrupted_on_restart", r.taskCorrupted());
        e.figure("streams_records_restored", r.restoredRecords());
        e.figure("probe_slowest_round_ms", r.slowestRoundMs());
        e.figure("rebalance_reasons_ds_streams", r.streamsRebalanceReasons().isEmpty() ? "none" : String.join(" | ", r.streamsRebalanceReasons()));
        e.figure("rebalance_reasons_ds_sink", r.sinkRebalanceReasons().isEmpty() ? "none" : String.join(" | ", r.sinkRebalanceReasons()));
        if (r.kill().streamsExit() != Sigkill.EXIT || r.kill().sinkExit() != Sigkill.EXIT) {
            e.unverified("a process was not killed by SIGKILL: ds-streams exited " + r.kill().streamsExit() + ", the sink "
                    + r.kill().sinkExit());
        }
        if (r.kill().inputProgress() >= 1.0) {
            e.unverified("the kill landed after ds-streams had committed the whole load: no recovery under load");
        } else if (FaultSchedule.offPoint(KILL_AT, r.kill().inputProgress()) != null) {
            e.unverified("the kill, scheduled when ds-streams had committed half of the load, "
                    + FaultSchedule.offPoint(KILL_AT, r.kill().inputProgress()));
        }
        e.note("Rebalances are the group coordinator's 'Stabilized group <group> generation N' lines in the broker log "
                + "between the kill and FINAL = PG; sessions expired are its 'has failed, removing it from the group' lines; "
                + "the reasons are its 'Preparing to rebalance group <group> ... (reason: R)' lines over the same span; "
                + "streams_task_corrupted_on_restart: whether the restarted ds-streams logged TaskCorruptedException (its state "
                + "after kill -9 under exactly-once is wiped and restored from the changelogs). Seen on this stand: Kafka Streams 4.2.2 "
                + "then rejoins its group once more (reason 'Active tasks corrupted': one more rebalance), 4.3.1 does not (docs/recovery.md); "
                + "streams_records_restored: the changelog records it restored before RUNNING, the whole state, which grows with what "
                + "the stand processed before this claim; probe_slowest_round_ms: the slowest round of the harness's checks (every "
                + "100 ms) while it waited: a moment is the start of the first round that saw it, late by up to about that.");
    }

    /** Sets {@code t[i]} to {@code now} the first time the condition holds. */
    private static void firstTime(double[] t, int i, double now, BooleanSupplier condition) {
        if (Double.isNaN(t[i]) && condition.getAsBoolean()) {
            t[i] = now;
        }
    }

    /** The sink CLI as its own JVM, running until killed, with the given static membership id or dynamic. */
    private static JvmProcess sinkProcess(Stand stand, String instanceId) {
        SinkUnderTest.requireDsSink("B9 kills and restarts ds-sink's process");
        ClickHouseTarget ch = stand.clickhouseTarget();
        List<String> args = new ArrayList<>(List.of("sink", "--bootstrap-servers", stand.bootstrapServers(),
                "--clickhouse", ch.endpoint(), "--clickhouse-user", ch.user(), "--clickhouse-password", ch.password(),
                "--clickhouse-database", ch.database(), "--mode", "totals", "--for", "10m"));
        if (instanceId != null) {
            args.addAll(List.of("--instance-id", instanceId));
        }
        return new JvmProcess("sink-b9-" + (instanceId == null ? "dynamic" : "static"), "dev.seams.cli.SeamsCli", args,
                Project.root().resolve("target/stand-logs"));
    }

    /** The columns of a recovery table, one {@link #row} per recovery. */
    static final List<String> COLUMNS = List.of("membership", "ds-streams process up", "ds-streams RUNNING",
            "ds-streams partitions back", "sink partitions back", "ds-streams lag 0", "sink lag 0", "FINAL = PG",
            "rebalances ds-streams", "rebalances ds-sink", "changelog records restored");

    /** @return one recovery's row of a table of {@link #COLUMNS} */
    static List<Object> row(String membership, Recovery r) {
        return List.of(membership, r.streamsUp(), r.streamsRunning(), r.streamsBack(), r.sinkBack(), r.streamsLag0(), r.sinkLag0(), r.finalEqualsPg(),
                r.streamsRebalances(), r.sinkRebalances(), r.restoredRecords());
    }

    static double ratio(double dynamic, double fixed) {
        return Double.isNaN(dynamic) || Double.isNaN(fixed) ? Double.NaN : Math.round(dynamic / Math.max(fixed, 0.1) * 10) / 10.0;
    }

    private static double round(double seconds) {
        return Math.round(seconds * 10) / 10.0;
    }

    private static long count(String text, String needle) {
        return text.isEmpty() ? 0 : (text.length() - text.replace(needle, "").length()) / needle.length();
    }

    private static long sum(Map<TopicPartition, Long> offsets) {
        return offsets.values().stream().mapToLong(Long::longValue).sum();
    }
}

