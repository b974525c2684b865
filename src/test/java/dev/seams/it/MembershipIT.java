package dev.seams.it;

import static org.awaitility.Awaitility.await;

import dev.seams.consumer.SinkConsumer;
import dev.seams.faults.FaultSchedule;
import dev.seams.fixture.Pipeline;
import dev.seams.fixture.StandContext;
import dev.seams.report.Claim;
import dev.seams.report.ClaimEvidence;
import dev.seams.sink.Sink;
import dev.seams.sink.SinkMode;
import dev.seams.sink.SinkSummary;
import dev.seams.truth.Groups;
import dev.seams.truth.Topics;
import dev.seams.wire.TopicNames;
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
import java.util.function.UnaryOperator;
import org.apache.kafka.common.TopicPartition;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Group membership changes stop nothing (claim B12), with the sink's defaults: a first sink instance drains a backlog
 * of {@value #ORDERS} records while a second instance of the same group joins and leaves three times ({@link MembershipDrain}: the backlog, the
 * stays, where they landed and the drain's checks). After the second stay the first instance, alone again, is removed
 * from the group by the Admin API so that a commit of it fails, and must go on (B12[failing commit]). After the three
 * stays a holder (a third instance, {@value #HOLDER_DELAY_MS} ms before each batch) joins and keeps its partitions
 * more than one poll behind until the first instance's own are caught up: the first, run with
 * {@code --until-caught-up}, must go on polling (it judges the whole group, {@code consumer/PollSession}); the holder then leaves and the first drains what it held. Expected: the first instance
 * ends normally with its summary, the group's lag is 0, {@code customer_totals FINAL} equals PG for the backlog's
 * customers, raw rows beyond one per record position ({@code raw_totals.kafka_partition/kafka_offset}) are at most one
 * poll ({@code max.poll.records}) per failed commit, and an offset commit that meets a rebalance is counted
 * ({@code commit_errors}), never fatal. With a commit interval and its twin: {@code MembershipFaultIT}.
 */
@ExtendWith(StandContext.Resolver.class)
class MembershipIT {

    private static final String GROUP = MembershipDrain.GROUP;
    /** This claim's own customers, 1201..1260. */
    private static final int FIRST_CUSTOMER = 1201;
    /**
     * The stay after which the first instance, alone again, is removed from the group (a forced failing commit): the
     * second, so that the third stay and the holder still find the drain under way.
     */
    private static final double REMOVE_AFTER_STAY = MembershipDrain.CHANGES_AT[1];
    /**
     * Orders of this drain: more than the drain's usual {@value MembershipDrain#BACKLOG}, so that the holder still finds
     * the drain under way. A stay moves the drain by about 7,500 records; with 30,000 the third left about 5,400 to
     * drain, and once the first instance drained them all before the holder's join was stable (29,000 rows written).
     */
    private static final int ORDERS = 40_000;

    @Test
    @Claim(id = "B12", title = "Group membership changes stop nothing", exercises = {"sink/Sink", "consumer/PollSession",
            "consumer/OffsetCommitter", "consumer/Rebalances", "consumer/SinkConsumer"})
    void b12MembershipChangesStopNothing(ClaimEvidence e, StandContext s) throws Exception {
        MembershipDrain drain = MembershipDrain.seed(s, FIRST_CUSTOMER, ORDERS, UnaryOperator.identity());
        ExecutorService threads = Executors.newCachedThreadPool();
        MembershipDrain.Stays stays;
        Removal[] removal = {null};
        Hold hold;
        SinkSummary first = null;
        String outcome;
        try {
            stays = drain.start(threads, (target, firstRun) -> {
                if (target == REMOVE_AFTER_STAY) {
                    removal[0] = removeFirst(s, drain, firstRun);
                }
            });
            hold = holdBehind(s, drain, threads, stays.firstRun());
            try {
                first = stays.firstRun().get(3, TimeUnit.MINUTES);
                outcome = "ended normally: " + first.line();
            } catch (ExecutionException ended) {
                outcome = "threw " + ended.getCause();
            }
        } finally {
            threads.shutdownNow();
        }

        MembershipDrain.recordStays(e, "", stays.changes());
        e.figure("drained_when_the_holder_started", FaultSchedule.percent(hold.drainedAtStart()));
        e.figure("holder_summary", hold.holder().line());
        e.figure("records_behind_on_the_holders_partitions", hold.behindOnHolder());
        if (!hold.seen()) {
            e.unverified("the first instance's own partitions were never caught up while the holder's were more than one "
                    + "poll (" + SinkConsumer.MAX_POLL_RECORDS + " records) behind: its --until-caught-up was not put to the test");
        }
        e.check("first_instance_ended_while_the_group_was_behind", hold.firstEnded()).isEqualTo(false,
                "--until-caught-up ends a run when the whole group caught up, not only the member's own partitions "
                        + "(a member whose own are caught up while another member holds partitions behind keeps polling)");
        recordRemoval(e.part("failing commit"), removal[0], first);
        List<SinkSummary> others = new ArrayList<>(stays.changes().stream().map(c -> c.result().second()).toList());
        others.add(hold.holder());
        drain.check(e, first, outcome, others);
        e.note("With the sink's default, no commit interval, every batch's offsets are committed right after its insert, "
                + "so a rebalance finds nothing written and uncommitted: a rebalance listener that no longer commits the "
                + "revoked partitions changes nothing this drain can see. With --commit-interval it does: "
                + "B12[commit interval 5s] (-Pfaults) runs this drain with a 5 s interval beside a twin whose listener "
                + "forgets the revoked partitions' written offsets, and the twin's duplicates show it.");
    }

    /**
     * The first instance removed from the group by the Admin API while it drains alone (a forced failing commit).
     *
     * @param drained the backlog's share written when it was removed
     * @param behind  data records behind the group's committed offsets then
     * @param removed whether the broker removed a member
     */
    private record Removal(double drained, long behind, boolean removed) {
    }

    /**
     * A failing offset commit, forced (issue 36): the first instance, alone again after a stay, is removed from the
     * group (Admin API {@code removeMembersFromConsumerGroup}, KIP-571) while it drains; the commit of its batch in hand
     * carries a member the coordinator no longer knows and fails. Then the test waits until it rejoined.
     *
     * @return the removal, or null if the first instance had already ended
     */
    private static Removal removeFirst(StandContext s, MembershipDrain drain, CompletableFuture<SinkSummary> firstRun) {
        if (firstRun.isDone()) {
            return null;
        }
        Groups groups = Groups.of(s.stand().admin());
        Removal removal = new Removal(drain.drained(), MembershipDrain.dataBehind(s.topics()), groups.removeAllMembers(GROUP));
        int partitions = s.topics().partitionCount(TopicNames.CUSTOMER_TOTALS);
        await("the first instance rejoined after its removal").atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofMillis(100))
                .until(() -> firstRun.isDone() || groups.stableAssignments(GROUP)
                        .filter(a -> a.size() == 1 && a.get(0).size() == partitions).isPresent());
        return removal;
    }

    /**
     * The forced failing commit's entry B12[failing commit]: the removal met records behind and a commit of the first
     * instance failed ({@code first_instance_commit_errors}; none: UNVERIFIED, as without a removal that met records
     * behind). That its run still ended normally — "a failing offset commit is retried, not fatal" — is B12's own
     * check {@code first_instance_ended_normally}, which this part's verdict follows; what the failed commits left to
     * be written again is bounded in B12 (one poll per failed commit).
     */
    private static void recordRemoval(ClaimEvidence part, Removal removal, SinkSummary first) {
        if (removal == null || first == null) {
            part.unverified(first == null ? "the first instance did not end normally (see " + part.partOf() + ")"
                    : "the first instance had ended before the removal: no commit could fail");
            return;
        }
        part.figure("drained_at_removal", FaultSchedule.percent(removal.drained()));
        part.figure("records_behind_at_removal", removal.behind());
        part.figure("member_removed", removal.removed());
        part.figure("first_instance_commit_errors", first.commitErrors());
        if (!removal.removed() || removal.behind() == 0) {
            part.unverified(!removal.removed() ? "the broker removed no member" : "no record was behind at the removal");
        } else if (first.commitErrors() == 0) {
            part.unverified("no offset commit of the first instance failed after its removal: the failing path did not run");
        }
        part.note("The first instance, alone in the group after the second stay, is removed by the Admin API "
                + "(removeMembersFromConsumerGroup, KIP-571) while it drains: the commit of its batch in hand names a member "
                + "the coordinator no longer knows and fails (consumer/OffsetCommitter counts it, keeps or drops the offsets), "
                + "the consumer rejoins at its next poll and the run goes on. " + part.partOf() + " bounds the rows written "
                + "again by one poll per failed commit.");
    }

    /**
     * The holder: a second instance whose every batch waits {@value #HOLDER_DELAY_MS} ms before its insert, so that
     * its partitions stay behind while the first instance catches up on its own.
     *
     * @param drainedAtStart the backlog's share written when the holder started
     * @param seen          whether the group was stable with the first instance's partitions caught up and the
     *                      holder's more than one poll behind (so that the holder cannot catch up while it is watched)
     * @param firstEnded    whether the first instance's run had ended by {@value #HOLD_MS} ms after that
     * @param behindOnHolder data records behind on the holder's partitions then
     * @param holder        the holder's summary
     */
    private record Hold(double drainedAtStart, boolean seen, boolean firstEnded, long behindOnHolder, SinkSummary holder) {
    }

    /** FAULT INJECTION: the holder's pause before each batch's inserts, ms. */
    private static final long HOLDER_DELAY_MS = 8_000;
    /** The holder's {@code group.instance.id}: the group's view tells it from the first instance (dynamic) by it. */
    private static final String HOLDER_ID = "ds-sink-b12-holder";
    /** How long the first instance, caught up on its own partitions, is watched while the holder's are behind, ms. */
    private static final long HOLD_MS = 2_000;

    /**
     * After the stays: a holder joins and keeps its partitions behind until the first instance's own are caught up;
     * the first must go on polling (PollSession's --until-caught-up judges the group). The holder then leaves and the
     * first drains what it held.
     */
    private static Hold holdBehind(StandContext s, MembershipDrain drain, ExecutorService threads, CompletableFuture<SinkSummary> firstRun)
            throws InterruptedException, ExecutionException, TimeoutException {
        Groups groups = Groups.of(s.stand().admin());
        Topics topics = s.topics();
        Sink holder = new Sink(Pipeline.sinkOptions(s.stand(), SinkMode.TOTALS,
                o -> o.withInsertDelay(Duration.ofMillis(HOLDER_DELAY_MS)).withRunFor(Duration.ofMinutes(2))
                        .withInstanceId(HOLDER_ID)));
        double drainedAtStart = drain.drained();
        CompletableFuture<SinkSummary> run = CompletableFuture.supplyAsync(holder::run, threads);
        long[] behindOnHolder = {0};
        boolean seen;
        try {
            await("one member caught up while the other holds partitions behind").atMost(Duration.ofMinutes(1))
                    .pollInterval(Duration.ofMillis(200)).until(() -> {
                        if (firstRun.isDone()) {
                            return true;
                        }
                        // the first instance (dynamic) caught up on its own partitions, the holder (HOLDER_ID) behind
                        // on its: the other way round puts nothing to the test
                        Optional<Map<String, Set<TopicPartition>>> members = groups.stableAssignmentsByMember(GROUP);
                        if (members.isEmpty() || members.get().size() != 2 || !members.get().containsKey(HOLDER_ID)
                                || members.get().values().stream().anyMatch(Set::isEmpty)) {
                            return false;
                        }
                        Map<Integer, Long> behind = new HashMap<>();
                        topics.lagProbe().describe(GROUP, TopicNames.CUSTOMER_TOTALS)
                                .forEach(l -> behind.put(l.partition(), l.dataRecordsBehind()));
                        long onFirst = 0;
                        long onHolder = 0;
                        for (Map.Entry<String, Set<TopicPartition>> m : members.get().entrySet()) {
                            long sum = m.getValue().stream().mapToLong(tp -> behind.getOrDefault(tp.partition(), 0L)).sum();
                            if (m.getKey().equals(HOLDER_ID)) {
                                onHolder = sum;
                            } else {
                                onFirst = sum;
                            }
                        }
                        behindOnHolder[0] = onHolder;
                        // more than one poll behind: the holder's batch in hand (at most one poll, then
                        // HOLDER_DELAY_MS > HOLD_MS before the next) cannot catch it up during the watch
                        return onFirst == 0 && onHolder > SinkConsumer.MAX_POLL_RECORDS;
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
        boolean ended = seen && firstRun.isDone();   // a first instance that ended before the watch began is no evidence
        holder.stop();
        return new Hold(drainedAtStart, seen, ended, behindOnHolder[0], run.get(1, TimeUnit.MINUTES));
    }
}
