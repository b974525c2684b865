package dev.seams.consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.CommitFailedException;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.consumer.OffsetCommitCallback;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.GroupAuthorizationException;
import org.apache.kafka.common.errors.RebalanceInProgressException;
import org.apache.kafka.common.errors.TimeoutException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * An offset commit that meets a rebalance or an unreachable broker never ends the run (claim B12):
 * retriable failures are retried, a rebalance in progress defers the commit, moved partitions are
 * left to their new owner; only a permanent failure stops the run.
 */
class OffsetCommitterTest {

    private static final TopicPartition P0 = new TopicPartition("customer.totals", 0);
    private static final TopicPartition P1 = new TopicPartition("customer.totals", 1);

    /** A MockConsumer whose commits fail with scripted exceptions, in order, then succeed. */
    private static final class FailingCommits extends MockConsumer<byte[], byte[]> {
        final Deque<KafkaException> failures = new ArrayDeque<>();
        final List<Map<TopicPartition, OffsetAndMetadata>> attempts = new ArrayList<>();

        FailingCommits() {
            super("earliest");
        }

        final Deque<KafkaException> asyncFailures = new ArrayDeque<>();
        final List<OffsetCommitCallback> unanswered = new ArrayList<>();
        boolean holdAsync;

        @Override
        public synchronized void commitAsync(Map<TopicPartition, OffsetAndMetadata> offsets, OffsetCommitCallback callback) {
            if (callback == null) {   // MockConsumer's commitSync commits through here
                super.commitAsync(offsets, null);
                return;
            }
            attempts.add(Map.copyOf(offsets));
            if (holdAsync) {
                unanswered.add(callback);
            } else if (!asyncFailures.isEmpty()) {
                callback.onComplete(offsets, asyncFailures.poll());
            } else {
                super.commitAsync(offsets, callback);
            }
        }

        @Override
        public synchronized void commitSync(Map<TopicPartition, OffsetAndMetadata> offsets, Duration timeout) {
            attempts.add(Map.copyOf(offsets));
            if (!failures.isEmpty()) {
                throw failures.poll();
            }
            super.commitSync(offsets);
        }
    }

    private FailingCommits consumer;
    private OffsetCommitter committer;

    @BeforeEach
    void assign() {
        consumer = new FailingCommits();
        consumer.assign(List.of(P0, P1));
        committer = new OffsetCommitter(consumer);
    }

    private OffsetCommitter.Outcome commit(long offset0) {
        return committer.commit(Map.of(P0, new OffsetAndMetadata(offset0)), Map.of(P0, 10L));
    }

    @Test
    void aCleanCommitCommits() {
        assertThat(commit(10)).isEqualTo(OffsetCommitter.Outcome.COMMITTED);
        assertThat(consumer.committed(Set.of(P0))).containsEntry(P0, new OffsetAndMetadata(10));
        assertThat(committer.pendingRecords()).isZero();
        assertThat(committer.errors()).isZero();
    }

    @Test
    void aRetriableFailureIsRetriedUntilItSucceeds() {
        consumer.failures.add(new TimeoutException("broker unreachable"));
        consumer.failures.add(new TimeoutException("broker unreachable"));

        assertThat(commit(10)).isEqualTo(OffsetCommitter.Outcome.COMMITTED);
        assertThat(consumer.attempts).hasSize(3);
        assertThat(committer.errors()).isEqualTo(2);
        assertThat(committer.pendingRecords()).isZero();
    }

    @Test
    void aRetriableFailureThatGoesOnIsKeptPendingAndGoesWithTheNextCommit() {
        for (int i = 0; i < OffsetCommitter.MAX_ATTEMPTS; i++) {
            consumer.failures.add(new TimeoutException("broker unreachable"));
        }

        assertThat(commit(10)).isEqualTo(OffsetCommitter.Outcome.KEPT_PENDING);
        assertThat(consumer.attempts).hasSize(OffsetCommitter.MAX_ATTEMPTS);
        assertThat(committer.pendingRecords()).isEqualTo(10);

        assertThat(committer.commit(Map.of(P1, new OffsetAndMetadata(4)), Map.of(P1, 4L))).isEqualTo(OffsetCommitter.Outcome.COMMITTED);
        assertThat(consumer.attempts.get(consumer.attempts.size() - 1)).containsOnlyKeys(P1);
        committer.retryPending();
        assertThat(consumer.attempts.get(consumer.attempts.size() - 1)).containsEntry(P0, new OffsetAndMetadata(10));
        assertThat(committer.pendingRecords()).isZero();
    }

    @Test
    void aRebalanceInProgressDefersTheCommitToAfterTheNextPoll() {
        consumer.failures.add(new RebalanceInProgressException("rebalancing"));

        assertThat(commit(10)).isEqualTo(OffsetCommitter.Outcome.DEFERRED);
        assertThat(committer.pendingRecords()).isEqualTo(10);
        committer.retryPending();
        assertThat(consumer.committed(Set.of(P0))).containsEntry(P0, new OffsetAndMetadata(10));
        assertThat(committer.pendingRecords()).isZero();
    }

    @Test
    void aDeferredCommitOfARevokedPartitionIsMadeInTheRevocationCallback() {
        consumer.failures.add(new RebalanceInProgressException("rebalancing"));
        commit(10);

        committer.onRevoked(List.of(P0));

        assertThat(consumer.committed(Set.of(P0))).containsEntry(P0, new OffsetAndMetadata(10));
        assertThat(committer.pendingRecords()).isZero();
        assertThat(committer.leftToNewOwner()).isZero();
    }

    @Test
    void movedPartitionsAreLeftToTheirNewOwner() {
        consumer.failures.add(new CommitFailedException("the group rebalanced"));

        assertThat(commit(10)).isEqualTo(OffsetCommitter.Outcome.LEFT_TO_NEW_OWNER);
        assertThat(committer.pendingRecords()).isZero();
        assertThat(committer.leftToNewOwner()).isEqualTo(10);
        assertThat(consumer.attempts).hasSize(1);
    }

    @Test
    void pendingOffsetsOfPartitionsNoLongerAssignedOrLostAreDropped() {
        consumer.failures.add(new RebalanceInProgressException("rebalancing"));
        commit(10);
        consumer.assign(List.of(P1));

        committer.retryPending();

        assertThat(committer.pendingRecords()).isZero();
        assertThat(committer.leftToNewOwner()).isEqualTo(10);
        consumer.failures.add(new RebalanceInProgressException("rebalancing"));
        committer.commit(Map.of(P1, new OffsetAndMetadata(3)), Map.of(P1, 3L));
        committer.onLost(List.of(P1));
        assertThat(committer.pendingRecords()).isZero();
    }

    @Test
    void aPermanentFailureStopsTheRun() {
        consumer.failures.add(new GroupAuthorizationException("not allowed"));

        RunStoppedException e = catchThrowableOfType(RunStoppedException.class, () -> commit(10));

        assertThat(e.stop()).isEqualTo(RunStoppedException.Stop.FATAL_KAFKA);
        assertThat(e).hasMessageContaining("permanent: GroupAuthorizationException");
    }

    @Test
    void positionsMovedOverMarkersOnlyAreCommittedAfterAnEmptyPoll() {
        consumer.seek(P0, 7);
        consumer.seek(P1, 0);
        commit(5);

        committer.commitSkipped();

        assertThat(consumer.committed(Set.of(P0, P1))).containsEntry(P0, new OffsetAndMetadata(7))
                .as("a partition the group never committed: its position").containsEntry(P1, new OffsetAndMetadata(0));
        int attempts = consumer.attempts.size();
        committer.commitSkipped();
        assertThat(consumer.attempts).as("nothing moved, nothing committed").hasSize(attempts);
    }

    @Test
    void nothingSkippedIsCommittedWhileACommitIsPending() {
        consumer.seek(P0, 7);
        consumer.seek(P1, 0);
        consumer.failures.add(new RebalanceInProgressException("rebalancing"));
        commit(5);
        int attempts = consumer.attempts.size();

        committer.commitSkipped();

        assertThat(consumer.attempts).hasSize(attempts);
        assertThat(committer.pendingRecords()).isEqualTo(10);
    }

    @Test
    void anAsynchronousCommitIsPendingUntilTheBrokerConfirmsIt() {
        consumer.holdAsync = true;
        committer.commitAsync(Map.of(P0, new OffsetAndMetadata(10)), Map.of(P0, 10L));

        assertThat(committer.pendingRecords()).as("sent, not confirmed").isEqualTo(10);
        committer.retryPending();
        assertThat(consumer.attempts).as("an unanswered commit is not repeated after a poll").hasSize(1);

        committer.commitAll();
        assertThat(consumer.committed(Set.of(P0)).get(P0).offset()).isEqualTo(10);
        assertThat(committer.pendingRecords()).isZero();
        consumer.unanswered.forEach(c -> c.onComplete(Map.of(P0, new OffsetAndMetadata(10)), null));
        assertThat(committer.pendingRecords()).isZero();
    }

    @Test
    void aPositionMovedOverAMarkerWhileACommitWasInFlightIsCommittedAfterCommitAll() {
        consumer.seek(P0, 11);   // the batch ended at 10, the transaction's marker at 10
        consumer.seek(P1, 0);
        consumer.holdAsync = true;
        committer.commitAsync(Map.of(P0, new OffsetAndMetadata(10)), Map.of(P0, 10L));
        committer.commitSkipped();
        assertThat(consumer.committed(Set.of(P0))).as("nothing moves over the marker while the batch's commit is in flight")
                .doesNotContainKey(P0);

        committer.commitAll();
        committer.commitSkipped();

        assertThat(consumer.committed(Set.of(P0)).get(P0).offset()).as("the end of the run commits the position past the marker")
                .isEqualTo(11);
    }

    @Test
    void aFailedAsynchronousCommitIsRepeatedSynchronouslyAfterTheNextPoll() {
        consumer.asyncFailures.add(new TimeoutException("broker slow"));
        committer.commitAsync(Map.of(P0, new OffsetAndMetadata(7)), Map.of(P0, 7L));

        assertThat(committer.errors()).isEqualTo(1);
        assertThat(committer.pendingRecords()).isEqualTo(7);
        committer.retryPending();

        assertThat(consumer.committed(Set.of(P0)).get(P0).offset()).isEqualTo(7);
        assertThat(committer.pendingRecords()).isZero();
    }

    @Test
    void aConfirmationOfOlderOffsetsKeepsTheNewerPending() {
        consumer.holdAsync = true;
        committer.commitAsync(Map.of(P0, new OffsetAndMetadata(5)), Map.of(P0, 5L));
        committer.commitAsync(Map.of(P0, new OffsetAndMetadata(9)), Map.of(P0, 4L));

        consumer.unanswered.get(0).onComplete(Map.of(P0, new OffsetAndMetadata(5)), null);

        assertThat(committer.pendingRecords()).as("offset 9 is still unconfirmed").isEqualTo(9);
    }

    /** A commit interval: written batches' offsets wait for it, then go in one asynchronous commit (issue 13 P1). */
    @Test
    void withACommitIntervalOffsetsWaitForItThenGoTogether() {
        long[] now = {0};
        committer = new OffsetCommitter(consumer, Duration.ofSeconds(1), () -> now[0]);

        committer.commitAsync(Map.of(P0, new OffsetAndMetadata(10)), Map.of(P0, 10L));
        now[0] += 300_000_000L;
        committer.commitAsync(Map.of(P0, new OffsetAndMetadata(20), P1, new OffsetAndMetadata(5)), Map.of(P0, 10L, P1, 5L));
        committer.retryPending();   // a poll within the interval: nothing is sent, not even synchronously
        assertThat(consumer.attempts).isEmpty();
        assertThat(committer.deferred()).containsOnly(Map.entry(P0, new OffsetAndMetadata(20)), Map.entry(P1, new OffsetAndMetadata(5)));
        assertThat(committer.pendingRecords()).isEqualTo(25);

        now[0] += 700_000_000L;
        committer.retryPending();   // the first poll after the interval sends what waited, once
        assertThat(consumer.attempts).containsExactly(Map.of(P0, new OffsetAndMetadata(20), P1, new OffsetAndMetadata(5)));
        assertThat(consumer.committed(Set.of(P0, P1))).containsEntry(P0, new OffsetAndMetadata(20)).containsEntry(P1, new OffsetAndMetadata(5));
        assertThat(committer.deferred()).isEmpty();
        assertThat(committer.pendingRecords()).isZero();
    }

    /**
     * The interval applies only while polls come back full (issue 26): a poll that was not full sends what waited at
     * once, and each batch's offsets go at once until a full poll comes again (B9's lag 0 after a restart, G12).
     */
    @Test
    void aPollThatWasNotFullSendsWhatWaitedAndTheNextBatchesAtOnce() {
        long[] now = {0};
        committer = new OffsetCommitter(consumer, Duration.ofSeconds(1), () -> now[0]);

        assertThat(committer.afterPoll(1000, 1000)).as("a full poll: behind").isFalse();   // the batch's offsets wait
        committer.commitAsync(Map.of(P0, new OffsetAndMetadata(1000)), Map.of(P0, 1000L));
        now[0] += 100_000_000L;
        committer.afterPoll(1000, 1000);
        committer.commitAsync(Map.of(P0, new OffsetAndMetadata(2000)), Map.of(P0, 1000L));
        assertThat(consumer.attempts).as("within the interval while behind").isEmpty();

        now[0] += 100_000_000L;
        assertThat(committer.afterPoll(400, 1000)).as("a poll that was not full: caught up").isTrue();   // what waited goes now, before this poll's batch is written
        assertThat(consumer.attempts).containsExactly(Map.of(P0, new OffsetAndMetadata(2000)));
        committer.commitAsync(Map.of(P0, new OffsetAndMetadata(2400)), Map.of(P0, 400L));
        assertThat(consumer.attempts).as("each batch at once while caught up").hasSize(2)
                .last().isEqualTo(Map.of(P0, new OffsetAndMetadata(2400)));
        assertThat(committer.pendingRecords()).isZero();

        committer.afterPoll(1000, 1000);   // behind again: the interval since the last send applies
        committer.commitAsync(Map.of(P0, new OffsetAndMetadata(3400)), Map.of(P0, 1000L));
        assertThat(consumer.attempts).hasSize(2);
        committer.afterPoll(0, 1000);
        assertThat(consumer.attempts).hasSize(3).last().isEqualTo(Map.of(P0, new OffsetAndMetadata(3400)));
    }

    /** A poll that was not full with nothing deferred sends nothing. */
    @Test
    void aPollThatWasNotFullWithNothingWaitingSendsNothing() {
        committer = new OffsetCommitter(consumer, Duration.ofSeconds(1), () -> 0L);
        assertThat(committer.afterPoll(0, 1000)).isTrue();
        assertThat(consumer.attempts).isEmpty();
    }

    @Test
    void deferredOffsetsAreCommittedAtTheEndAndOnRevocation() {
        committer = new OffsetCommitter(consumer, Duration.ofHours(1), () -> 0L);
        committer.commitAsync(Map.of(P0, new OffsetAndMetadata(10), P1, new OffsetAndMetadata(3)), Map.of(P0, 10L, P1, 3L));

        committer.onRevoked(List.of(P1));
        assertThat(consumer.committed(Set.of(P1))).containsEntry(P1, new OffsetAndMetadata(3));
        assertThat(committer.deferred()).containsOnlyKeys(P0);

        committer.commitAll();
        assertThat(consumer.committed(Set.of(P0))).containsEntry(P0, new OffsetAndMetadata(10));
        assertThat(committer.deferred()).isEmpty();
        assertThat(committer.pendingRecords()).isZero();
    }

    @Test
    void deferredOffsetsHoldBackTheCommitOfSkippedPositions() {
        committer = new OffsetCommitter(consumer, Duration.ofHours(1), () -> 0L);
        consumer.updateBeginningOffsets(Map.of(P0, 0L, P1, 0L));
        consumer.seek(P0, 12);
        consumer.seek(P1, 0);
        committer.commitAsync(Map.of(P0, new OffsetAndMetadata(11)), Map.of(P0, 11L));

        committer.commitSkipped();   // the position past a marker waits too: committing it would commit the deferred batch's offsets
        assertThat(consumer.attempts).isEmpty();
    }

    @Test
    void aNegativeCommitIntervalIsRejected() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new OffsetCommitter(consumer, Duration.ofMillis(-1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("must not be negative");
    }
}
