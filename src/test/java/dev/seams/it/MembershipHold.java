package dev.seams.it;

import static org.awaitility.Awaitility.await;

import dev.seams.consumer.SinkConsumer;
import dev.seams.fixture.Pipeline;
import dev.seams.fixture.StandContext;
import dev.seams.report.ClaimEvidence;
import dev.seams.sink.Sink;
import dev.seams.sink.SinkMode;
import dev.seams.sink.SinkOptions;
import dev.seams.sink.SinkSummary;
import dev.seams.truth.Groups;
import dev.seams.truth.RunNames;
import dev.seams.truth.Topics;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.UnaryOperator;
import org.apache.kafka.common.TopicPartition;
import org.awaitility.core.ConditionTimeoutException;

/**
 * B12's hold: {@code --until-caught-up} judges the whole group, not the member's own partitions
 * ({@code consumer/PollSession}). A backlog of {@value #ORDERS} records of its own customers; a holder — a sink instance
 * pausing {@value #HOLDER_DELAY_MS} ms before each batch's inserts (TEST-ONLY fault injection) — joins the group alone
 * and owns every partition; then the first instance, with the sink's defaults and {@code --until-caught-up}, joins. The
 * group's assignment gives the first some partitions and leaves the holder others, whose records the holder writes one
 * poll per {@value #HOLDER_DELAY_MS} ms: the first catches up on its own partitions within seconds while the holder's are
 * thousands of records behind. It must go on polling; once the holder is gone, it takes over and drains what the holder
 * held, then ends. The holder is a static member, which does not leave the group when it closes (classic protocol):
 * its session timeout is {@value #HOLDER_SESSION_TIMEOUT_S} s, so that the group hands its partitions on that soon.
 *
 * <p>The holder joins first, on a fresh backlog, so that the precondition does not race the drain: started after a
 * drain's stays (as until 2026-12), it found the first instance's own partition still holding most of what was left
 * and its own nearly drained in about one run in five (the consumer drains its partitions unevenly), and the claim was
 * UNVERIFIED.
 */
final class MembershipHold {

    /** This hold's customers, 1441..1500 (B12's drain has 1201..1260, B12[commit interval]'s drains 1261..1440). */
    static final int FIRST_CUSTOMER = 1441;
    /** Orders of the hold's backlog: each partition holds thousands of records, more than the holder writes during it. */
    static final int ORDERS = 9_000;
    /** FAULT INJECTION: the holder's pause before each batch's inserts, ms. */
    static final long HOLDER_DELAY_MS = 8_000;
    /** The holder's {@code group.instance.id}: the group's view tells it from the first instance (dynamic) by it. */
    static final String HOLDER_ID = "ds-sink-b12-holder";
    /** The holder's {@code session.timeout.ms}, s: how long the group keeps its partitions once it closed. */
    static final long HOLDER_SESSION_TIMEOUT_S = 10;
    /** How long the first instance, caught up on its own partitions, is watched while the holder's are behind, ms. */
    static final long HOLD_MS = 2_000;

    /**
     * What the hold saw.
     *
     * @param watch   the precondition and the watch of the first instance ({@link Watch})
     * @param holder  the holder's summary
     * @param first   the first instance's summary, or null if its run threw or did not end
     * @param outcome how the first instance's run ended, for the report
     */
    record Hold(Watch watch, SinkSummary holder, SinkSummary first, String outcome) {
    }

    /**
     * The precondition and the watch of the first instance.
     *
     * @param seen           whether the group was stable with the first instance's partitions caught up and the
     *                       holder's more than one poll behind (so that the holder cannot catch up while it is watched)
     * @param firstEnded     whether the first instance's run ended normally while the holder still held partitions
     *                       behind: before the holder's stop, with the group's data records behind above 0 (whether or
     *                       not the precondition was seen first: ending then is the fault itself)
     * @param behindOnHolder data records behind on the holder's partitions at the last look
     * @param look           when the group was first stable with both instances and what the last look saw (each
     *                       instance's partitions and the records behind on each): the precondition's evidence
     */
    record Watch(boolean seen, boolean firstEnded, long behindOnHolder, String look) {
    }

    private final StandContext s;
    private final MembershipDrain backlog;

    private MembershipHold(StandContext s, MembershipDrain backlog) {
        this.s = s;
        this.backlog = backlog;
    }

    /**
     * Seeds the hold's backlog ({@link MembershipDrain#seed}: the group reset to the topic's end first).
     *
     * @return the hold, ready to {@link #run}
     */
    static MembershipHold seed(StandContext s) throws Exception {
        return new MembershipHold(s, MembershipDrain.seed(s, FIRST_CUSTOMER, ORDERS, UnaryOperator.identity()));
    }

    /**
     * The holder joins and owns every partition; the first instance joins; once its own partitions are caught up while
     * the holder's are more than one poll behind, it is watched {@value #HOLD_MS} ms; the holder stops and, its
     * session over, its partitions go to the first, which drains the rest and ends.
     *
     * @return what the hold saw, both instances ended (or asked to)
     * @throws TimeoutException if the holder does not end within a minute of its stop
     */
    Hold run() throws InterruptedException, ExecutionException, TimeoutException {
        ExecutorService threads = Executors.newCachedThreadPool();
        try {
            return run(threads);
        } finally {
            threads.shutdownNow();
        }
    }

    private Hold run(ExecutorService threads) throws InterruptedException, ExecutionException, TimeoutException {
        Groups groups = Groups.of(s.endpoints().admin());
        int partitions = s.topics().partitionCount(RunNames.CUSTOMER_TOTALS);
        Sink holder = new Sink(Pipeline.sinkOptions(s.endpoints(), SinkMode.TOTALS,
                o -> o.withInsertDelay(Duration.ofMillis(HOLDER_DELAY_MS)).withRunFor(Duration.ofMinutes(2))
                        .withInstanceId(HOLDER_ID).withSessionTimeout(Duration.ofSeconds(HOLDER_SESSION_TIMEOUT_S))));
        CompletableFuture<SinkSummary> holderRun = CompletableFuture.supplyAsync(holder::run, threads);
        await("the holder owns every partition").atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofMillis(100))
                .until(() -> holderRun.isDone() || groups.stableAssignmentsByMember(MembershipDrain.GROUP)
                        .filter(m -> m.size() == 1 && m.getOrDefault(HOLDER_ID, Set.of()).size() == partitions).isPresent());
        Sink first = new Sink(Pipeline.sinkOptions(s.endpoints(), SinkMode.TOTALS, SinkOptions::withUntilCaughtUp));
        try {
            CompletableFuture<SinkSummary> firstRun = CompletableFuture.supplyAsync(first::run, threads);
            Watch watch = watch(groups, firstRun);
            holder.stop();
            SinkSummary holderSummary = holderRun.get(1, TimeUnit.MINUTES);
            SinkSummary firstSummary = null;
            String outcome;
            try {
                firstSummary = firstRun.get(3, TimeUnit.MINUTES);
                outcome = "ended normally: " + firstSummary.line();
            } catch (ExecutionException ended) {
                outcome = "threw " + ended.getCause();
            } catch (TimeoutException notEnded) {
                outcome = "did not end within 3 min of the holder's stop";
            }
            return new Hold(watch, holderSummary, firstSummary, outcome);
        } finally {
            holder.stop();
            first.stop();
        }
    }

    /** Waits for the precondition (the first caught up on its own, the holder behind), then watches the first. */
    private Watch watch(Groups groups, CompletableFuture<SinkSummary> firstRun) {
        Topics topics = s.topics();
        long t0 = System.nanoTime();
        long[] behindOnHolder = {0};
        String[] lastLook = {"the group was never seen stable with the two instances"};
        double[] stableAfter = {Double.NaN};
        boolean seen;
        try {
            await("one member caught up while the other holds partitions behind").atMost(Duration.ofMinutes(1))
                    .pollInterval(Duration.ofMillis(200)).until(() -> {
                        if (firstRun.isDone()) {
                            return true;
                        }
                        // the first instance (dynamic) caught up on its own partitions, the holder (HOLDER_ID) behind
                        // on its: the other way round puts nothing to the test
                        Optional<Map<String, Set<TopicPartition>>> members = groups.stableAssignmentsByMember(MembershipDrain.GROUP);
                        if (members.isEmpty() || members.get().size() != 2 || !members.get().containsKey(HOLDER_ID)
                                || members.get().values().stream().anyMatch(Set::isEmpty)) {
                            return false;
                        }
                        double seconds = Math.round((System.nanoTime() - t0) / 1e8) / 10.0;
                        if (Double.isNaN(stableAfter[0])) {
                            stableAfter[0] = seconds;
                        }
                        Map<Integer, Long> behind = new HashMap<>();
                        topics.lagProbe().describe(MembershipDrain.GROUP, RunNames.CUSTOMER_TOTALS)
                                .forEach(l -> behind.put(l.partition(), l.dataRecordsBehind()));
                        Map<Integer, Long> onHolder = new TreeMap<>();
                        Map<Integer, Long> onFirst = new TreeMap<>();
                        members.get().forEach((member, assigned) -> assigned.forEach(tp -> (member.equals(HOLDER_ID) ? onHolder : onFirst)
                                .put(tp.partition(), behind.getOrDefault(tp.partition(), 0L))));
                        behindOnHolder[0] = sum(onHolder);
                        lastLook[0] = seconds + " s after the first instance started: records behind by partition, first instance "
                                + onFirst + ", holder " + onHolder;
                        // more than one poll behind: the holder's batch in hand (at most one poll, then
                        // HOLDER_DELAY_MS > HOLD_MS before the next) cannot catch it up during the watch
                        return sum(onFirst) == 0 && behindOnHolder[0] > SinkConsumer.MAX_POLL_RECORDS;
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
                // ended during the watch: recorded below
            }
        }
        // the holder has not left: a first instance that ended now, normally, ended with the group behind (if it is);
        // one that threw is first_instance_ended_normally's failure, not this one's
        boolean endedNormally = firstRun.isDone() && !firstRun.isCompletedExceptionally();
        long behindAtEnd = endedNormally ? MembershipDrain.dataBehind(topics) : 0;
        String look = "stable with both instances " + stableAfter[0] + " s after the first instance started; last look: " + lastLook[0]
                + (endedNormally ? "; then the first instance ended with the group " + behindAtEnd + " records behind"
                        : firstRun.isDone() ? "; then the first instance's run threw" : "");
        return new Watch(seen, behindAtEnd > 0, behindOnHolder[0], look);
    }

    private static long sum(Map<Integer, Long> behind) {
        return behind.values().stream().mapToLong(Long::longValue).sum();
    }

    /**
     * Records the hold: its precondition and the key check on B12 itself ({@code first_instance_ended_while_the_group_was_behind}),
     * the drain's checks (ended normally, lag 0, every record written, FINAL = PG) on its own entry B12[until caught up].
     *
     * @param e B12's evidence
     */
    void record(ClaimEvidence e, Hold hold) {
        Watch watch = hold.watch();
        e.figure("holder_summary", hold.holder().line());
        e.figure("records_behind_on_the_holders_partitions", watch.behindOnHolder());
        e.figure("holder_watch", watch.look());
        if (!watch.seen() && !watch.firstEnded()) {
            e.unverified("the first instance's own partitions were never caught up while the holder's were more than one "
                    + "poll (" + SinkConsumer.MAX_POLL_RECORDS + " records) behind: its --until-caught-up was not put to the test ("
                    + watch.look() + ")");
        }
        e.check("first_instance_ended_while_the_group_was_behind", watch.firstEnded()).isEqualTo(false,
                "--until-caught-up ends a run when the whole group caught up, not only the member's own partitions "
                        + "(a member whose own are caught up while another member holds partitions behind keeps polling)");
        ClaimEvidence part = e.part("until caught up");
        backlog.check(part, hold.first(), hold.outcome(), List.of(hold.holder()), 1,
                "one: the holder's departure (its session's end), which hands it the holder's partitions, still behind");
        part.note("The hold of " + part.partOf() + ": a holder (" + HOLDER_DELAY_MS + " ms before each batch) owns every "
                + "partition, the first instance joins with --until-caught-up, catches up on the partitions it was given and "
                + "must go on polling while the holder's are behind (" + part.partOf() + "'s check "
                + "first_instance_ended_while_the_group_was_behind); the holder stops (a static member: the group hands its "
                + "partitions on when its " + HOLDER_SESSION_TIMEOUT_S + " s session ends) and the first drains what it held. "
                + "This entry is that drain's outcome: nothing lost, nothing written twice beyond failed commits, FINAL = PG.");
    }
}
