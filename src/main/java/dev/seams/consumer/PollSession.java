package dev.seams.consumer;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The lifetime of one consumer run, shared by the ClickHouse sink and the inbox sink (docs/sink.md
 * "The sink's command line"). It ends, by the run's {@link RunWindow}:
 * <ul>
 *   <li>{@code --for}: that long after the start;</li>
 *   <li>{@code --until-idle}: that long with nothing read, the clock (re)starting at every
 *       assignment (an empty one included) and at every non-empty poll;</li>
 *   <li>{@code --until-caught-up}: once the consumer's position in every partition assigned to it
 *       has reached that partition's end offset as read when the run subscribed ({@code
 *       read_committed}: the last stable offset), after at least one assignment — and, for the
 *       topic's other partitions (owned by other members of the group), once the group's committed
 *       offsets have reached theirs: a member that leaves hands its partitions back, so the run
 *       does not end while its group still has records behind (B12). Members commit positions that
 *       moved over transaction markers only ({@link OffsetCommitter#commitSkipped()}), so a group
 *       at rest reads as caught up.</li>
 * </ul>
 * Until the group first assigns partitions, the last two wait at most {@value #JOIN_TIMEOUT_S} s
 * (more than Kafka's default 45 s session timeout, which a restarted dynamic member may wait out)
 * or the idle time if longer, so a run that is never assigned a partition ends too. Another
 * thread may end it earlier with {@link #requestStop()} (e.g. an embedding application shutting
 * down; B12's second instance leaving the group).
 *
 * <p>It counts the group rebalances the run goes through and the partitions they take away while
 * records are still behind ({@link #rebalances()}, {@link Rebalances}; claim B12).
 *
 * <p>Errors: a poll failure of class {@link ErrorClass#RETRIABLE} ({@link KafkaErrors}) is logged
 * and counted ({@link #fetchErrors()}), and the run goes on; any other — authorization, invalid
 * offset configuration ({@code auto.offset.reset=none} without offsets), a fenced static member —
 * ends it with {@link RunStoppedException.Stop#FATAL_KAFKA}, as does a topic that does not exist at
 * the start (the sinks never create topics: {@code allow.auto.create.topics=false}).
 */
public final class PollSession {

    /** Longest wait for a first assignment, seconds. */
    public static final long JOIN_TIMEOUT_S = 60;

    private static final Logger LOG = LoggerFactory.getLogger(PollSession.class);
    private static final Duration METADATA_TIMEOUT = Duration.ofSeconds(30);

    private final Consumer<byte[], byte[]> consumer;
    private final RunWindow window;
    private final Clock clock;
    private final Instant started;
    private final Map<TopicPartition, Long> endOffsets = new HashMap<>();
    private final Rebalances rebalances;
    private Instant lastActivity;
    private long fetchErrors;
    private Runnable afterEachPoll = () -> { };
    private volatile boolean stopRequested;
    private Set<TopicPartition> waitingFor = Set.of();

    /**
     * @param consumer the run's consumer
     * @param window   when the run ends
     */
    public PollSession(Consumer<byte[], byte[]> consumer, RunWindow window) {
        this(consumer, window, Clock.systemUTC());
    }

    PollSession(Consumer<byte[], byte[]> consumer, RunWindow window, Clock clock) {
        this.consumer = consumer;
        this.window = window;
        this.clock = clock;
        this.started = clock.instant();
        this.rebalances = new Rebalances(consumer);
    }

    /**
     * Checks that the topic exists, reads its end offsets (for {@code --until-caught-up}) and
     * subscribes; the listener's callbacks run inside {@link #poll}.
     *
     * @param topic    the topic to consume
     * @param listener the caller's rebalance callbacks (seek on assignment, commit on revocation)
     * @throws RunStoppedException if the topic does not exist ({@link RunStoppedException.Stop#FATAL_KAFKA}), or the cluster
     *     did not answer for its partitions ({@link RunStoppedException.Stop#UNAVAILABLE})
     */
    public void subscribe(String topic, ConsumerRebalanceListener listener) {
        List<PartitionInfo> partitions;
        try {
            partitions = consumer.partitionsFor(topic, METADATA_TIMEOUT);
        } catch (org.apache.kafka.common.errors.TimeoutException e) {   // unreachable, not refused
            throw new RunStoppedException(RunStoppedException.Stop.UNAVAILABLE, "the cluster did not answer within "
                    + METADATA_TIMEOUT.toSeconds() + " s for the partitions of " + topic + ": " + e.getMessage(), e);
        } catch (KafkaException e) {
            throw fatal("cannot read the partitions of " + topic, e);
        }
        if (partitions == null || partitions.isEmpty()) {
            throw new RunStoppedException(RunStoppedException.Stop.FATAL_KAFKA,
                    "topic " + topic + " does not exist (the sink does not create topics)", null);
        }
        if (window.untilCaughtUp()) {
            List<TopicPartition> all = partitions.stream().map(p -> new TopicPartition(p.topic(), p.partition())).toList();
            endOffsets.putAll(consumer.endOffsets(all, METADATA_TIMEOUT));
            LOG.info("running until caught up with the end offsets {}", endOffsets);
        }
        consumer.subscribe(List.of(topic), new ConsumerRebalanceListener() {
            @Override
            public void onPartitionsAssigned(Collection<TopicPartition> assigned) {
                listener.onPartitionsAssigned(assigned);
                rebalances.onAssigned(assigned);
                lastActivity = clock.instant();
            }

            @Override
            public void onPartitionsRevoked(Collection<TopicPartition> revoked) {
                rebalances.onTakenAway(revoked);
                listener.onPartitionsRevoked(revoked);
            }

            @Override
            public void onPartitionsLost(Collection<TopicPartition> lost) {
                rebalances.onTakenAway(lost);
                listener.onPartitionsLost(lost);
            }
        });
    }

    /**
     * @param hook runs after every poll that did not fail, before its records are returned — the
     *             sinks retry their pending offset commits there ({@link OffsetCommitter#retryPending()})
     */
    public void afterEachPoll(Runnable hook) {
        this.afterEachPoll = hook;
    }

    /**
     * Asks the run to end: {@link #running()} returns false from now on, so the loop finishes its
     * current batch (written and committed) and the consumer leaves the group. Thread-safe: the
     * only method another thread may call.
     */
    public void requestStop() {
        stopRequested = true;
    }

    /**
     * @return whether the run goes on (see the class comment); while false, the run's revocations (the
     *     consumer closing) are not counted as rebalances ({@link #rebalances()}); a window can open again,
     *     e.g. when the sink's last write failed and rewound the run behind its end offsets
     */
    public boolean running() {
        boolean running = !stopRequested && withinWindow();
        rebalances.runEnding(!running);
        return running;
    }

    private boolean withinWindow() {
        Instant now = clock.instant();
        if (window.untilStopped()) {
            return true;
        }
        if (window.runFor() != null) {
            return !now.isAfter(started.plus(window.runFor()));
        }
        if (lastActivity == null) {
            Duration join = Duration.ofSeconds(JOIN_TIMEOUT_S);
            boolean waiting = !now.isAfter(started.plus(window.untilIdle() != null && window.untilIdle().compareTo(join) > 0
                    ? window.untilIdle() : join));
            if (!waiting) {
                LOG.warn("no partition was assigned within {} s; ending the run", JOIN_TIMEOUT_S);
            }
            return waiting;
        }
        if (window.untilCaughtUp()) {
            return !caughtUp();
        }
        return !now.isAfter(lastActivity.plus(window.untilIdle()));
    }

    private boolean caughtUp() {
        Set<TopicPartition> assigned = consumer.assignment();
        for (TopicPartition tp : assigned) {
            Long end = endOffsets.get(tp);
            if (end != null && consumer.position(tp, METADATA_TIMEOUT) < end) {
                return false;
            }
        }
        Set<TopicPartition> others = new HashSet<>(endOffsets.keySet());
        others.removeAll(assigned);
        others.removeIf(tp -> endOffsets.get(tp) == 0);
        return others.isEmpty() || groupCaughtUp(others);
    }

    /**
     * @return whether the group's committed offsets of partitions other members own (or nobody, mid
     *     rebalance) reached the end offsets read at the start: a rebalance may hand them back, so
     *     the run does not end while the group still has records behind on them (B12)
     */
    private boolean groupCaughtUp(Set<TopicPartition> others) {
        Map<TopicPartition, OffsetAndMetadata> committed;
        try {
            committed = consumer.committed(others, METADATA_TIMEOUT);
        } catch (KafkaException e) {
            LOG.warn("cannot read the group's committed offsets of {} ({}); the run goes on", others, KafkaErrors.classify(e));
            return false;
        }
        Set<TopicPartition> behind = new TreeSet<>(Comparator.comparing(TopicPartition::topic)
                .thenComparingInt(TopicPartition::partition));
        others.forEach(tp -> {
            OffsetAndMetadata om = committed.get(tp);
            if (om == null || om.offset() < endOffsets.get(tp)) {
                behind.add(tp);
            }
        });
        if (!behind.isEmpty() && !behind.equals(waitingFor)) {
            LOG.info("caught up on its own partitions; the group is still behind on {}, the run goes on", behind);
        }
        waitingFor = behind;
        return behind.isEmpty();
    }

    /**
     * Polls once; a non-empty result restarts the idle clock.
     *
     * @param timeout how long the poll may block
     * @return the records, or none if the poll failed retriably (counted in {@link #fetchErrors()})
     * @throws RunStoppedException for a permanent poll failure ({@link RunStoppedException.Stop#FATAL_KAFKA})
     */
    public ConsumerRecords<byte[], byte[]> poll(Duration timeout) {
        ConsumerRecords<byte[], byte[]> records;
        try {
            records = consumer.poll(timeout);
        } catch (KafkaException e) {
            Classification c = KafkaErrors.classify(e);
            if (!c.retriable()) {
                throw fatal("poll failed (" + c + ")", e);
            }
            fetchErrors++;
            LOG.warn("fetch failed ({}): {}", c, e.getMessage());
            return ConsumerRecords.empty();
        }
        if (!records.isEmpty()) {
            lastActivity = clock.instant();
        }
        afterEachPoll.run();
        return records;
    }

    /** @return polls that failed retriably so far */
    public long fetchErrors() {
        return fetchErrors;
    }

    /** @return the group rebalances this run went through and what they took away mid-drain (claim B12) */
    public Rebalances rebalances() {
        return rebalances;
    }

    private static RunStoppedException fatal(String what, KafkaException e) {
        return new RunStoppedException(RunStoppedException.Stop.FATAL_KAFKA,
                what + ": " + e.getClass().getSimpleName() + ": " + e.getMessage(), e);
    }
}
