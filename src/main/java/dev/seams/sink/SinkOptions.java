package dev.seams.sink;

import dev.seams.consumer.GroupMembership;
import dev.seams.consumer.KafkaSource;
import dev.seams.consumer.OffsetCommitter;
import dev.seams.consumer.OffsetFault;
import dev.seams.consumer.RunWindow;
import dev.seams.kafka.KafkaClientConfig;
import dev.seams.wire.TopicNames;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * One sink run's settings (the CLI's flags, docs/sink.md), grouped as the records they are. {@link #toString()} masks
 * the ClickHouse password ({@link ClickHouseTarget#toString()}).
 *
 * @param source         what is consumed and how: cluster, topic (default the mode's, {@link SinkMode#topic()}),
 *                       isolation ({@code read_committed}, the EOS contract, G15), the user's client properties
 * @param membership     the consumer group ({@value #DEFAULT_GROUP} by default) and static membership
 * @param window         when the run ends: {@code --for}, {@code --until-idle}, {@code --until-caught-up}, or none
 *                       (until stopped)
 * @param fromStart      start from the earliest offsets instead of the group's committed ones
 * @param mode           what to read and write
 * @param clickhouse     where to write, with the request timeout ({@code --clickhouse-timeout})
 * @param rejects        the opt-in customer rule, the value limit and the dead-letter topic (G10, G11)
 * @param batching       how many polls one insert gathers ({@code --batch-rows}, {@code --batch-wait}); default
 *                       {@link Batching#PER_POLL}
 * @param commitInterval how long written batches' offsets may wait to be committed together while the sink is
 *                       behind ({@code --commit-interval}; default {@link #DEFAULT_COMMIT_INTERVAL};
 *                       {@link Duration#ZERO}: each batch's at once; {@link OffsetCommitter})
 * @param faults         FAULT INJECTION, TEST-ONLY: {@link SinkFaults#NONE} in every run of the pipeline
 */
public record SinkOptions(KafkaSource source, GroupMembership membership, RunWindow window, boolean fromStart,
                          SinkMode mode, ClickHouseTarget clickhouse, Rejects rejects, Batching batching,
                          Duration commitInterval, SinkFaults faults) {

    /** The sink's consumer group (docs/claims.md names). */
    public static final String DEFAULT_GROUP = "ds-sink";

    /**
     * Default of {@code --commit-interval}: 500 ms. It applies only while the sink is behind (its polls come back
     * full, {@link OffsetCommitter#afterPoll}): a backlog drain then sends one {@code OffsetCommit} per half second
     * instead of one per 1,000-record batch, each of which cost the broker about 3 ms of CPU on 2 cores taken from
     * ClickHouse and the sink (issue 13 P1; issue 26: P1 ≥ 0.8 × a direct insert as shipped). A crash while behind
     * re-reads up to half a second of written records (at-least-once, harmless to FINAL/argMax); a sink that has
     * caught up commits each batch at once, so B9's lag 0 after a restart and G12's lag at rest are not delayed.
     * Below 1 s on purpose: B12's drain writes one batch per second (its test-only insert delay), so each of its
     * commits is due when sent and a failed commit still leaves at most one poll to its partition's next owner.
     */
    public static final Duration DEFAULT_COMMIT_INTERVAL = Duration.ofMillis(500);

    /**
     * @throws IllegalArgumentException if the commit interval is negative
     * @throws NullPointerException     if a setting is null
     */
    public SinkOptions {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(membership, "membership");
        Objects.requireNonNull(window, "window");
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(clickhouse, "clickhouse");
        Objects.requireNonNull(rejects, "rejects");
        Objects.requireNonNull(batching, "batching");
        Objects.requireNonNull(commitInterval, "commitInterval");
        Objects.requireNonNull(faults, "faults");
        if (commitInterval.isNegative()) {
            throw new IllegalArgumentException("commit interval must not be negative, got " + commitInterval);
        }
    }

    /**
     * Defaults for tests and programmatic use: the mode's topic read {@code read_committed}, group ds-sink with dynamic
     * membership, until idle for 5 s, not from start, every customer accepted, DLQ {@code <mode topic>.dlq}, every
     * poll its own insert, {@link #DEFAULT_COMMIT_INTERVAL}, no fault.
     */
    public static SinkOptions defaults(String bootstrapServers, ClickHouseTarget clickhouse, SinkMode mode) {
        return new SinkOptions(KafkaSource.readCommitted(bootstrapServers, mode.topic()),
                GroupMembership.dynamic(DEFAULT_GROUP), new RunWindow(null, Duration.ofSeconds(5), false), false, mode,
                clickhouse, Rejects.defaults(mode), Batching.PER_POLL, DEFAULT_COMMIT_INTERVAL, SinkFaults.NONE);
    }

    /**
     * @param mode a sink mode
     * @return its default dead-letter topic, {@code <topic>.dlq} ({@code customer.totals.dlq} for totals)
     */
    public static String defaultDlqTopic(SinkMode mode) {
        return TopicNames.deadLetters(mode.topic());
    }

    /** @return a copy reading from the earliest offsets (or not) */
    public SinkOptions withFromStart(boolean value) {
        return copy(c -> c.fromStart = value);
    }

    /** @return a copy with another isolation level */
    public SinkOptions withIsolation(String value) {
        return copy(c -> c.source = c.source.withIsolation(value));
    }

    /** @return a copy that stops after the given idle time */
    public SinkOptions withUntilIdle(Duration value) {
        return copy(c -> c.window = new RunWindow(null, value, false));
    }

    /** @return a copy that stops after running this long, busy or not ({@code --for}) */
    public SinkOptions withRunFor(Duration value) {
        return copy(c -> c.window = new RunWindow(value, null, false));
    }

    /** @return a copy that stops once caught up with the end offsets read at its start ({@code --until-caught-up}) */
    public SinkOptions withUntilCaughtUp() {
        return copy(c -> c.window = new RunWindow(null, null, true));
    }

    /** @return a copy with another opt-in customer range ({@code --customers}), or none for null */
    public SinkOptions withCustomers(CustomerRange value) {
        return copy(c -> c.rejects = c.rejects.withCustomers(value));
    }

    /** @return a copy writing rejected records to another topic ({@code --dlq-topic}) */
    public SinkOptions withDlqTopic(String value) {
        return copy(c -> c.rejects = c.rejects.withDlqTopic(value));
    }

    /** @return a copy in another consumer group ({@code --group}) */
    public SinkOptions withGroupId(String value) {
        return copy(c -> c.membership = c.membership.withGroupId(value));
    }

    /** @return a copy writing to another ClickHouse target (e.g. another database) */
    public SinkOptions withClickhouse(ClickHouseTarget value) {
        return copy(c -> c.clickhouse = value);
    }

    /** @return a copy with static membership under this {@code group.instance.id}, or dynamic for null */
    public SinkOptions withInstanceId(String value) {
        return copy(c -> c.membership = c.membership.withInstanceId(value));
    }

    /** @return a copy with this consumer session timeout, or Kafka's default for null */
    public SinkOptions withSessionTimeout(Duration value) {
        return copy(c -> c.membership = c.membership.withSessionTimeout(value));
    }

    /** @return a copy consuming another topic of the mode's record shape ({@code --topic}) */
    public SinkOptions withTopic(String value) {
        return copy(c -> c.source = c.source.withTopic(value));
    }

    /** @return a copy gathering polls into inserts this way ({@code --batch-rows}, {@code --batch-wait}) */
    public SinkOptions withBatching(Batching value) {
        return copy(c -> c.batching = value);
    }

    /** @return a copy committing written batches' offsets at most this often ({@code --commit-interval}; zero: each batch's) */
    public SinkOptions withCommitInterval(Duration value) {
        return copy(c -> c.commitInterval = value);
    }

    /**
     * @param value the user's Kafka client properties ({@code --kafka-config}; {@link KafkaClientConfig})
     * @return a copy whose consumer and dead-letter producer get them
     */
    public SinkOptions withKafkaConfig(KafkaClientConfig value) {
        return copy(c -> c.source = c.source.withKafkaConfig(value));
    }

    /** @return a copy that inserts every record twice (or not); fault injection ({@link SinkFaults#dup()}) */
    public SinkOptions withDup(boolean value) {
        return copy(c -> c.faults = c.faults.withDup(value));
    }

    /**
     * TEST-ONLY: a copy with the totals contract on or off. Off reproduces the seed's unvalidated
     * consumer for a negative control (G11); it must never be used to run the pipeline.
     *
     * @return the copy
     */
    public SinkOptions withValidation(boolean value) {
        return copy(c -> c.faults = c.faults.withSkipValidation(!value));
    }

    /**
     * TEST-ONLY: a copy that writes the Kafka offset as the version (or not). On reproduces the
     * seed's version for the negative control of B10 (stale customers after the topic changes); it
     * must never be used to run the pipeline.
     *
     * @return the copy
     */
    public SinkOptions withOffsetAsVersion(boolean value) {
        return copy(c -> c.faults = c.faults.withOffsetAsVersion(value));
    }

    /**
     * FAULT INJECTION, TEST-ONLY: a copy that pauses this long before each batch's inserts (a slow
     * ClickHouse), so that a backlog drains slowly enough for group membership changes to land
     * mid-drain (B12); it must never be used to run the pipeline.
     *
     * @return the copy
     * @throws IllegalArgumentException if the delay is negative
     */
    public SinkOptions withInsertDelay(Duration value) {
        return copy(c -> c.faults = c.faults.withInsertDelay(value));
    }

    /**
     * FAULT INJECTION, TEST-ONLY: a copy that makes this mistake in offset handling (a twin that shows a checker
     * firing); it must never be used to run the pipeline.
     *
     * @return the copy
     */
    public SinkOptions withOffsetFault(OffsetFault value) {
        return copy(c -> c.faults = c.faults.withOffsetFault(value));
    }

    private SinkOptions copy(Consumer<Copy> change) {
        Copy c = new Copy(this);
        change.accept(c);
        return new SinkOptions(c.source, c.membership, c.window, c.fromStart, mode, c.clickhouse, c.rejects, c.batching,
                c.commitInterval, c.faults);
    }

    /** The changeable components of one copy, set by a {@code with…} method before the copy is validated. */
    private static final class Copy {
        KafkaSource source;
        GroupMembership membership;
        RunWindow window;
        boolean fromStart;
        ClickHouseTarget clickhouse;
        Rejects rejects;
        Batching batching;
        Duration commitInterval;
        SinkFaults faults;

        Copy(SinkOptions o) {
            source = o.source;
            membership = o.membership;
            window = o.window;
            fromStart = o.fromStart;
            clickhouse = o.clickhouse;
            rejects = o.rejects;
            batching = o.batching;
            commitInterval = o.commitInterval;
            faults = o.faults;
        }
    }
}
