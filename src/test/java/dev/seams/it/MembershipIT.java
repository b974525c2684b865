package dev.seams.it;

import static org.awaitility.Awaitility.await;

import dev.seams.consumer.SinkConsumer;
import dev.seams.faults.FaultSchedule;
import dev.seams.fixture.StandContext;
import dev.seams.report.Claim;
import dev.seams.report.ClaimEvidence;
import dev.seams.sink.Sink;
import dev.seams.sink.SinkOptions;
import dev.seams.sink.SinkSummary;
import dev.seams.truth.Groups;
import dev.seams.truth.RunNames;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Group membership changes stop nothing (claim B12), with the sink's defaults: a first sink instance drains a backlog
 * of {@value MembershipDrain#BACKLOG} records while a second instance of the same group joins and leaves three times
 * ({@link MembershipDrain}: the backlog, the stays, where they landed and the drain's checks). After the second stay the
 * first instance, alone again, is removed from the group by the Admin API so that a commit of it fails, and must go on
 * (B12[failing commit]). Then a hold on a fresh backlog ({@link MembershipHold}): a holder owns partitions it writes
 * slowly while the first instance, run with {@code --until-caught-up}, catches up on its own; it must go on polling (it
 * judges the whole group, {@code consumer/PollSession}), and drains what the holder held once it left
 * (B12[until caught up]). Expected: the first instance ends normally with its summary, the group's lag is 0,
 * {@code customer_totals FINAL} equals PG for the backlog's customers, raw rows beyond one per record position
 * ({@code raw_totals.kafka_partition/kafka_offset}) are at most one poll ({@code max.poll.records}) per failed commit,
 * and an offset commit that meets a rebalance is counted ({@code commit_errors}), never fatal. With a commit interval
 * and its twin: {@code MembershipFaultIT}.
 */
@ExtendWith(StandContext.Resolver.class)
class MembershipIT {

    private static final String GROUP = MembershipDrain.GROUP;
    /** This claim's own customers, 1201..1260. */
    private static final int FIRST_CUSTOMER = 1201;
    /**
     * The stay after which the first instance, alone again, is removed from the group (a forced failing commit): the
     * second, so that the third stay still finds the drain under way.
     */
    private static final double REMOVE_AFTER_STAY = MembershipDrain.CHANGES_AT[1];

    @Test
    @Claim(id = "B12", title = "Group membership changes stop nothing", exercises = {"sink/Sink", "consumer/PollSession",
            "consumer/OffsetCommitter", "consumer/Rebalances", "consumer/SinkConsumer"})
    void b12MembershipChangesStopNothing(ClaimEvidence e, StandContext s) throws Exception {
        MembershipDrain drain = MembershipDrain.seed(s, FIRST_CUSTOMER, UnaryOperator.identity());
        ExecutorService threads = Executors.newCachedThreadPool();
        MembershipDrain.Stays stays;
        Removal[] removal = {null};
        SinkSummary first = null;
        String outcome;
        try {
            stays = drain.start(threads, (target, firstRun) -> {
                if (target == REMOVE_AFTER_STAY) {
                    removal[0] = removeFirst(s, drain, firstRun);
                }
            });
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
        MembershipDrain.WrittenWhileRemoved removed = removal[0] == null ? MembershipDrain.WrittenWhileRemoved.NONE
                : removal[0].written();
        long duplicates = drain.check(e, first, outcome, stays.changes().stream().map(c -> c.result().second()).toList(), removed);
        recordRemoval(e.part("failing commit"), removal[0], first, duplicates);

        MembershipHold holding = MembershipHold.seed(s);   // after the drain's checks: it resets the group
        holding.record(e, holding.run());
        e.note("With the sink's default commit interval (" + SinkOptions.DEFAULT_COMMIT_INTERVAL.toMillis() + " ms, and only "
                + "while behind) and this drain's one batch a second, every batch's offsets are committed right after its insert, "
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
     * @param written the backlog's rows the harness saw stored at the removal and at the rejoin
     */
    private record Removal(double drained, long behind, boolean removed, MembershipDrain.WrittenWhileRemoved written) {
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
        Groups groups = Groups.of(s.endpoints().admin());
        double drained = drain.drained();
        long behind = MembershipDrain.dataBehind(s.topics());
        long storedAtRemoval = drain.stored();
        boolean removed = groups.removeAllMembers(GROUP);
        int partitions = s.topics().partitionCount(RunNames.CUSTOMER_TOTALS);
        await("the first instance rejoined after its removal").atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofMillis(100))
                .until(() -> firstRun.isDone() || groups.stableAssignments(GROUP)
                        .filter(a -> a.size() == 1 && a.get(0).size() == partitions).isPresent());
        return new Removal(drained, behind, removed, new MembershipDrain.WrittenWhileRemoved(storedAtRemoval, drain.stored()));
    }

    /**
     * The forced failing commit's entry B12[failing commit]: the removal met records behind, and the first instance wrote
     * rows while it was out of the group (the harness's count, {@code rows_written_while_removed}; none: UNVERIFIED, the
     * failing path did not run). Those rows' commits failed, so each is written again by the member once it rejoined:
     * {@code raw_duplicate_rows} is expected to equal them, within one poll either way (a commit on its way at the
     * removal; a poll of the rejoined member counted before the harness saw it back). That its run still ended normally
     * — "a failing offset commit is retried, not fatal" — is B12's own check {@code first_instance_ended_normally},
     * which this part's verdict follows. The sink's own count of failed commits is a figure, never a bound.
     *
     * @param duplicates raw_totals rows beyond one per backlog position, B12's
     */
    private static void recordRemoval(ClaimEvidence part, Removal removal, SinkSummary first, long duplicates) {
        if (removal == null || first == null) {
            part.unverified(first == null ? "the first instance did not end normally (see " + part.partOf() + ")"
                    : "the first instance had ended before the removal: no commit could fail");
            return;
        }
        part.figure("drained_at_removal", FaultSchedule.percent(removal.drained()));
        part.figure("records_behind_at_removal", removal.behind());
        part.figure("member_removed", removal.removed());
        long written = part.figure("rows_written_while_removed", removal.written().rows());
        part.figure("first_instance_commit_errors", first.commitErrors());
        if (!removal.removed() || removal.behind() == 0) {
            part.unverified(!removal.removed() ? "the broker removed no member" : "no record was behind at the removal");
        } else if (written == 0) {
            part.unverified("the first instance wrote nothing while it was out of the group: no commit could fail");
        } else {
            part.check("raw_duplicate_rows_vs_rows_written_while_removed", Math.abs(duplicates - written))
                    .isAtMost(SinkConsumer.MAX_POLL_RECORDS, "raw_duplicate_rows (" + duplicates + ") against the rows the "
                            + "harness saw written while the member was out of the group (" + written + "): each of those "
                            + "is written again after the rejoin, and nothing else is; within one poll either way");
        }
        part.note("The first instance, alone in the group after the second stay, is removed by the Admin API "
                + "(removeMembersFromConsumerGroup, KIP-571) while it drains: the commits of what it writes until it notices "
                + "name a member the coordinator no longer knows and fail (consumer/OffsetCommitter counts them, keeps or "
                + "drops the offsets), the consumer rejoins at its next poll and the run goes on, writing those rows again.");
    }
}
