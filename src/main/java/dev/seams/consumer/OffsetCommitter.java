package dev.seams.consumer;

import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.LongSupplier;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.CommitFailedException;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RebalanceInProgressException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Commits a written batch's offsets so that group membership changes and a briefly unreachable
 * broker never end the run (claim B12; docs/sink.md: rebalance during commit is retriable).
 * Offsets not yet committed stay <em>pending</em> per partition, with the number of records behind them:
 * <ul>
 *   <li>a retriable failure ({@link KafkaErrors}: e.g. {@code TimeoutException},
 *       {@code RetriableCommitFailedException}) is retried with {@link Backoff}, each attempt bounded
 *       by {@value #ATTEMPT_TIMEOUT_S} s, at most {@value #MAX_ATTEMPTS} attempts in a row (so the
 *       loop polls again well within {@code max.poll.interval.ms}); then the offsets stay pending and
 *       go with the next commit, and if the run ends first their records count in
 *       {@link #pendingRecords()} (the next run re-reads them);</li>
 *   <li>{@link RebalanceInProgressException}: the group is rebalancing; the offsets stay pending and are
 *       committed in {@link #onRevoked} if the partitions move, or by {@link #retryPending()} after the
 *       next poll if they stay;</li>
 *   <li>{@link CommitFailedException}: the partitions already moved to another member; the offsets are
 *       dropped and logged — the new owner re-reads those records (the batches written since the last
 *       confirmed commit are written twice into the raw table: one poll, or while the consumer is behind up to
 *       one commit interval of polls; harmless to FINAL/argMax);</li>
 *   <li>anything else (e.g. {@code GroupAuthorizationException}, {@code FencedInstanceIdException}):
 *       {@link RunStoppedException} with {@link RunStoppedException.Stop#FATAL_KAFKA}.</li>
 * </ul>
 * A sink that must not wait for each commit uses {@link #commitAsync}: the offsets are sent after
 * the write was acknowledged, as always, and stay pending until the broker confirms them; one that
 * failed is committed again, synchronously, by {@link #retryPending()} after the next poll, and
 * {@link #commitAll()} (end of the run) and {@link #onRevoked} commit whatever is still unconfirmed.
 * With a <em>commit interval</em> ({@code --commit-interval}, like the consumer's own
 * {@code auto.commit.interval.ms} or Kafka Connect's {@code offset.flush.interval.ms}) written batches'
 * offsets wait, <em>while the consumer is behind</em>, until the interval since the last send has passed and
 * then go in one asynchronous commit. The consumer is behind while its polls come back full
 * ({@code max.poll.records}, told by {@link #afterPoll}): more records are waiting. A poll that was not full
 * means it had nothing more at hand, so what waited is sent at once: a sink that has caught up commits each
 * batch as it is written, and its group's lag at rest is 0 as soon as that commit is confirmed and
 * {@link #commitSkipped()} has moved over the last marker (a poll or two later; claims G12, B9). A crash while
 * behind re-reads up to one interval of written records (at-least-once, harmless to FINAL/argMax; claim B5's
 * sink kills); issue 13 P1 measured one {@code OffsetCommit} per 1,000-record batch costing the broker about
 * 3 ms of CPU, the largest item the sink added beside the direct insert on 2 cores, so a backlog drain with an
 * interval spares the broker nearly all of them (issue 26; {@code sink.SinkOptions#DEFAULT_COMMIT_INTERVAL}).
 *
 * <p>A poll that returns no record can still move the position: over a transaction's commit or abort
 * marker, or over aborted records a read_committed consumer skips; so can a poll that returns
 * records of other partitions. {@link #commitSkipped()} commits such positions, so at rest the
 * group's committed offset is the log end and its lag 0 (G12) — whether or not the last batch's
 * fetch happened to include the marker — and another member or {@code --until-caught-up} sees
 * the group caught up (B12).
 *
 * <p>Not thread-safe: used from the polling thread and its rebalance and commit callbacks only (Kafka
 * runs commit callbacks inside {@code poll} and {@code commitSync}).
 */
public final class OffsetCommitter {

    /** Attempts of one commit in a row before its offsets are kept pending for the next. */
    public static final int MAX_ATTEMPTS = 4;
    /** Longest wait of one attempt ({@code commitSync}'s timeout), seconds. */
    public static final long ATTEMPT_TIMEOUT_S = 10;

    private static final Logger LOG = LoggerFactory.getLogger(OffsetCommitter.class);

    /** What {@link #commit} achieved. */
    public enum Outcome {
        /** Committed. */
        COMMITTED,
        /** The partitions moved before the commit: dropped, the new owner re-reads the records. */
        LEFT_TO_NEW_OWNER,
        /** The group is rebalancing: kept pending, committed on revocation or after the next poll. */
        DEFERRED,
        /** Retriable failures went on for {@value #MAX_ATTEMPTS} attempts: kept pending, retried with the next commit. */
        KEPT_PENDING
    }

    private final Consumer<?, ?> consumer;
    private final Map<TopicPartition, OffsetAndMetadata> pending = new HashMap<>();
    private final Map<TopicPartition, Long> pendingRecords = new HashMap<>();
    private final Map<TopicPartition, OffsetAndMetadata> inFlight = new HashMap<>();
    /** Whether {@link #onRevoked} commits (always, but for the test-only fault {@link #skipRevocationCommits()}). */
    private boolean commitOnRevocation = true;
    /** Written batches' offsets not sent yet: they wait for the commit interval (a subset of {@link #pending}). */
    private final Map<TopicPartition, OffsetAndMetadata> deferred = new HashMap<>();
    private final CommitPacing pacing;
    /** The offset each assigned partition was last committed at, by this run or (read once) by the group. */
    private final Map<TopicPartition, Long> lastCommitted = new HashMap<>();
    private long errors;
    private long leftToNewOwner;

    /** @param consumer the consumer whose group commits; {@link #commitAsync} sends every batch's offsets at once */
    public OffsetCommitter(Consumer<?, ?> consumer) {
        this(consumer, Duration.ZERO);
    }

    /**
     * @param consumer       the consumer whose group commits
     * @param commitInterval how long {@link #commitAsync}'s offsets may wait to be sent together while the
     *                       consumer is behind ({@link #afterPoll}); {@link Duration#ZERO}: each batch's at once
     * @throws IllegalArgumentException for a negative interval
     */
    public OffsetCommitter(Consumer<?, ?> consumer, Duration commitInterval) {
        this(consumer, commitInterval, System::nanoTime);
    }

    /** As {@link #OffsetCommitter(Consumer, Duration)}, with the clock that times the interval (tests). */
    OffsetCommitter(Consumer<?, ?> consumer, Duration commitInterval, LongSupplier nanoClock) {
        this.pacing = new CommitPacing(commitInterval, nanoClock);
        this.consumer = consumer;
    }

    /**
     * Commits these offsets, together with any still pending for the same partitions (later offsets win).
     *
     * @param offsets partition → next offset to read, from {@link Batches#nextOffsets}
     * @param records partition → records written behind those offsets, for {@link #pendingRecords()}
     * @return what was achieved (see the class comment)
     * @throws RunStoppedException for a permanent failure
     */
    public Outcome commit(Map<TopicPartition, OffsetAndMetadata> offsets, Map<TopicPartition, Long> records) {
        pending.putAll(offsets);
        records.forEach((tp, n) -> pendingRecords.merge(tp, n, Long::sum));
        return commitPending(offsets.keySet(), true);
    }

    /**
     * Sends these offsets without waiting for the broker's answer (issue 13: a synchronous commit per
     * batch was the largest item of the sink's profile) — at once, or with a commit interval while the
     * consumer is behind ({@link #afterPoll}) once it has passed since the last send, together with every
     * offset deferred meanwhile; they stay pending
     * until the broker confirms them. Call it only after the batch's write was acknowledged, like
     * {@link #commit}. A failure is logged and counted, and the offsets go with the next synchronous commit.
     *
     * @param offsets partition → next offset to read, from {@link Batches#nextOffsets}
     * @param records partition → records written behind those offsets, for {@link #pendingRecords()}
     */
    public void commitAsync(Map<TopicPartition, OffsetAndMetadata> offsets, Map<TopicPartition, Long> records) {
        pending.putAll(offsets);
        records.forEach((tp, n) -> pendingRecords.merge(tp, n, Long::sum));
        deferred.putAll(offsets);
        sendDeferredIfDue();
    }

    /** @return offsets of written batches waiting for the commit interval (a copy), partition → next offset */
    public Map<TopicPartition, OffsetAndMetadata> deferred() {
        return Map.copyOf(deferred);
    }

    /**
     * Tells the committer how many records the poll just made returned. A full poll ({@code max.poll.records})
     * means more are waiting: the consumer is behind, and written batches' offsets wait for the commit interval.
     * A poll that was not full means the consumer had nothing more at hand: what waited is sent now, and each
     * batch's offsets go at once until a poll comes back full again (claims G12 and B9: lag 0 at rest;
     * {@link CommitPacing}). Until the first call the consumer counts as behind.
     *
     * @param records        records the poll returned (0 for none)
     * @param maxPollRecords the consumer's {@code max.poll.records}
     * @return whether the consumer is caught up now (the poll was not full): the one rule by which a sink also
     *     finishes its write in flight at once ({@code sink/Sink})
     */
    public boolean afterPoll(int records, int maxPollRecords) {
        boolean caughtUp = pacing.afterPoll(records, maxPollRecords);
        if (caughtUp) {
            sendDeferredIfDue();
        }
        return caughtUp;
    }

    private void sendDeferredIfDue() {
        if (deferred.isEmpty()) {
            return;
        }
        if (!pacing.dueNow()) {
            return;
        }
        Map<TopicPartition, OffsetAndMetadata> sent = Map.copyOf(deferred);
        deferred.clear();
        inFlight.putAll(sent);
        consumer.commitAsync(sent, (committed, e) -> {
            sent.forEach(inFlight::remove);   // remove(key, value): a newer offset sent since stays in flight
            if (e == null) {
                sent.forEach((tp, om) -> {
                    lastCommitted.merge(tp, om.offset(), Math::max);
                    if (om.equals(pending.get(tp))) {
                        forget(tp);
                    }
                });
            } else {
                errors++;
                LOG.warn("asynchronous offset commit of {} failed ({}); committed again after the next poll",
                        sent.keySet(), e.toString());
            }
        });
    }

    /**
     * Drops the pending offsets of partitions no longer assigned (their new owner re-reads), sends the
     * deferred ones if the commit interval has passed, and commits synchronously those of a failed
     * asynchronous commit (pending, neither in flight nor deferred). Call it after every poll.
     *
     * @throws RunStoppedException for a permanent failure
     */
    public void retryPending() {
        if (pending.isEmpty()) {
            return;
        }
        Set<TopicPartition> assigned = consumer.assignment();
        drop(pending.keySet().stream().filter(tp -> !assigned.contains(tp)).toList(), "no longer assigned");
        sendDeferredIfDue();
        commitPending(pending.keySet().stream().filter(tp -> !deferred.containsKey(tp) && !pending.get(tp).equals(inFlight.get(tp)))
                .collect(Collectors.toSet()), true);
    }

    /**
     * Commits every pending offset synchronously, those of unanswered asynchronous commits and those
     * deferred by the commit interval included (committing an offset twice is harmless). Call it once at
     * the end of the run.
     *
     * @throws RunStoppedException for a permanent failure
     */
    public void commitAll() {
        Set<TopicPartition> assigned = consumer.assignment();
        drop(pending.keySet().stream().filter(tp -> !assigned.contains(tp)).toList(), "no longer assigned");
        commitPending(Set.copyOf(pending.keySet()), true);
        inFlight.clear();
        deferred.clear();
    }

    /**
     * After a poll whose records (if any) were written and committed: commits the position of each
     * assigned partition that moved past its last committed offset (only control markers or aborted
     * records lay in between; every record the consumer returned was written, or rewound after a
     * failed write). A
     * partition's committed offset is read from the group once, the first time it is needed. Does
     * nothing while offsets are pending or in flight (their commit is unconfirmed or failed; {@link #retryPending()} goes first), or
     * if a position or the committed offsets cannot be read now (retried after the next poll).
     *
     * @throws RunStoppedException for a permanent commit failure
     */
    public void commitSkipped() {
        if (!pending.isEmpty() || !inFlight.isEmpty()) {
            return;
        }
        Map<TopicPartition, OffsetAndMetadata> moved = new HashMap<>();
        try {
            Set<TopicPartition> assigned = consumer.assignment();
            Set<TopicPartition> unknown = new HashSet<>(assigned);
            unknown.removeAll(lastCommitted.keySet());
            if (!unknown.isEmpty()) {
                consumer.committed(unknown, Duration.ofSeconds(ATTEMPT_TIMEOUT_S))
                        .forEach((tp, om) -> lastCommitted.put(tp, om == null ? -1 : om.offset()));
            }
            for (TopicPartition tp : assigned) {
                long position = consumer.position(tp, Duration.ofSeconds(ATTEMPT_TIMEOUT_S));
                if (position > lastCommitted.getOrDefault(tp, -1L)) {
                    moved.put(tp, new OffsetAndMetadata(position));
                }
            }
        } catch (KafkaException e) {
            if (!KafkaErrors.classify(e).retriable()) {
                throw new RunStoppedException(RunStoppedException.Stop.FATAL_KAFKA,
                        "reading positions or committed offsets failed (" + KafkaErrors.classify(e) + "): " + e.getMessage(), e);
            }
            LOG.debug("positions not read now ({}); retried after the next poll", e.toString());
            return;
        }
        if (!moved.isEmpty()) {
            LOG.debug("committing positions moved over control markers only: {}", moved);
            commit(moved, Map.of());
        }
    }

    /**
     * The rebalance listener's {@code onPartitionsRevoked}: commits the revoked partitions' pending
     * offsets once (the member still owns them here), then forgets them. Never throws.
     */
    public void onRevoked(Collection<TopicPartition> revoked) {
        if (!commitOnRevocation) {
            LOG.warn("FAULT INJECTION: the written offsets of revoked partitions {} dropped, not committed", revoked);
            drop(revoked, "revoked");
            return;
        }
        try {
            commitPending(Set.copyOf(revoked), false);
        } catch (RuntimeException e) {
            LOG.warn("offset commit of revoked partitions {} failed: {}", revoked, e.toString());
        }
        drop(revoked, "revoked");
    }

    /**
     * FAULT INJECTION, TEST-ONLY ({@link OffsetFault#NO_COMMIT_ON_REVOCATION}): from now on {@link #onRevoked} forgets the
     * revoked partitions' pending offsets without committing them, as a sink whose rebalance listener does nothing
     * would (the twin of claim B12[commit interval]).
     */
    public void skipRevocationCommits() {
        commitOnRevocation = false;
    }

    /** The rebalance listener's {@code onPartitionsLost}: another member owns them already; forgets their offsets. */
    public void onLost(Collection<TopicPartition> lost) {
        drop(lost, "lost");
    }

    /**
     * The rebalance listener of a sink: on assignment the caller's action (e.g. seek), on revocation
     * {@link #onRevoked}, on loss {@link #onLost}.
     *
     * @param onAssigned what to do with newly assigned partitions
     * @return the listener for {@link PollSession#subscribe}
     */
    public ConsumerRebalanceListener listener(AssignmentAction onAssigned) {
        return new ConsumerRebalanceListener() {
            @Override
            public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
                onAssigned.onAssigned(partitions);
            }

            @Override
            public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
                onRevoked(partitions);
            }

            @Override
            public void onPartitionsLost(Collection<TopicPartition> partitions) {
                onLost(partitions);
            }
        };
    }

    /** What a sink does with newly assigned partitions (e.g. seek to where it resumes). */
    @FunctionalInterface
    public interface AssignmentAction {
        /** @param partitions the partitions assigned by this rebalance (possibly none) */
        void onAssigned(Collection<TopicPartition> partitions);
    }

    /** @return records written whose offsets are not committed yet (0 after a clean run) */
    public long pendingRecords() {
        return pendingRecords.values().stream().mapToLong(Long::longValue).sum();
    }

    /** @return failed commit attempts so far (each retry counts) */
    public long errors() {
        return errors;
    }

    /** @return records whose offsets were dropped because their partitions moved (re-read by the new owner) */
    public long leftToNewOwner() {
        return leftToNewOwner;
    }

    private Outcome commitPending(Set<TopicPartition> partitions, boolean retry) {
        Backoff backoff = new Backoff();
        while (true) {
            Map<TopicPartition, OffsetAndMetadata> batch = new HashMap<>();
            partitions.forEach(tp -> {
                if (pending.containsKey(tp)) {
                    batch.put(tp, pending.get(tp));
                }
            });
            if (batch.isEmpty()) {
                return Outcome.COMMITTED;
            }
            try {
                consumer.commitSync(batch, Duration.ofSeconds(ATTEMPT_TIMEOUT_S));
                batch.forEach((tp, om) -> lastCommitted.put(tp, om.offset()));
                batch.keySet().forEach(this::forget);
                return Outcome.COMMITTED;
            } catch (CommitFailedException e) {
                errors++;
                LOG.warn("offset commit refused, the partitions moved in a rebalance ({}): {} left to the new owner",
                        e.getClass().getSimpleName(), batch.keySet());
                drop(batch.keySet(), "moved");
                return Outcome.LEFT_TO_NEW_OWNER;
            } catch (RebalanceInProgressException e) {
                errors++;
                LOG.warn("offset commit met a rebalance in progress; {} stay pending until it completes", batch.keySet());
                return Outcome.DEFERRED;
            } catch (KafkaException e) {
                errors++;
                Classification c = KafkaErrors.classify(e);
                if (!c.retriable()) {
                    throw new RunStoppedException(RunStoppedException.Stop.FATAL_KAFKA,
                            "offset commit of " + batch + " failed (" + c + "): " + e.getMessage(), e);
                }
                if (!retry || backoff.attempt() + 1 >= MAX_ATTEMPTS) {
                    LOG.warn("offset commit failed ({}): {}; {} kept pending for the next commit", c, e.getMessage(),
                            batch.keySet());
                    return Outcome.KEPT_PENDING;
                }
                LOG.warn("offset commit failed ({}): {}; retry {} in {} ms", c, e.getMessage(), backoff.attempt() + 1,
                        backoff.nextMs());
                backoff.sleep();
            }
        }
    }

    private void drop(Collection<TopicPartition> partitions, String why) {
        for (TopicPartition tp : partitions) {
            lastCommitted.remove(tp);   // its next owner commits it from now on
            Long records = pendingRecords.get(tp);
            if (pending.containsKey(tp)) {
                LOG.warn("offsets of {} not committed ({}): {} records left to the partition's next owner", tp, why,
                        records == null ? 0 : records);
                leftToNewOwner += records == null ? 0 : records;
            }
            forget(tp);
        }
    }

    private void forget(TopicPartition tp) {
        pending.remove(tp);
        inFlight.remove(tp);
        deferred.remove(tp);
        pendingRecords.remove(tp);
    }
}
