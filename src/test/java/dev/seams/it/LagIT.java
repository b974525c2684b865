package dev.seams.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.seams.lag.LagProbe;
import dev.seams.lag.PartitionLag;
import dev.seams.report.ClaimEvidence;
import dev.seams.report.Evidence;
import dev.seams.report.EvidenceExtension;
import dev.seams.report.FaultNotObservedException;
import dev.seams.report.LagChart;
import dev.seams.sink.SinkMode;
import dev.seams.sink.SinkSummary;
import dev.seams.stand.ClickHouse;
import dev.seams.stand.CustomerReconciliation;
import dev.seams.stand.Faults;
import dev.seams.stand.LagSampler;
import dev.seams.stand.Pg;
import dev.seams.stand.Pipeline;
import dev.seams.report.Project;
import dev.seams.stand.SnapshotSequence;
import dev.seams.stand.Stand;
import dev.seams.stand.StreamsProcess;
import dev.seams.stand.Topics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Lag at every boundary, kill -9 of the Streams process and its recovery (source section "Лаг как
 * метрика здоровья"): G12, G13, G14. A killed Streams process is always restarted after the test.
 */
@ExtendWith(EvidenceExtension.class)
class LagIT {

    private static final int LOAD_ORDERS = 5_000;

    @AfterEach
    void streamsRunsAgain() {
        StreamsProcess streams = Stand.get().streams();
        if (!streams.isAlive()) {
            streams.start();
        }
    }

    @Test
    @DisplayName("G12 Lag at rest")
    void g12LagAtRest() {
        ClaimEvidence e = Evidence.claim("G12", "Lag at rest");
        Stand stand = Stand.get();
        Topics topics = Topics.of(stand);
        LagProbe probe = topics.lagProbe();
        Pg.of(stand).seed(12, 5, 12);
        Pipeline.awaitStreamsMatchesPg(stand);
        Pipeline.sink(stand, SinkMode.TOTALS, o -> o);

        List<PartitionLag> streams = new ArrayList<>(probe.describe(Pipeline.STREAMS_GROUP, Stand.ORDERS_EVENTS));
        streams.addAll(probe.describe(Pipeline.STREAMS_GROUP, Pipeline.REPARTITION_TOPIC));
        List<PartitionLag> sink = probe.describe("ds-sink", Stand.CUSTOMER_TOTALS);

        // What the source saw: a sink that commits last offset + 1 stops in front of the commit marker.
        String scratch = "seams-g12-last-offset-plus-1";
        Map<TopicPartition, Long> lastPlusOne = topics.lastDataOffsetPlusOne(Stand.CUSTOMER_TOTALS);
        topics.resetGroup(scratch, lastPlusOne);
        List<PartitionLag> naive = probe.describe(scratch, Stand.CUSTOMER_TOTALS);

        List<List<Object>> rows = new ArrayList<>();
        for (PartitionLag l : concat(streams, sink, naive)) {
            rows.add(List.of(l.group(), l.topic(), l.partition(), l.committed(), l.logEnd(), l.lastStable(), l.lag(),
                    l.dataRecordsBehind(), l.onlyMarkersBehind() ? "control markers only" : l.lag() == 0 ? "caught up" : "data behind"));
        }
        e.table("Lag at rest (LagProbe, like kafka-consumer-groups --describe)",
                List.of("group", "topic", "partition", "committed", "log end", "last stable", "lag", "data records behind", "verdict"), rows);
        long streamsLag = e.figure("ds_streams_total_lag", streams.stream().mapToLong(PartitionLag::lag).sum());
        e.expected("ds_streams_total_lag", 0L);
        long sinkLag = e.figure("ds_sink_total_lag", sink.stream().mapToLong(PartitionLag::lag).sum());
        e.expected("ds_sink_total_lag", 0L);
        long naiveLag = e.figure("last_offset_plus_1_total_lag", naive.stream().mapToLong(PartitionLag::lag).sum());
        long naiveData = e.figure("last_offset_plus_1_data_records_behind", naive.stream().mapToLong(PartitionLag::dataRecordsBehind).sum());
        e.expected("last_offset_plus_1_data_records_behind", 0L);
        e.note("The sink commits its consumer position, which steps past the transaction's commit marker, so at rest "
                + "its lag is 0. A consumer that commits last offset + 1 (as the source's did) shows a lag of 1 per "
                + "partition written transactionally — the commit marker, no data: the probe reads the gap and finds "
                + naiveData + " data records in a lag of " + naiveLag + ".");

        assertThat(streams).as("ds-streams partitions of orders.events and the repartition topic").isNotEmpty();
        assertThat(streams).as("ds-streams lag per partition at rest").allSatisfy(l -> assertThat(l.lag()).isZero());
        assertThat(sink).as("ds-sink lag per partition at rest").allSatisfy(l -> assertThat(l.lag()).isZero());
        assertThat(naiveLag).as("negative control: committing last offset + 1 leaves the marker as lag").isPositive();
        assertThat(naive).as("that lag is control markers only").allSatisfy(l -> assertThat(l.dataRecordsBehind()).isZero());
    }

    @Test
    @DisplayName("G13 Lag grows while a link is down")
    void g13LagGrowsWhileDown() {
        ClaimEvidence e = Evidence.claim("G13", "Lag grows while a link is down");
        Stand stand = Stand.get();
        Pg pg = Pg.of(stand);
        Topics topics = Topics.of(stand);
        LagProbe probe = topics.lagProbe();
        Pipeline.awaitStreamsMatchesPg(stand);
        try (LagSampler sampler = new LagSampler(stand, 500)) {
            long before = probe.totalLag(Pipeline.STREAMS_GROUP, Stand.ORDERS_EVENTS);
            sampler.mark("kill -9");
            e.expected("streams_exit_status", Faults.SIGKILL_EXIT);
            Faults.requireSigkill("ds-streams", e.figure("streams_exit_status", stand.streams().kill()));
            long events = topics.totalEndOffset(Stand.ORDERS_EVENTS);
            pg.seed(30, 5, 131);
            Pipeline.awaitOrdersEvents(stand, events + 30);
            long lag30 = e.figure("lag_after_30", probe.totalLag(Pipeline.STREAMS_GROUP, Stand.ORDERS_EVENTS));
            e.expected("lag_after_30", 30L);
            pg.seed(30, 5, 132);
            Pipeline.awaitOrdersEvents(stand, events + 60);
            long lag60 = e.figure("lag_after_60", probe.totalLag(Pipeline.STREAMS_GROUP, Stand.ORDERS_EVENTS));
            e.expected("lag_after_60", 60L);
            e.figure("lag_before_kill", before);
            sampler.mark("restart");
            stand.streams().start();
            sampler.mark("RUNNING");
            awaitStreamsLagZero(stand);
            LagChart.write(Project.root().resolve("reports/g13-lag.svg"), "G13: ds-streams killed, 30 then 60 orders arrive",
                    sampler.samples(), sampler.marks());
            e.chart("g13-lag.svg", "Lag over time, G13");
            assertThat(before).as("ds-streams lag before the kill").isZero();
            assertThat(lag30).as("ds-streams lag after 30 orders while down").isEqualTo(30);
            assertThat(lag60).as("ds-streams lag after 60 orders while down").isEqualTo(60);
        }
    }

    @Test
    @DisplayName("G14 Recovery after kill -9")
    void g14RecoveryAfterKill() {
        ClaimEvidence e = Evidence.claim("G14", "Recovery after kill -9");
        Stand stand = Stand.get();
        Pg pg = Pg.of(stand);
        Topics topics = Topics.of(stand);
        LagProbe probe = topics.lagProbe();
        Pipeline.awaitStreamsMatchesPg(stand);
        Pipeline.sink(stand, SinkMode.TOTALS, o -> o);
        try (LagSampler sampler = new LagSampler(stand, 500)) {
            sampler.mark("kill -9");
            e.expected("streams_exit_status", Faults.SIGKILL_EXIT);
            Faults.requireSigkill("ds-streams", e.figure("streams_exit_status", stand.streams().kill()));
            long events = topics.totalEndOffset(Stand.ORDERS_EVENTS);
            pg.seed(60, 5, 141);
            Pipeline.awaitOrdersEvents(stand, events + 60);
            e.figure("streams_lag_while_down", probe.totalLag(Pipeline.STREAMS_GROUP, Stand.ORDERS_EVENTS));

            sampler.mark("restart");
            long t0 = System.nanoTime();
            stand.streams().start();
            sampler.mark("RUNNING");
            awaitStreamsLagZero(stand);
            double recovery = (System.nanoTime() - t0) / 1e9;
            e.figure("recovery_seconds", Math.round(recovery * 10) / 10.0);
            boolean corrupted = e.figure("task_corrupted_exception_seen", stand.streams().logText().contains("TaskCorruptedException"));
            Pipeline.awaitStreamsMatchesPg(stand);

            List<PartitionLag> sinkLag = probe.describe("ds-sink", Stand.CUSTOMER_TOTALS);
            long backlogRecords = e.figure("sink_backlog_data_records", sinkLag.stream().mapToLong(PartitionLag::dataRecordsBehind).sum());
            e.expected("sink_backlog_data_records", 60L);
            e.figure("sink_backlog_offsets", sinkLag.stream().mapToLong(PartitionLag::lag).sum());
            SinkSummary drain = Pipeline.sink(stand, SinkMode.TOTALS, o -> o);
            e.figure("drain_summary", drain.line());
            e.figure("drain_inserted", drain.inserted());
            e.expected("drain_inserted", backlogRecords);
            sampler.mark("sink drained");

            CustomerReconciliation rec = CustomerReconciliation.of(pg.truth(), ClickHouse.of(stand).finalTotals());
            e.anomaly("lost", rec.lost()).anomaly("stale", rec.stale()).anomaly("wrong_value", rec.wrongValue());
            e.table("Per customer after the drain: PostgreSQL vs customer_totals FINAL", CustomerReconciliation.COLUMNS, rec.rows());
            long streamsAfter = e.figure("ds_streams_lag_after", probe.totalLag(Pipeline.STREAMS_GROUP, Stand.ORDERS_EVENTS)
                    + probe.totalLag(Pipeline.STREAMS_GROUP, Pipeline.REPARTITION_TOPIC));
            long sinkAfter = e.figure("ds_sink_lag_after", probe.totalLag("ds-sink", Stand.CUSTOMER_TOTALS));
            e.expected("ds_streams_lag_after", 0L);
            e.expected("ds_sink_lag_after", 0L);
            e.note("Most of the recovery time is the broker waiting for the killed member's session to expire "
                    + "(consumer session.timeout.ms, 45 s by default) before it rebalances the partitions to the new process.");
            e.note(corrupted
                    ? "ds-streams logged TaskCorruptedException on restart (its local checkpoint did not match the changelog after kill -9) and recovered by itself, as in the source."
                    : "ds-streams did not log TaskCorruptedException on this restart; it recovered from its state directory and changelogs.");
            LagChart.write(Project.root().resolve("reports/g14-lag.svg"), "G14: kill -9, 60 orders, restart, sink drain",
                    sampler.samples(), sampler.marks());
            e.chart("g14-lag.svg", "Lag over time, G14");

            assertThat(backlogRecords).as("ds-sink backlog = the 60 changelog records Streams produced on recovery").isEqualTo(60);
            assertThat(drain.inserted()).as("one sink run drains the backlog").isEqualTo(backlogRecords);
            assertThat(rec.matches()).as("FINAL vs PG per customer: %s", rec.rows()).isTrue();
            assertThat(streamsAfter).as("ds-streams lag after recovery").isZero();
            assertThat(sinkAfter).as("ds-sink lag after the drain").isZero();
        }
    }

    @Test
    @DisplayName("G14 repeated: kill -9 three times at 10/50/90% of a 5,000-order load")
    void g14RepeatedKillsUnderLoad() {
        ClaimEvidence e = Evidence.claim("G14[3 kills under load]", "Recovery after kill -9, repeated at 10/50/90% of 5,000 orders");
        Stand stand = Stand.get();
        Pg pg = Pg.of(stand);
        Topics topics = Topics.of(stand);
        LagProbe probe = topics.lagProbe();
        Pipeline.awaitStreamsMatchesPg(stand);
        Pipeline.sink(stand, SinkMode.TOTALS, o -> o);
        Map<TopicPartition, Long> totalsStart = topics.endOffsets(Stand.CUSTOMER_TOTALS);
        Map<Integer, Long> countsBefore = new java.util.TreeMap<>();
        pg.truth().forEach((c, t) -> countsBefore.put(c, t.orders()));
        long eventsStart = topics.totalEndOffset(Stand.ORDERS_EVENTS);
        int total = e.figure("orders_loaded", LOAD_ORDERS);
        java.util.function.DoubleSupplier progress = () ->
                (topics.totalEndOffset(Stand.ORDERS_EVENTS) - probe.totalLag(Pipeline.STREAMS_GROUP, Stand.ORDERS_EVENTS) - eventsStart)
                        / (double) total;

        List<List<Object>> kills = new ArrayList<>();
        try (LagSampler sampler = new LagSampler(stand, 500)) {
            // the whole load at once: Debezium and ds-streams then work through it while the kills land,
            // so each kill hits a process in the middle of a transaction (Kafka's Streams EOS system test pattern)
            pg.seed(total, 5, 50_000);
            sampler.mark("5,000 orders committed in PG");
            for (double target : new double[] {0.1, 0.5, 0.9}) {
                await("ds-streams progress " + target).atMost(Duration.ofMinutes(5)).pollInterval(Duration.ofMillis(20))
                        .until(() -> progress.getAsDouble() >= target);
                double at = progress.getAsDouble();
                sampler.mark(String.format("kill -9 at %.0f%%", at * 100));
                int exit = stand.streams().kill();
                kills.add(List.of(String.format("%.0f%%", target * 100), String.format("%.1f%%", at * 100), exit));
                Faults.requireSigkill("ds-streams", exit);
                sampler.mark("restart");
                stand.streams().start();
            }
            Pipeline.awaitStreamsMatchesPg(stand);
            sampler.mark("settled");
            LagChart.write(Project.root().resolve("reports/g14-repeated-lag.svg"),
                    "G14 repeated: three kill -9 while ds-streams works through 5,000 orders", sampler.samples(), sampler.marks());
        }
        e.table("Kills (fault proven by exit status 137)", List.of("target", "ds-streams progress at kill", "exit status"), kills);
        e.chart("g14-repeated-lag.svg", "Lag over time, three kills under load");

        SnapshotSequence committed = SnapshotSequence.read(topics, totalsStart, countsBefore, "read_committed");
        SnapshotSequence uncommitted = SnapshotSequence.read(topics, totalsStart, countsBefore, "read_uncommitted");
        long abortedRecords = uncommitted.records() - committed.records();
        e.figure("changelog_records_read_committed", committed.records());
        e.expected("changelog_records_read_committed", (long) total);
        e.figure("read_committed_duplicate_snapshots", committed.duplicate());
        e.expected("read_committed_duplicate_snapshots", 0L);
        e.figure("read_committed_lost_orders", committed.lost());
        e.expected("read_committed_lost_orders", 0L);
        e.figure("aborted_records_in_log", abortedRecords);
        e.figure("read_uncommitted_twin_duplicate_snapshots", uncommitted.duplicate());
        e.anomaly("duplicate", committed.duplicate()).anomaly("lost", committed.lost());

        SinkSummary drain = Pipeline.sink(stand, SinkMode.TOTALS, o -> o);
        CustomerReconciliation rec = CustomerReconciliation.of(pg.truth(), ClickHouse.of(stand).finalTotals());
        e.figure("drain_summary", drain.line());
        long abortedInClickHouse = e.figure("aborted_records_in_clickhouse", abortedRowsInClickHouse(stand, totalsStart));
        e.expected("aborted_records_in_clickhouse", 0L);
        e.anomaly("aborted_read", abortedInClickHouse);
        e.anomaly("stale", rec.stale()).anomaly("wrong_value", rec.wrongValue());
        e.anomaly("lost", committed.lost() + rec.lost());
        e.table("Per customer after the load and the drain: PostgreSQL vs customer_totals FINAL", CustomerReconciliation.COLUMNS, rec.rows());
        e.note("Per order: under an insert-only load every order must advance its customer's snapshot by exactly +1 "
                + "in the read_committed changelog. The read_uncommitted twin reads the same log including the "
                + abortedRecords + " records of transactions the kills aborted, and sees " + uncommitted.duplicate()
                + " snapshots that do not advance — what a read_uncommitted sink would have inserted.");

        if (abortedRecords == 0) {
            throw new FaultNotObservedException("no kill hit an open transaction: no aborted records in customer.totals");
        }
        assertThat(committed.records()).as("read_committed changelog records for the load").isEqualTo(total);
        assertThat(committed.duplicate()).as("read_committed: snapshots that did not advance").isZero();
        assertThat(committed.lost()).as("read_committed: orders skipped").isZero();
        assertThat(uncommitted.duplicate()).as("negative control: read_uncommitted sees aborted snapshots").isPositive();
        assertThat(abortedInClickHouse).as("records of aborted transactions that reached raw_totals").isZero();
        assertThat(rec.matches()).as("FINAL vs PG per customer: %s", rec.rows()).isTrue();
    }

    /**
     * Records of aborted transactions (in the log read_uncommitted, absent read_committed) found in
     * raw_totals, where the sink's row for a record is (customer_id, version = offset); a customer
     * lives in one partition, so the pair names the record.
     */
    private static long abortedRowsInClickHouse(Stand stand, Map<TopicPartition, Long> start) {
        Topics topics = Topics.of(stand);
        java.util.Set<String> committed = new java.util.HashSet<>();
        topics.readAll(Stand.CUSTOMER_TOTALS, "read_committed", r -> committed.add(r.partition() + "@" + r.offset()));
        List<String> aborted = new ArrayList<>();
        topics.readAll(Stand.CUSTOMER_TOTALS, "read_uncommitted", r -> {
            if (r.offset() >= start.get(new TopicPartition(r.topic(), r.partition()))
                    && !committed.contains(r.partition() + "@" + r.offset())) {
                aborted.add("(" + Integer.parseInt(new String(r.key(), java.nio.charset.StandardCharsets.UTF_8)) + "," + r.offset() + ")");
            }
        });
        if (aborted.isEmpty()) {
            return 0;
        }
        return ClickHouse.of(stand).scalar("SELECT count() FROM raw_totals WHERE (customer_id, version) IN (" + String.join(",", aborted) + ")");
    }

    private static void awaitStreamsLagZero(Stand stand) {
        LagProbe probe = Topics.of(stand).lagProbe();
        await("ds-streams lag 0").atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(500))
                .until(() -> probe.totalLag(Pipeline.STREAMS_GROUP, Stand.ORDERS_EVENTS) == 0);
    }

    @SafeVarargs
    private static List<PartitionLag> concat(List<PartitionLag>... lists) {
        List<PartitionLag> all = new ArrayList<>();
        for (List<PartitionLag> l : lists) {
            all.addAll(l);
        }
        return all;
    }
}
