package dev.seams.it;

import static org.awaitility.Awaitility.await;

import dev.seams.lag.PartitionLag;
import dev.seams.report.Anomaly;
import dev.seams.report.Claim;
import dev.seams.report.ClaimEvidence;
import dev.seams.sink.Sink;
import dev.seams.sink.SinkConsumer;
import dev.seams.sink.SinkMode;
import dev.seams.sink.SinkOptions;
import dev.seams.sink.SinkSummary;
import dev.seams.stand.FaultSchedule;
import dev.seams.stand.FaultSchedule.Shot;
import dev.seams.stand.Groups;
import dev.seams.stand.KeyCounts;
import dev.seams.stand.Pipeline;
import dev.seams.stand.Reconciliation;
import dev.seams.stand.Stand;
import dev.seams.stand.StandContext;
import dev.seams.stand.Topics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.DoubleSupplier;
import java.util.function.UnaryOperator;
import org.apache.kafka.common.TopicPartition;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Group membership changes stop nothing (claim B12): a first sink instance drains a backlog of
 * {@value #BACKLOG} {@code customer.totals} records in its own thread while a second instance of the
 * same group {@code ds-sink} joins and leaves three times, at 5, 30 and 55 % of the drain
 * ({@link FaultSchedule}). Each join and each leave is a rebalance; each must land mid-drain, proven
 * from outside (data records behind the group's committed offsets at the join and at the leave, read
 * by {@code LagProbe}) and from inside (the first instance's summary counts the rebalances that took
 * partitions behind their end offsets away from it or handed such partitions to it, {@code sink/Rebalances}). To make the drain last, both instances pause {@value #INSERT_DELAY_MS} ms
 * before each batch's inserts — the TEST-ONLY fault injection {@code SinkOptions.withInsertDelay}, a
 * slow ClickHouse. After the three stays a holder (a third instance, {@value #HOLDER_DELAY_MS} ms before each batch)
 * joins and keeps its partitions behind until the first instance's own are caught up: the first, run with
 * {@code --until-caught-up}, must go on polling (it judges the whole group, {@code sink/PollSession}); the holder then
 * leaves and the first drains what it held. Expected: the first instance ends normally with its summary, the group's lag is 0,
 * {@code customer_totals FINAL} equals PG for the backlog's customers, raw rows beyond one per record
 * position ({@code raw_totals.kafka_partition/kafka_offset}) are at most one poll
 * ({@code max.poll.records}) per rebalance, and an offset commit that meets a rebalance is counted
 * ({@code commit_errors}), never fatal.
 */
@ExtendWith(StandContext.Resolver.class)
class MembershipIT {

    private static final String GROUP = SinkOptions.DEFAULT_GROUP;
    /**
     * Orders seeded, one {@code customer.totals} record each: the backlog. The drain advances one poll
     * ({@value SinkConsumer#MAX_POLL_RECORDS} records) per batch, 3.3 % of it: each stay lands within
     * FaultSchedule's ±5 points of its point (with 15,000, 6.7 % steps, @55 % landed at 66.7 %).
     */
    private static final int BACKLOG = 30_000;
    /** This claim's own customers, 1201..1260. */
    private static final int FIRST_CUSTOMER = 1201;
    private static final int CUSTOMERS = 60;
    /** FAULT INJECTION: the pause before each batch's inserts, ms: the drain takes about 40 s, a stay about a fifth of it. */
    private static final long INSERT_DELAY_MS = 1_000;
    /** Where in the drain the second instance joins (and then leaves): a stay (about a fifth of the drain) apart. */
    private static final double[] CHANGES_AT = {0.05, 0.3, 0.55};

    /**
     * One join and leave of the second instance.
     *
     * @param drainedAtJoin the backlog's share the group had committed when it was stable with both
     *                      instances (the shot's progress, read when the second instance was started, is where
     *                      the change landed: FaultSchedule's point rule)
     * @param behindAtJoin  data records behind the group's committed offsets (read, not offsets: no
     *                      transaction marker counts) when the group was stable with both instances
     * @param behindAtLeave the same when it was stable with the first instance alone again
     * @param second        the second instance's summary
     * @param seconds       from its start to the first instance owning every partition again
     */
    private record Change(double drainedAtJoin, long behindAtJoin, long behindAtLeave, SinkSummary second, double seconds) {
    }

    @Test
    @Claim(id = "B12", title = "Group membership changes stop nothing", exercises = {"sink/Sink", "sink/PollSession",
            "sink/OffsetCommitter", "sink/Rebalances", "sink/SinkConsumer"})
    void b12MembershipChangesStopNothing(ClaimEvidence e, StandContext s) throws Exception {
        Topics topics = s.topics();
        s.settle();
        s.sink(SinkMode.TOTALS, o -> o.withUntilCaughtUp());   // nothing of other claims left behind the mark
        Map<TopicPartition, Long> mark = topics.endOffsets(Stand.CUSTOMER_TOTALS);
        topics.resetGroup(GROUP, mark);
        s.pg().execute("INSERT INTO orders (customer_id, amount) SELECT " + FIRST_CUSTOMER + " + g % " + CUSTOMERS
                + ", (100 + g * 37 % 9901) / 100.0 FROM generate_series(0, " + (BACKLOG - 1) + ") g");
        s.settle();
        List<String> positions = new ArrayList<>();
        topics.readFrom(Stand.CUSTOMER_TOTALS, "read_committed", mark, r -> positions.add(r.partition() + "@" + r.offset()));
        Map<TopicPartition, Long> end = topics.endOffsets(Stand.CUSTOMER_TOTALS);
        DoubleSupplier drained = () -> (sum(topics.committed(GROUP, Stand.CUSTOMER_TOTALS)) - sum(mark)) / (double) (sum(end) - sum(mark));

        ExecutorService threads = Executors.newCachedThreadPool();
        List<Shot<Change>> changes;
        Hold hold;
        SinkSummary first = null;
        String outcome;
        try {
            CompletableFuture<SinkSummary> firstRun = CompletableFuture.supplyAsync(
                    () -> new Sink(options(s, SinkOptions::withUntilCaughtUp)).run(), threads);
            changes = FaultSchedule.atProgress(drained, CHANGES_AT).within(Duration.ofMinutes(2)).pollEvery(Duration.ofMillis(100))
                    .run(target -> joinAndLeave(s, threads, firstRun, drained));
            hold = holdBehind(s, threads, firstRun);
            try {
                first = firstRun.get(3, TimeUnit.MINUTES);
                outcome = "ended normally: " + first.line();
            } catch (ExecutionException ended) {
                outcome = "threw " + ended.getCause();
            }
        } finally {
            threads.shutdownNow();
        }

        List<List<Object>> rows = new ArrayList<>();
        long secondInserted = 0;
        long commitErrors = first == null ? 0 : first.commitErrors();
        for (Shot<Change> shot : changes) {
            recordChange(e.part("join and leave " + shot.label()), shot);
            Change c = shot.result();
            secondInserted += c.second().inserted();
            commitErrors += c.second().commitErrors();
            rows.add(List.of(FaultSchedule.percent(shot.target()), FaultSchedule.percent(c.drainedAtJoin()), c.behindAtJoin(),
                    c.behindAtLeave(), c.second().line(), c.seconds()));
        }
        e.table("The second instance's three stays (each its own entry B12[join and leave @N%])", List.of("target",
                "drained at join", "records behind at join", "records behind at leave", "second instance's summary", "seconds"), rows);
        KeyCounts<String> raw = KeyCounts.of(positions, s.ch().rows("SELECT kafka_partition, kafka_offset FROM raw_totals "
                + "WHERE customer_id BETWEEN " + FIRST_CUSTOMER + " AND " + (FIRST_CUSTOMER + CUSTOMERS - 1))
                .stream().map(r -> r.get(0) + "@" + r.get(1)).toList());

        secondInserted += hold.holder().inserted();
        commitErrors += hold.holder().commitErrors();
        e.figure("holder_summary", hold.holder().line());
        e.figure("records_behind_on_the_holders_partitions", hold.behindOnHolder());
        if (!hold.seen()) {
            e.unverified("the first instance's own partitions were never caught up while the holder's were behind: "
                    + "its --until-caught-up was not put to the test");
        }
        e.check("first_instance_ended_while_the_group_was_behind", hold.firstEnded()).isEqualTo(false,
                "--until-caught-up ends a run when the whole group caught up, not only the member's own partitions "
                        + "(a member whose own are caught up while another member holds partitions behind keeps polling)");
        e.figure("backlog_records", positions.size());
        e.figure("first_instance", outcome);
        e.check("first_instance_ended_normally", first != null).isTrue("the first instance's run returned its summary, no exception");
        if (first == null) {
            return;
        }
        long rebalances = e.figure("first_instance_rebalances", first.rebalances());
        long midDrain = e.figure("first_instance_rebalances_mid_drain", first.rebalancesMidDrain());
        e.figure("first_instance_partitions_revoked_mid_drain", first.revokedMidDrain());
        e.check("first_instance_rebalances_expected", rebalances).isAtLeast(2 * CHANGES_AT.length,
                "rebalances the first instance went through: one per join and one per leave");
        if (midDrain < 2 * CHANGES_AT.length) {
            e.unverified("only " + midDrain + " of the " + 2 * CHANGES_AT.length
                    + " rebalances took partitions behind their end offsets from the first instance or handed such partitions to it");
        }
        e.check("first_instance_uncommitted", first.uncommitted()).isZero("records the first instance left uncommitted at its end");
        e.figure("commit_errors", commitErrors);
        e.check("ds_sink_lag_after", topics.lag(GROUP, Stand.CUSTOMER_TOTALS)).isZero("the group's lag once the first instance ended");
        e.check("records_inserted", first.inserted() + secondInserted).isEqualTo(positions.size() + raw.excess(),
                "rows both instances inserted = the backlog + the raw duplicates");
        e.check("raw_duplicate_rows", raw.excess()).isAtMost(SinkConsumer.MAX_POLL_RECORDS * rebalances,
                "raw_totals rows beyond one per record position: at most one poll (max.poll.records) per rebalance");
        e.check("raw_duplicate_rows_beyond_failed_commits", raw.excess()).isAtMost(SinkConsumer.MAX_POLL_RECORDS * commitErrors,
                "what the sink guarantees: it writes and commits each poll before the next, so a rebalance finds nothing "
                        + "written and uncommitted; only a failed commit (at most one poll each) leaves records for the new "
                        + "owner to write again — 0 when none failed");
        e.anomaly(Anomaly.LOST, e.figure("backlog_records_missing_in_raw_totals", raw.missing()));
        e.check("raw_rows_of_other_positions", raw.unexpected()).isZero("rows of this claim's customers at no backlog position");
        Reconciliation.customers(s.pg().truth(), Reconciliation.customerRows(s.ch(), Reconciliation.CUSTOMER_TOTALS_FINAL),
                MembershipIT::isMine).record(e, "PostgreSQL vs customer_totals FINAL, the backlog's customers");
        e.note("Commit errors (" + commitErrors + ") are offset commits that failed and were retried, deferred or left "
                + "to the partitions' new owner (sink/OffsetCommitter); with the classic protocol the coordinator accepts a "
                + "commit while it prepares a rebalance and the sink commits its revoked partitions in onPartitionsRevoked, "
                + "so a commit fails only if the member was already dropped from the generation. "
                + (commitErrors == 0 ? "None failed in this run: that path is proven by sink/OffsetCommitterTest, not here."
                        : "None of them ended a run."));
    }

    /** The second instance joins, is stopped once both instances own partitions, and leaves. */
    private static Change joinAndLeave(StandContext s, ExecutorService threads, CompletableFuture<SinkSummary> firstRun,
                                       DoubleSupplier drained)
            throws InterruptedException, ExecutionException, TimeoutException {
        Groups groups = Groups.of(s.stand());
        Topics topics = s.topics();
        int partitions = topics.partitionCount(Stand.CUSTOMER_TOTALS);
        long t0 = System.nanoTime();
        Sink second = new Sink(options(s, o -> o.withRunFor(Duration.ofMinutes(2))));
        CompletableFuture<SinkSummary> run = CompletableFuture.supplyAsync(second::run, threads);
        await("the second instance joined").atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofMillis(100))
                .until(() -> firstRun.isDone() || groups.stableAssignments(GROUP)
                        .filter(a -> a.size() == 2 && a.stream().noneMatch(Set::isEmpty)).isPresent());
        double drainedAtJoin = drained.getAsDouble();
        long behindAtJoin = dataBehind(topics);
        second.stop();
        SinkSummary summary = run.get(1, TimeUnit.MINUTES);
        await("the first instance owns every partition again").atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofMillis(100))
                .until(() -> firstRun.isDone() || groups.stableAssignments(GROUP)
                        .filter(a -> a.size() == 1 && a.get(0).size() == partitions).isPresent());
        return new Change(drainedAtJoin, behindAtJoin, dataBehind(topics), summary, Math.round((System.nanoTime() - t0) / 1e8) / 10.0);
    }

    /**
     * The holder: a second instance whose every batch waits {@value #HOLDER_DELAY_MS} ms before its insert, so that
     * its partitions stay behind while the first instance catches up on its own.
     *
     * @param seen          whether the group was stable with one member's partitions caught up and the other's behind
     * @param firstEnded    whether the first instance's run had ended by {@value #HOLD_MS} ms after that
     * @param behindOnHolder data records behind on the holder's partitions then
     * @param holder        the holder's summary
     */
    private record Hold(boolean seen, boolean firstEnded, long behindOnHolder, SinkSummary holder) {
    }

    /** FAULT INJECTION: the holder's pause before each batch's inserts, ms. */
    private static final long HOLDER_DELAY_MS = 8_000;
    /** How long the first instance, caught up on its own partitions, is watched while the holder's are behind, ms. */
    private static final long HOLD_MS = 2_000;

    /**
     * After the stays: a holder joins and keeps its partitions behind until the first instance's own are caught up;
     * the first must go on polling (PollSession's --until-caught-up judges the group). The holder then leaves and the
     * first drains what it held.
     */
    private static Hold holdBehind(StandContext s, ExecutorService threads, CompletableFuture<SinkSummary> firstRun)
            throws InterruptedException, ExecutionException, TimeoutException {
        Groups groups = Groups.of(s.stand());
        Topics topics = s.topics();
        Sink holder = new Sink(Pipeline.sinkOptions(s.stand(), SinkMode.TOTALS,
                o -> o.withInsertDelay(Duration.ofMillis(HOLDER_DELAY_MS)).withRunFor(Duration.ofMinutes(2))));
        CompletableFuture<SinkSummary> run = CompletableFuture.supplyAsync(holder::run, threads);
        long[] behindOnHolder = {0};
        boolean seen;
        try {
            await("one member caught up while the other holds partitions behind").atMost(Duration.ofMinutes(1))
                    .pollInterval(Duration.ofMillis(200)).until(() -> {
                        if (firstRun.isDone()) {
                            return true;
                        }
                        Optional<List<Set<TopicPartition>>> members = groups.stableAssignments(GROUP);
                        if (members.isEmpty() || members.get().size() != 2 || members.get().stream().anyMatch(Set::isEmpty)) {
                            return false;
                        }
                        Map<Integer, Long> behind = new HashMap<>();
                        topics.lagProbe().describe(GROUP, Stand.CUSTOMER_TOTALS)
                                .forEach(l -> behind.put(l.partition(), l.dataRecordsBehind()));
                        long[] perMember = members.get().stream().mapToLong(a -> a.stream()
                                .mapToLong(tp -> behind.getOrDefault(tp.partition(), 0L)).sum()).toArray();
                        behindOnHolder[0] = Math.max(perMember[0], perMember[1]);
                        return Math.min(perMember[0], perMember[1]) == 0 && behindOnHolder[0] > 0;
                    });
            seen = !firstRun.isDone();
        } catch (ConditionTimeoutException timeout) {
            seen = false;
        }
        if (seen) {
            try {   // the first must go on polling the whole HOLD_MS; the wait ends early once it ended
                await("the first instance goes on polling while the holder's partitions are behind")
                        .during(Duration.ofMillis(HOLD_MS)).atMost(Duration.ofMillis(HOLD_MS + 1_000))
                        .pollInterval(Duration.ofMillis(100)).until(() -> !firstRun.isDone());
            } catch (ConditionTimeoutException endedEarly) {
                // recorded as firstEnded below
            }
        }
        boolean ended = firstRun.isDone();
        holder.stop();
        return new Hold(seen, ended, behindOnHolder[0], run.get(1, TimeUnit.MINUTES));
    }

    /** @return data records of customer.totals behind ds-sink's committed offsets, read (LagProbe) */
    private static long dataBehind(Topics topics) {
        return topics.lagProbe().describe(GROUP, Stand.CUSTOMER_TOTALS).stream().mapToLong(PartitionLag::dataRecordsBehind).sum();
    }

    /** One stay's entry: where it landed, and the proof that both of its rebalances met records behind. */
    private static void recordChange(ClaimEvidence part, Shot<Change> shot) {
        Change c = shot.result();
        part.figure("target", FaultSchedule.percent(shot.target()));
        part.figure("drained_at_start_of_second_instance", FaultSchedule.percent(shot.progress()));
        part.figure("drained_at_join", FaultSchedule.percent(c.drainedAtJoin()));
        part.figure("records_behind_at_join", c.behindAtJoin());
        part.figure("records_behind_at_leave", c.behindAtLeave());
        part.figure("second_instance_summary", c.second().line());
        part.figure("seconds", c.seconds());
        if (!shot.onPoint()) {
            part.unverified("the second instance's start " + shot.offPoint());
        }
        if (c.behindAtJoin() == 0 || c.behindAtLeave() == 0) {
            part.unverified("the group had no record behind at the " + (c.behindAtJoin() == 0 ? "join" : "leave")
                    + ": that rebalance did not land mid-drain");
        }
        part.note("Records behind = data records between ds-sink's committed offsets and the log end (read, so transaction "
                + "markers do not count), when the group was stable with both instances (join) and with the first alone "
                + "again (leave). The whole drain's checks are in B12.");
    }

    /** The options of both instances: the stand's sink, slowed by the test-only insert delay. */
    private static SinkOptions options(StandContext s, UnaryOperator<SinkOptions> window) {
        return Pipeline.sinkOptions(s.stand(), SinkMode.TOTALS,
                o -> window.apply(o.withInsertDelay(Duration.ofMillis(INSERT_DELAY_MS))));
    }

    private static boolean isMine(int customer) {
        return customer >= FIRST_CUSTOMER && customer < FIRST_CUSTOMER + CUSTOMERS;
    }

    private static long sum(Map<TopicPartition, Long> offsets) {
        return offsets.values().stream().mapToLong(Long::longValue).sum();
    }
}
