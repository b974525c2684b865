package dev.seams.it;

import static org.awaitility.Awaitility.await;

import dev.seams.check.LagSampler;
import dev.seams.check.Reconciliation;
import dev.seams.faults.Fault;
import dev.seams.faults.FaultSchedule;
import dev.seams.faults.ProcessKill;
import dev.seams.fixture.Pipeline;
import dev.seams.fixture.StandContext;
import dev.seams.lag.LagProbe;
import dev.seams.lag.PartitionLag;
import dev.seams.load.OrderLoad;
import dev.seams.report.Anomaly;
import dev.seams.report.Claim;
import dev.seams.report.ClaimEvidence;
import dev.seams.report.ReportWriter;
import dev.seams.sink.SinkMode;
import dev.seams.sink.SinkSummary;
import dev.seams.stand.Stand;
import dev.seams.stand.StreamsProcess;
import dev.seams.truth.RunNames;
import dev.seams.truth.StreamsLogs;
import dev.seams.truth.Topics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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
    private static final String SINK_GROUP = RunNames.SINK_GROUP;
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
    @Claim(id = "G12", title = "Lag at rest", exercises = {"lag/LagProbe", "kafka/OffsetRangeReader", "sink/Sink", "streams/StreamsApp", "cli/StreamsCommand"})
    void g12LagAtRest(ClaimEvidence e, StandContext s) {
        Topics topics = s.topics();
        LagProbe probe = topics.lagProbe();
        s.pg().seed(12, 5, 12);
        s.settle();
        s.sink(SinkMode.TOTALS, o -> o);

        List<PartitionLag> streams = new ArrayList<>(probe.describe(Pipeline.STREAMS_GROUP, RunNames.ORDERS_EVENTS));
        streams.addAll(probe.describe(Pipeline.STREAMS_GROUP, Pipeline.REPARTITION_TOPIC));
        List<PartitionLag> sink = probe.describe(SINK_GROUP, RunNames.CUSTOMER_TOTALS);
        // What the source saw: a sink that commits last offset + 1 stops in front of the commit marker.
        String scratch = RunNames.of("seams-g12-last-offset-plus-1");
        topics.resetGroup(scratch, topics.lastDataOffsetPlusOne(RunNames.CUSTOMER_TOTALS));
        List<PartitionLag> naive = probe.describe(scratch, RunNames.CUSTOMER_TOTALS);
        List<PartitionLag> oneCommitted = neverCommittedPartitionsAreWhollyBehind(e, topics, probe);

        e.table("Lag at rest (LagProbe, like kafka-consumer-groups --describe)",
                List.of("group", "topic", "partition", "committed", "log end", "last stable", "lag", "data records behind", "verdict"),
                Stream.of(streams, sink, naive, oneCommitted).flatMap(List::stream).map(l -> List.<Object>of(l.group(), l.topic(), l.partition(),
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

    /**
     * G12's case of a group that never committed a partition (LagProbe: committed -1, the whole log behind), shown on a
     * group that committed one partition of customer.totals at its log end and no other, as {@code seams lag} describes it:
     * each other partition is a row, its lag its log end offset and its data records behind every data record it holds
     * (from the log start, which other claims' injections move), both as this harness reads them (Admin's end offsets,
     * a read_uncommitted read of the whole topic), never what the probe says of itself.
     *
     * @return the group's rows, for the evidence table
     */
    private static List<PartitionLag> neverCommittedPartitionsAreWhollyBehind(ClaimEvidence e, Topics topics, LagProbe probe) {
        String group = RunNames.of("seams-g12-one-partition-committed");
        Map<TopicPartition, Long> end = topics.endOffsets(RunNames.CUSTOMER_TOTALS);
        Map<TopicPartition, Long> start = topics.startOffsets(RunNames.CUSTOMER_TOTALS);
        // the committed one is the partition whose log start moved least: a moved one (DlqIT's injections delete what
        // they wrote) is then left never committed, the case of a range that begins below the log start
        TopicPartition first = start.entrySet().stream().min(Map.Entry.comparingByValue()).orElseThrow().getKey();
        e.figure("customer_totals_log_start_offsets", start.values().toString());
        e.figure("never_committed_partitions_with_log_start_above_0", start.entrySet().stream()
                .filter(x -> !x.getKey().equals(first) && x.getValue() > 0).count());
        topics.resetGroup(group, Map.of(first, end.get(first)));
        Map<TopicPartition, Long> data = new HashMap<>();
        topics.readAll(RunNames.CUSTOMER_TOTALS, "read_uncommitted", r -> data.merge(new TopicPartition(r.topic(), r.partition()), 1L, Long::sum));
        List<PartitionLag> rows = probe.describe(group);   // what seams lag shows: every partition of the topics it has offsets on
        List<PartitionLag> never = rows.stream().filter(l -> l.partition() != first.partition()).toList();
        e.check("never_committed_partitions", never.stream().filter(l -> l.committed() == -1).count()).isEqualTo((long) end.size() - 1,
                "partitions of customer.totals the group never committed, shown with committed -1");
        e.check("never_committed_lag", never.stream().mapToLong(PartitionLag::lag).sum()).isEqualTo(
                end.entrySet().stream().filter(x -> !x.getKey().equals(first)).mapToLong(x -> x.getValue() - start.get(x.getKey())).sum(),
                "their lag: the whole log, log end − log start offsets as Admin lists them");
        e.check("never_committed_data_records_behind", never.stream().mapToLong(PartitionLag::dataRecordsBehind).sum()).isEqualTo(
                data.entrySet().stream().filter(x -> !x.getKey().equals(first)).mapToLong(Map.Entry::getValue).sum(),
                "their data records behind: every data record they hold, read read_uncommitted");
        e.check("never_committed_only_markers", never.stream().filter(PartitionLag::onlyMarkersBehind).count())
                .isZero("a never-committed partition holding data records is not shown as control markers only");
        e.check("committed_partition_lag", rows.stream().filter(l -> l.partition() == first.partition()).mapToLong(PartitionLag::lag).sum())
                .isZero("the partition it committed at its log end");
        return rows;
    }

    @Test
    @Claim(id = "G13", title = "Lag grows while a link is down", exercises = {"lag/LagProbe", "streams/StreamsApp", "cli/StreamsCommand"})
    void g13LagGrowsWhileDown(ClaimEvidence e, StandContext s) {
        Stand stand = s.stand();
        LagProbe probe = s.topics().lagProbe();
        s.settle();
        try (LagSampler sampler = new LagSampler(stand, 500)) {
            e.check("lag_before_kill", probe.totalLag(Pipeline.STREAMS_GROUP, RunNames.ORDERS_EVENTS)).isZero("ds-streams caught up before the kill");
            ProcessKill kill = ProcessKill.streams(stand.streams());
            sampler.mark("kill -9");
            Fault.Proof killed = kill.inject();
            e.figure("streams_exit_status", kill.exitStatus());
            killed.require();
            long events = s.topics().totalEndOffset(RunNames.ORDERS_EVENTS);
            int first = s.pg().seed(30, 5, 131).size();
            Pipeline.awaitOrdersEvents(stand, events + first);
            e.check("lag_after_30", probe.totalLag(Pipeline.STREAMS_GROUP, RunNames.ORDERS_EVENTS)).isEqualTo(first,
                    "ds-streams lag = the orders that arrived while it was down");
            int second = s.pg().seed(30, 5, 132).size();
            Pipeline.awaitOrdersEvents(stand, events + first + second);
            e.check("lag_after_60", probe.totalLag(Pipeline.STREAMS_GROUP, RunNames.ORDERS_EVENTS)).isEqualTo(first + second,
                    "ds-streams lag keeps growing with every order");
            sampler.mark("restart");
            kill.heal();
            sampler.mark("RUNNING");
            awaitStreamsLagZero(s.topics());
            sampler.writeChart(ReportWriter.runDir().resolve("g13-lag.svg"), "G13: ds-streams killed, 30 then 60 orders arrive");
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
            Map<TopicPartition, Long> totalsAtKill = topics.endOffsets(RunNames.CUSTOMER_TOTALS);
            ProcessKill kill = ProcessKill.streams(stand.streams());
            sampler.mark("kill -9");
            Fault.Proof killed = kill.inject();
            e.figure("streams_exit_status", kill.exitStatus());
            killed.require();
            long events = topics.totalEndOffset(RunNames.ORDERS_EVENTS);
            int seeded = e.figure("orders_while_down", s.pg().seed(60, 5, 141).size());
            Pipeline.awaitOrdersEvents(stand, events + seeded);
            e.check("streams_lag_while_down", probe.totalLag(Pipeline.STREAMS_GROUP, RunNames.ORDERS_EVENTS)).isEqualTo(seeded,
                    "the orders that arrived while ds-streams was down");

            sampler.mark("restart");
            long t0 = System.nanoTime();
            kill.heal();
            sampler.mark("RUNNING");
            awaitStreamsLagZero(s.topics());
            e.figure("recovery_seconds", Math.round((System.nanoTime() - t0) / 1e8) / 10.0);
            boolean corrupted = e.figure("task_corrupted_exception_seen", StreamsLogs.taskCorrupted(stand.streams().logText()));
            s.settle();

            long produced = topics.readFrom(RunNames.CUSTOMER_TOTALS, COMMITTED, totalsAtKill, r -> { });
            e.check("changelog_records_produced", produced).isEqualTo(seeded, "one customer.totals snapshot per order that arrived");
            List<PartitionLag> sinkLag = probe.describe(SINK_GROUP, RunNames.CUSTOMER_TOTALS);
            long backlog = sinkLag.stream().mapToLong(PartitionLag::dataRecordsBehind).sum();
            e.check("sink_backlog_data_records", backlog).isEqualTo(produced, "ds-sink backlog = the changelog records ds-streams produced on recovery");
            e.figure("sink_backlog_offsets", totalLag(sinkLag));
            SinkSummary drain = s.sink(SinkMode.TOTALS, o -> o);
            e.figure("drain_summary", drain.line());
            e.check("drain_inserted", drain.inserted()).isEqualTo(produced, "one sink run drains the backlog");
            sampler.mark("sink drained");

            Reconciliation.customerTotalsFinal(stand).record(e, "PostgreSQL vs customer_totals FINAL after the drain");
            e.check("ds_streams_lag_after", probe.totalLag(Pipeline.STREAMS_GROUP, RunNames.ORDERS_EVENTS)
                    + probe.totalLag(Pipeline.STREAMS_GROUP, Pipeline.REPARTITION_TOPIC)).isZero("ds-streams on orders.events and repartition");
            e.check("ds_sink_lag_after", probe.totalLag(SINK_GROUP, RunNames.CUSTOMER_TOTALS)).isZero("ds-sink on customer.totals after the drain");
            e.note("ds-streams runs with static membership (--instance-id " + stand.streams().instanceId() + "): the restarted "
                    + "process takes the killed member's place and its partitions at once, instead of waiting for the killed "
                    + "member's session to expire (session.timeout.ms, 45 s by default; B9 measures both). "
                    + "The sink's backlog was " + backlog + " data records.");
            e.note(corrupted
                    ? "ds-streams logged TaskCorruptedException on restart (its local checkpoint did not match the changelog after kill -9) and recovered by itself, as in the source."
                    : "ds-streams did not log TaskCorruptedException on this restart; it recovered from its state directory and changelogs.");
            sampler.writeChart(ReportWriter.runDir().resolve("g14-lag.svg"), "G14: kill -9, 60 orders, restart, sink drain");
            e.chart("g14-lag.svg", "Lag over time, G14");
        }
    }

    @Test
    @Claim(id = "G14", variant = "3 kills under load", title = "Recovery after kill -9, repeated at 10/50/90% of a 3,000-change load",
            exercises = {"streams/StreamsApp", "cli/StreamsCommand", "streams/StreamsSettings", "streams/TotalsTopology", "sink/Sink"})
    void g14RepeatedKillsUnderLoad(ClaimEvidence e, StandContext s) throws Exception {
        // given: ds-streams with its debugger agent (the kills halt it at a point of its code), settled and drained
        RepeatedKills.Baseline before = RepeatedKills.given(s, OrderLoad.plan(LOAD_CHANGES, 5, 50_000, OrderLoad.Mix.REAL));
        // when: kill -9 at 10/50/90 % of the load Debezium published, each restarted at once
        RepeatedKills.UnderLoad run = RepeatedKills.when(e, s, before, LOAD_BATCH, LOAD_RATE);
        // then: the read_committed changelog holds every change once; the sink drains exactly it; FINAL = PG
        RepeatedKills.then(e, s, before, run);
    }

    /** Waits on the broker's own offsets ({@link Topics#lag}), not on the probe that G13 checks. */
    private static void awaitStreamsLagZero(Topics topics) {
        await("ds-streams lag 0").atMost(Duration.ofMinutes(3)).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(200))
                .until(() -> topics.lag(Pipeline.STREAMS_GROUP, RunNames.ORDERS_EVENTS) == 0);
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
