package dev.seams.it;

import static org.awaitility.Awaitility.await;

import dev.seams.check.KeyCounts;
import dev.seams.check.Reconciliation;
import dev.seams.consumer.SinkConsumer;
import dev.seams.faults.FaultSchedule.Shot;
import dev.seams.faults.FaultSchedule;
import dev.seams.fixture.Pipeline;
import dev.seams.fixture.StandContext;
import dev.seams.lag.PartitionLag;
import dev.seams.report.Anomaly;
import dev.seams.report.ClaimEvidence;
import dev.seams.sink.Sink;
import dev.seams.sink.SinkMode;
import dev.seams.sink.SinkOptions;
import dev.seams.sink.SinkSummary;
import dev.seams.sinks.SinkUnderTest;
import dev.seams.truth.Groups;
import dev.seams.truth.RunNames;
import dev.seams.truth.Topics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.DoubleSupplier;
import java.util.function.UnaryOperator;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.common.TopicPartition;

/**
 * One drain of claim B12 (group membership changes stop nothing): a backlog of {@value #BACKLOG} {@code customer.totals}
 * records of the drain's own customers, drained by a first sink instance of group {@code ds-sink} while a second instance
 * joins and leaves at 5, 30 and 70 % of the drain ({@link FaultSchedule}; the drain's progress is the backlog's share
 * written to {@code raw_totals}). Each join and each leave is a rebalance that
 * must land mid-drain, proven from outside (data records behind the group's committed offsets, read by
 * {@code LagProbe}) and from inside (the summary's rebalances mid-drain, {@code consumer/Rebalances}). To make the drain last,
 * both instances pause {@value #INSERT_DELAY_MS} ms before each batch's inserts — the TEST-ONLY fault injection
 * {@code SinkOptions.withInsertDelay}, a slow ClickHouse. The options of both instances are the drain's
 * ({@link #start}: the product's defaults in B12, a commit interval and its twin in B12[commit interval]).
 */
final class MembershipDrain {

    static final String GROUP = RunNames.SINK_GROUP;
    /**
     * Orders seeded, one {@code customer.totals} record each: the backlog. The drain advances one poll
     * ({@value SinkConsumer#MAX_POLL_RECORDS} records) per batch, 2.2 % of it: each stay lands within
     * FaultSchedule's ±5 points of its point (with 15,000, 6.7 % steps, @55 % landed at 66.7 %; with 30,000 and a
     * rebalance that also waits for the write in flight, the second stay and the removal after it ran past 55 %).
     */
    static final int BACKLOG = 45_000;
    /** Customers of one drain's backlog. */
    static final int CUSTOMERS = 60;
    /** FAULT INJECTION: the pause before each batch's inserts, ms: the drain takes about 50 s, a stay about a sixth of it. */
    static final long INSERT_DELAY_MS = 1_000;
    /**
     * Where in the drain the second instance joins (and then leaves): more than a stay apart, and the second gap
     * also holds MembershipIT's removal of the first instance after the second stay.
     */
    static final double[] CHANGES_AT = {0.05, 0.3, 0.7};

    /** @return the points of {@link #CHANGES_AT} as text, e.g. {@code 5 %, 30 % and 70 %} */
    static String points() {
        List<String> each = java.util.Arrays.stream(CHANGES_AT).mapToObj(FaultSchedule::percent).map(p -> p.replace("%", " %")).toList();
        return String.join(", ", each.subList(0, each.size() - 1)) + " and " + each.get(each.size() - 1);
    }

    /**
     * The backlog, in PostgreSQL and settled into {@code customer.totals}, the group reset to its start.
     *
     * @param firstCustomer the drain's customers are firstCustomer .. firstCustomer + {@value #CUSTOMERS} − 1
     * @param positions     every backlog record's position, {@code partition@offset} (read_committed)
     */
    record Backlog(int firstCustomer, List<String> positions) {

        boolean isMine(long customer) {
            return customer >= firstCustomer && customer < firstCustomer + CUSTOMERS;
        }

        String customersSql() {
            return "customer_id BETWEEN " + firstCustomer + " AND " + (firstCustomer + CUSTOMERS - 1);
        }
    }

    /**
     * One join and leave of the second instance.
     *
     * @param drainedAtRebalance the backlog's share written when the broker first showed the group rebalancing
     *                      after the second instance started (its join reached the coordinator): where the change
     *                      landed, FaultSchedule's point rule
     * @param drainedAtJoin the same share when the group was stable with both instances: later by the time the
     *                      first instance took to learn of the rebalance (its next heartbeat, Kafka's
     *                      {@code heartbeat.interval.ms} 3 s) and to rejoin after its current batch
     * @param behindAtJoin  data records behind the group's committed offsets (read, not offsets: no
     *                      transaction marker counts) when the group was stable with both instances
     * @param behindAtLeave the same when it was stable with the first instance alone again
     * @param second        the second instance's summary
     * @param seconds       from its start to the first instance owning every partition again
     */
    record Change(double drainedAtRebalance, double drainedAtJoin, long behindAtJoin, long behindAtLeave, SinkSummary second, double seconds) {
    }

    /**
     * The drain under way: the first instance's run and the second's stays, done.
     *
     * @param firstRun the first instance, still draining (run with {@code --until-caught-up})
     * @param changes  the three stays
     */
    record Stays(CompletableFuture<SinkSummary> firstRun, List<Shot<Change>> changes) {
    }

    private final StandContext s;
    private final UnaryOperator<SinkOptions> variant;
    private final Backlog backlog;
    private final DoubleSupplier drained;

    private MembershipDrain(StandContext s, UnaryOperator<SinkOptions> variant, Backlog backlog) {
        this.s = s;
        this.variant = variant;
        this.backlog = backlog;
        this.drained = () -> s.ch().scalar("SELECT count() FROM raw_totals WHERE " + backlog.customersSql())
                / (double) backlog.positions().size();
    }

    /**
     * Seeds the backlog of {@value #BACKLOG} orders ({@link #seed(StandContext, int, int, UnaryOperator)}).
     *
     * @param firstCustomer the first of the drain's {@value #CUSTOMERS} customers, none of them used by another claim
     * @param variant       the options of both instances, from the stand's sink with the insert delay
     * @return the drain, ready to {@link #start}
     */
    static MembershipDrain seed(StandContext s, int firstCustomer, UnaryOperator<SinkOptions> variant) throws Exception {
        return seed(s, firstCustomer, BACKLOG, variant);
    }

    /**
     * Seeds the backlog: the stand's sink first writes whatever other claims left behind, the group is reset to the
     * topic's end, the orders are inserted for the drain's customers and settled into the topic.
     *
     * @param firstCustomer the first of the drain's {@value #CUSTOMERS} customers, none of them used by another claim
     * @param orders        orders seeded, one {@code customer.totals} record each; a stay moves the drain by about
     *                      7,500 records whatever the backlog, so a larger one leaves more of it after the third stay
     * @param variant       the options of both instances, from the stand's sink with the insert delay
     * @return the drain, ready to {@link #start}
     */
    static MembershipDrain seed(StandContext s, int firstCustomer, int orders, UnaryOperator<SinkOptions> variant) throws Exception {
        SinkUnderTest.requireDsSink("B12 changes the membership of ds-sink's consumer group mid-drain");   // before it seeds
        Topics topics = s.topics();
        s.settle();
        s.sink(SinkMode.TOTALS, o -> o.withUntilCaughtUp());   // nothing of other claims left behind the mark
        Map<TopicPartition, Long> mark = topics.endOffsets(RunNames.CUSTOMER_TOTALS);
        topics.resetGroup(GROUP, mark);
        s.pg().execute("INSERT INTO orders (customer_id, amount) SELECT " + firstCustomer + " + g % " + CUSTOMERS
                + ", (100 + g * 37 % 9901) / 100.0 FROM generate_series(0, " + (orders - 1) + ") g");
        s.settle();
        List<String> positions = new ArrayList<>();
        topics.readFrom(RunNames.CUSTOMER_TOTALS, "read_committed", mark, r -> positions.add(r.partition() + "@" + r.offset()));
        return new MembershipDrain(s, variant, new Backlog(firstCustomer, positions));
    }

    Backlog backlog() {
        return backlog;
    }

    /** @return the backlog's share written to raw_totals now, 0..1 (above 1 with duplicates) */
    double drained() {
        return drained.getAsDouble();
    }

    /**
     * Starts the first instance ({@code --until-caught-up}) and runs the second's three stays.
     *
     * @param threads where the instances run
     * @return the first instance's run, still going, and the stays
     */
    Stays start(ExecutorService threads) {
        return start(threads, (target, firstRun) -> { });
    }

    /** What a claim does once a stay ended, the first instance alone again (e.g. B12's forced failing commit). */
    @FunctionalInterface
    interface AfterStay {

        /**
         * @param target   the stay's point
         * @param firstRun the first instance's run
         * @throws Exception anything it could not do (the drain stops, the test fails)
         */
        void after(double target, CompletableFuture<SinkSummary> firstRun) throws Exception;
    }

    /**
     * As {@link #start(ExecutorService)}, with an action after each stay.
     *
     * @param afterStay run after each stay, before the schedule waits for the next point
     */
    Stays start(ExecutorService threads, AfterStay afterStay) {
        CompletableFuture<SinkSummary> firstRun = CompletableFuture.supplyAsync(
                () -> new Sink(options(SinkOptions::withUntilCaughtUp)).run(), threads);
        // a first instance that ended drains no further: its checks (the group's lag, its rebalances) say why at once
        List<Shot<Change>> changes = FaultSchedule.atProgress(drained, CHANGES_AT).within(Duration.ofMinutes(2))
                .endedWhen(firstRun::isDone).pollEvery(Duration.ofMillis(100)).run(target -> {
                    Change change = joinAndLeave(threads, firstRun);
                    afterStay.after(target, firstRun);
                    return change;
                });
        return new Stays(firstRun, changes);
    }

    /** The second instance joins, is stopped once both instances own partitions, and leaves. */
    private Change joinAndLeave(ExecutorService threads, CompletableFuture<SinkSummary> firstRun)
            throws InterruptedException, ExecutionException, TimeoutException {
        Groups groups = Groups.of(s.endpoints().admin());
        Topics topics = s.topics();
        int partitions = topics.partitionCount(RunNames.CUSTOMER_TOTALS);
        long t0 = System.nanoTime();
        Sink second = new Sink(options(o -> o.withRunFor(Duration.ofMinutes(2))));
        CompletableFuture<SinkSummary> run = CompletableFuture.supplyAsync(second::run, threads);
        double[] drainedAtRebalance = {Double.NaN};
        await("the group rebalancing for the second instance").atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofMillis(50))
                .until(() -> {
                    double now = drained.getAsDouble();
                    boolean rebalancing = groups.look(GROUP).state() != GroupState.STABLE;
                    if (rebalancing) {
                        drainedAtRebalance[0] = now;
                    }
                    return rebalancing || firstRun.isDone();
                });
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
        return new Change(drainedAtRebalance[0], drainedAtJoin, behindAtJoin, dataBehind(topics), summary, Math.round((System.nanoTime() - t0) / 1e8) / 10.0);
    }

    /**
     * @param window the run window of one instance
     * @return the options of an instance: the stand's sink, slowed by the test-only insert delay, in the drain's variant
     */
    SinkOptions options(UnaryOperator<SinkOptions> window) {
        return Pipeline.sinkOptions(s.endpoints(), SinkMode.TOTALS,
                o -> window.apply(variant.apply(o.withInsertDelay(Duration.ofMillis(INSERT_DELAY_MS)))));
    }

    /** @return data records of customer.totals behind ds-sink's committed offsets, read (LagProbe) */
    static long dataBehind(Topics topics) {
        return dataBehind(topics, GROUP);
    }

    /** @return data records of customer.totals behind the group's committed offsets, read (LagProbe) */
    static long dataBehind(Topics topics, String group) {
        return topics.lagProbe().describe(group, RunNames.CUSTOMER_TOTALS).stream().mapToLong(PartitionLag::dataRecordsBehind).sum();
    }

    /** @return raw_totals rows of the drain's customers, counted per backlog position ({@code kafka_partition@kafka_offset}) */
    KeyCounts<String> raw() {
        return KeyCounts.of(backlog.positions(), s.ch().rows("SELECT kafka_partition, kafka_offset FROM raw_totals WHERE "
                + backlog.customersSql()).stream().map(r -> r.get(0) + "@" + r.get(1)).toList());
    }

    /**
     * Records each stay as its own entry {@code <claim>[<prefix>join and leave @N%]} and their table on the claim.
     *
     * @param prefix the variant's prefix of the stays' entries ({@code ""} for B12 itself)
     */
    static void recordStays(ClaimEvidence e, String prefix, List<Shot<Change>> changes) {
        changes.forEach(shot -> recordChange(e.part(prefix + "join and leave " + shot.label()), shot));
        String claim = e.id().contains("[") ? e.id().substring(0, e.id().indexOf('[')) : e.id();
        e.table("The second instance's three stays (each its own entry " + claim + "[" + prefix + "join and leave @N%])",
                STAYS_COLUMNS, staysRows(changes));
    }

    static final List<String> STAYS_COLUMNS = List.of("target", "drained when the rebalance began", "drained at join", "records behind at join",
            "records behind at leave", "second instance's summary", "seconds");

    /** @return one row per stay, in the columns {@link #STAYS_COLUMNS} */
    static List<List<Object>> staysRows(List<Shot<Change>> changes) {
        return changes.stream().map(shot -> {
            Change c = shot.result();
            return List.<Object>of(FaultSchedule.percent(shot.target()), FaultSchedule.percent(c.drainedAtRebalance()),
                    FaultSchedule.percent(c.drainedAtJoin()),
                    c.behindAtJoin(), c.behindAtLeave(), c.second().line(), c.seconds());
        }).toList();
    }

    /** One stay's entry: where it landed, and the proof that both of its rebalances met records behind. */
    private static void recordChange(ClaimEvidence part, Shot<Change> shot) {
        Change c = shot.result();
        part.figure("target", FaultSchedule.percent(shot.target()));
        part.figure("drained_at_start_of_second_instance", FaultSchedule.percent(shot.progress()));
        part.figure("drained_when_the_rebalance_began", FaultSchedule.percent(c.drainedAtRebalance()));
        part.figure("drained_at_join", FaultSchedule.percent(c.drainedAtJoin()));
        part.figure("records_behind_at_join", c.behindAtJoin());
        part.figure("records_behind_at_leave", c.behindAtLeave());
        part.figure("second_instance_summary", c.second().line());
        part.figure("seconds", c.seconds());
        String offPoint = Double.isNaN(c.drainedAtRebalance()) ? "was never seen"
                : FaultSchedule.offPoint(shot.target(), c.drainedAtRebalance());
        if (offPoint != null) {
            part.unverified("the rebalance of the second instance's join " + offPoint);
        }
        if (c.behindAtJoin() == 0 || c.behindAtLeave() == 0) {
            part.unverified("the group had no record behind at the " + (c.behindAtJoin() == 0 ? "join" : "leave")
                    + ": that rebalance did not land mid-drain");
        }
        part.note("The change lands when the broker shows the group rebalancing for the joining instance (its JoinGroup "
                + "reached the coordinator); the group is stable with both a few batches later, once the first instance learnt "
                + "of the rebalance at its next heartbeat (heartbeat.interval.ms, 3 s by default) and rejoined after its "
                + "current batch. Drained = the backlog's share written to raw_totals. Records behind = data records between "
                + "ds-sink's committed offsets and the log end (read, so transaction markers do not count), when the group "
                + "was stable with both instances (join) and with the first alone again (leave). The whole drain's checks "
                + "are in " + part.partOf() + ".");
    }

    /**
     * The whole drain's checks, once the first instance ended: it ended normally, went through a rebalance per join
     * and per leave, left nothing uncommitted and the group nothing behind; every backlog position is in raw_totals,
     * none is written more often than failed commits allow, FINAL equals PG for the drain's customers.
     *
     * @param first         the first instance's summary, or null if its run threw
     * @param outcome       how its run ended, for the report
     * @param others        the summaries of every other instance of the drain
     * @return raw_totals rows beyond one per backlog position
     */
    long check(ClaimEvidence e, SinkSummary first, String outcome, List<SinkSummary> others) {
        return check(e, first, outcome, others, WrittenWhileRemoved.NONE);
    }

    /**
     * As {@link #check(ClaimEvidence, SinkSummary, String, List)}, for a drain whose member the harness removed from
     * the group.
     *
     * @param removed what the harness saw written while the member was out of the group: the only rows the sink may
     *                write again ({@link WrittenWhileRemoved#duplicatesAllowed()})
     */
    long check(ClaimEvidence e, SinkSummary first, String outcome, List<SinkSummary> others, WrittenWhileRemoved removed) {
        return check(e, first, outcome, others, 2 * CHANGES_AT.length, "one per join and one per leave of the second instance",
                removed);
    }

    /**
     * Rows of the backlog the harness saw in raw_totals when it removed a member from the group and when the member was
     * back (the group stable with it again), counted by the harness, not by the sink: every row written in between was
     * written by a member the coordinator no longer knew, so its offsets' commit failed and the partition's next owner
     * writes it again.
     *
     * @param atRemoval rows stored right before the removal
     * @param atRejoin  rows stored once the group was stable with the member again
     */
    record WrittenWhileRemoved(long atRemoval, long atRejoin) {

        /** No member removed: nothing may be written twice. */
        static final WrittenWhileRemoved NONE = new WrittenWhileRemoved(0, 0);

        /** @return rows written between the removal and the rejoin */
        long rows() {
            return Math.max(0, atRejoin - atRemoval);
        }

        /**
         * @return rows the sink may write again: those written while the member was out of the group, and one poll whose
         *     commit was on its way when the removal struck (none without a removal)
         */
        long duplicatesAllowed() {
            return this == NONE ? 0 : rows() + SinkConsumer.MAX_POLL_RECORDS;
        }
    }

    /** @return rows of the backlog's customers in raw_totals now, duplicates included */
    long stored() {
        return s.ch().scalar("SELECT count() FROM raw_totals WHERE " + backlog.customersSql());
    }

    /**
     * As {@link #check(ClaimEvidence, SinkSummary, String, List)}, for a drain with other membership changes and no
     * member removed by the harness.
     *
     * @param changes    rebalances the first instance must go through, each meeting it mid-drain
     * @param whichOnes  what they are, for the report
     */
    long check(ClaimEvidence e, SinkSummary first, String outcome, List<SinkSummary> others, int changes, String whichOnes) {
        return check(e, first, outcome, others, changes, whichOnes, WrittenWhileRemoved.NONE);
    }

    private long check(ClaimEvidence e, SinkSummary first, String outcome, List<SinkSummary> others, int changes, String whichOnes,
                       WrittenWhileRemoved removed) {
        KeyCounts<String> raw = raw();
        e.figure("backlog_records", backlog.positions().size());
        e.figure("first_instance", outcome);
        e.check("first_instance_ended_normally", first != null).isTrue("the first instance's run returned its summary, no exception");
        if (first == null) {
            return raw.excess();
        }
        long othersInserted = others.stream().mapToLong(SinkSummary::inserted).sum();
        long commitErrors = first.commitErrors() + others.stream().mapToLong(SinkSummary::commitErrors).sum();
        long rebalances = e.figure("first_instance_rebalances", first.rebalances());
        long midDrain = e.figure("first_instance_rebalances_mid_drain", first.rebalancesMidDrain());
        e.figure("first_instance_partitions_revoked_mid_drain", first.revokedMidDrain());
        e.check("first_instance_rebalances_expected", rebalances).isAtLeast(changes,
                "rebalances the first instance went through: " + whichOnes);
        if (midDrain < changes) {
            e.unverified("only " + midDrain + " of the " + changes
                    + " rebalances took partitions behind their end offsets from the first instance or handed such partitions to it");
        }
        e.check("first_instance_uncommitted", first.uncommitted()).isZero("records the first instance left uncommitted at its end");
        e.figure("commit_errors", commitErrors);
        e.check("ds_sink_lag_after", s.topics().lag(GROUP, RunNames.CUSTOMER_TOTALS)).isZero("the group's lag once the first instance ended");
        e.check("records_inserted", first.inserted() + othersInserted).isEqualTo(backlog.positions().size() + raw.excess(),
                "rows every instance inserted = the backlog + the raw duplicates");
        e.check("raw_duplicate_rows", raw.excess()).isAtMost(SinkConsumer.MAX_POLL_RECORDS * rebalances,
                "raw_totals rows beyond one per record position: at most one poll (max.poll.records) per rebalance");
        e.figure("rows_written_while_a_member_was_removed", removed.rows());
        e.check("raw_duplicate_rows_beyond_the_removal", raw.excess()).isAtMost(removed.duplicatesAllowed(),
                "what the sink guarantees: it commits what it wrote before its partitions move (each poll's at once, or "
                        + "the deferred ones in onPartitionsRevoked), so a rebalance finds nothing written and uncommitted; "
                        + "only rows written by a member the coordinator no longer knows are written again: those the harness "
                        + "saw written between its removal of the member and the member's rejoin, and one poll whose commit "
                        + "was on its way at the removal — 0 where the harness removed no member. The bound is the harness's "
                        + "count, not the sink's: a sink that reported more commit errors would not widen it");
        e.anomaly(Anomaly.LOST, e.figure("backlog_records_missing_in_raw_totals", raw.missing()));
        e.check("raw_rows_of_other_positions", raw.unexpected()).isZero("rows of this claim's customers at no backlog position");
        Reconciliation.customers(s.pg().truth(), Reconciliation.customerRows(s.ch(), Reconciliation.CUSTOMER_TOTALS_FINAL),
                backlog::isMine).record(e, "PostgreSQL vs customer_totals FINAL, the backlog's customers");
        e.note("Commit errors (" + commitErrors + ") are offset commits that failed and were retried, deferred or left "
                + "to the partitions' new owner (consumer/OffsetCommitter); with the classic protocol the coordinator accepts a "
                + "commit while it prepares a rebalance and the sink commits its revoked partitions in onPartitionsRevoked, "
                + "so a commit fails only if the member was already dropped from the generation. "
                + (commitErrors == 0 ? "None failed in this run: that path is proven by consumer/OffsetCommitterTest, not here."
                        : "None of them ended a run."));
        return raw.excess();
    }
}
