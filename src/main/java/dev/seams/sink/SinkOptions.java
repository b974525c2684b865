package dev.seams.sink;

import dev.seams.consumer.OffsetCommitter;
import dev.seams.consumer.OffsetFault;
import dev.seams.consumer.RunWindow;
import dev.seams.kafka.KafkaClientConfig;
import dev.seams.wire.TopicNames;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * One sink run's settings (the CLI's flags, docs/sink.md). {@link #toString()} masks the
 * ClickHouse password ({@link ClickHouseTarget#toString()}).
 *
 * @param bootstrapServers Kafka bootstrap servers, {@code host:port[,host:port]}
 * @param clickhouse       where to write, with the request timeout ({@code --clickhouse-timeout})
 * @param mode             what to read and write
 * @param groupId          consumer group, {@code ds-sink} by default
 * @param fromStart        start from the earliest offsets instead of the group's committed ones
 * @param dup              FAULT INJECTION: insert every record twice in the same batch (the source's
 *                         {@code -dup}; claim G2's control)
 * @param runFor           stop after this long ({@code --for 15s}); or null
 * @param untilIdle        stop after this long with nothing to read ({@code --until-idle 5s}); or null
 * @param untilCaughtUp    stop once the end offsets of the assigned partitions, as read at the start
 *                         ({@code read_committed}: the last stable offsets), are reached
 *                         ({@code --until-caught-up}); at most one of the three run windows is set, none: until stopped
 * @param isolation        {@code read_committed} (the EOS contract, G15) or {@code read_uncommitted}
 * @param customers        the opt-in rule {@code --customers} (mode totals; G10); null for none, the default
 * @param dlqTopic         where rejected records go ({@code --dlq-topic}; default
 *                         {@code <mode topic>.dlq}, i.e. {@code customer.totals.dlq}; G11)
 * @param maxValueBytes    largest accepted record value in bytes, mode totals ({@code --max-value-bytes},
 *                         default {@value TotalsValidator#DEFAULT_MAX_VALUE_BYTES})
 * @param validate         TEST-ONLY: {@code false} turns the totals contract off so that a negative
 *                         control can show what the seed's unvalidated consumer inserts (G11; see
 *                         {@link TotalsMapper}); no CLI flag; always {@code true} otherwise
 * @param offsetAsVersion  TEST-ONLY: {@code true} writes the Kafka offset as the ReplacingMergeTree
 *                         version instead of the version ds-streams produced — the negative control
 *                         of B10; no CLI flag; always {@code false} otherwise
 * @param instanceId       static group membership ({@code --instance-id}, {@code group.instance.id}):
 *                         a restarted process takes its partitions back at once; null for dynamic membership
 * @param sessionTimeout   the consumer's {@code session.timeout.ms} ({@code --session-timeout}); null
 *                         for Kafka's default (45 s)
 * @param insertDelay      FAULT INJECTION, TEST-ONLY: a pause before each batch's ClickHouse inserts,
 *                         standing for a slow server, so that a backlog takes long enough to drain
 *                         for group membership changes to land mid-drain (claim B12); no CLI flag;
 *                         {@link Duration#ZERO} (none) otherwise
 * @param topic            the topic consumed ({@code --topic}); default the mode's ({@link SinkMode#topic()}),
 *                         e.g. a scratch topic of records in the same shape (issue 13 benchmarks)
 * @param batching         how many polls one insert gathers ({@code --batch-rows}, {@code --batch-wait});
 *                         default {@link Batching#PER_POLL}
 * @param commitInterval   how long written batches' offsets may wait to be committed together
 *                         ({@code --commit-interval}; default {@link #DEFAULT_COMMIT_INTERVAL};
 *                         {@link Duration#ZERO}: each batch's at once; {@link OffsetCommitter})
 * @param offsetFault      FAULT INJECTION, TEST-ONLY: a twin's mistake in offset handling ({@link OffsetFault});
 *                         no CLI flag; {@link OffsetFault#NONE} otherwise
 * @param kafkaConfig      the user's Kafka client properties for the consumer and the dead-letter producer
 *                         ({@code --kafka-config}: security.protocol, sasl.*, ssl.*; {@link KafkaClientConfig});
 *                         {@link KafkaClientConfig#NONE} by default
 */
public record SinkOptions(String bootstrapServers, ClickHouseTarget clickhouse, SinkMode mode, String groupId,
                          boolean fromStart, boolean dup, Duration runFor, Duration untilIdle, boolean untilCaughtUp,
                          String isolation, CustomerRange customers, String dlqTopic, int maxValueBytes,
                          boolean validate, boolean offsetAsVersion, String instanceId, Duration sessionTimeout,
                          Duration insertDelay, String topic, Batching batching, Duration commitInterval,
                          OffsetFault offsetFault, KafkaClientConfig kafkaConfig) {

    /** The sink's consumer group (docs/claims.md names). */
    public static final String DEFAULT_GROUP = "ds-sink";

    /**
     * Default of {@code --commit-interval}: zero, every written batch's offsets committed at once. A longer
     * interval spares the broker one {@code OffsetCommit} per batch (issue 13 P1: ~3 ms of broker CPU each, on
     * 2 cores taken from ClickHouse and the sink) at the price of up to one interval of written records re-read
     * after a crash and a group lag that trails the writes by as long: with 1 s, B9's sink reached lag 0 only
     * 10.4 s after its restart (0.5 s after FINAL matched PG), beyond the claim's 10 s, so it is not the default.
     */
    public static final Duration DEFAULT_COMMIT_INTERVAL = Duration.ZERO;

    /**
     * @throws IllegalArgumentException if more than one run window is set, isolation is unknown,
     *                                  maxValueBytes < 1, the insert delay or the commit interval is negative
     * @throws NullPointerException     if a required setting is null
     */
    public SinkOptions {
        Objects.requireNonNull(insertDelay, "insertDelay");
        if (insertDelay.isNegative()) {
            throw new IllegalArgumentException("insert delay must not be negative, got " + insertDelay);
        }
        Objects.requireNonNull(bootstrapServers, "bootstrapServers");
        Objects.requireNonNull(clickhouse, "clickhouse");
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(groupId, "groupId");
        Objects.requireNonNull(dlqTopic, "dlqTopic");
        Objects.requireNonNull(topic, "topic");
        Objects.requireNonNull(batching, "batching");
        Objects.requireNonNull(commitInterval, "commitInterval");
        Objects.requireNonNull(offsetFault, "offsetFault");
        Objects.requireNonNull(kafkaConfig, "kafkaConfig");
        if (commitInterval.isNegative()) {
            throw new IllegalArgumentException("commit interval must not be negative, got " + commitInterval);
        }
        window(runFor, untilIdle, untilCaughtUp);
        if (!"read_committed".equals(isolation) && !"read_uncommitted".equals(isolation)) {
            throw new IllegalArgumentException("isolation must be read_committed or read_uncommitted, got " + isolation);
        }
        if (maxValueBytes < 1) {
            throw new IllegalArgumentException("max value bytes must be >= 1, got " + maxValueBytes);
        }
    }

    /**
     * Every setting but the insert delay (none), the topic (the mode's), the batching (every poll its own insert)
     * and the commit interval ({@link #DEFAULT_COMMIT_INTERVAL}).
     *
     * @throws IllegalArgumentException as the canonical constructor
     */
    public SinkOptions(String bootstrapServers, ClickHouseTarget clickhouse, SinkMode mode, String groupId,
                       boolean fromStart, boolean dup, Duration runFor, Duration untilIdle, boolean untilCaughtUp,
                       String isolation, CustomerRange customers, String dlqTopic, int maxValueBytes,
                       boolean validate, boolean offsetAsVersion, String instanceId, Duration sessionTimeout) {
        this(bootstrapServers, clickhouse, mode, groupId, fromStart, dup, runFor, untilIdle, untilCaughtUp, isolation,
                customers, dlqTopic, maxValueBytes, validate, offsetAsVersion, instanceId, sessionTimeout, Duration.ZERO,
                mode.topic(), Batching.PER_POLL, DEFAULT_COMMIT_INTERVAL, OffsetFault.NONE, KafkaClientConfig.NONE);
    }

    /**
     * The settings of the first release: DLQ topic {@code <mode topic>.dlq}, value limit
     * {@value TotalsValidator#DEFAULT_MAX_VALUE_BYTES} bytes, validation on, versions from ds-streams,
     * dynamic membership.
     *
     * @throws IllegalArgumentException as the canonical constructor
     */
    public SinkOptions(String bootstrapServers, ClickHouseTarget clickhouse, SinkMode mode, String groupId,
                       boolean fromStart, boolean dup, Duration runFor, Duration untilIdle,
                       String isolation, CustomerRange customers) {
        this(bootstrapServers, clickhouse, mode, groupId, fromStart, dup, runFor, untilIdle, isolation, customers,
                defaultDlqTopic(mode), TotalsValidator.DEFAULT_MAX_VALUE_BYTES, true);
    }

    /**
     * The settings of the DLQ release: versions from ds-streams, dynamic membership.
     *
     * @throws IllegalArgumentException as the canonical constructor
     */
    public SinkOptions(String bootstrapServers, ClickHouseTarget clickhouse, SinkMode mode, String groupId,
                       boolean fromStart, boolean dup, Duration runFor, Duration untilIdle,
                       String isolation, CustomerRange customers, String dlqTopic, int maxValueBytes,
                       boolean validate) {
        this(bootstrapServers, clickhouse, mode, groupId, fromStart, dup, runFor, untilIdle, false, isolation,
                customers, dlqTopic, maxValueBytes, validate, false, null, null);
    }

    /**
     * Defaults for tests and programmatic use: group ds-sink, read_committed, no customer range,
     * until idle for 5 s, not from start, no dup, DLQ {@code <mode topic>.dlq}, validation on,
     * versions from ds-streams, dynamic membership, no insert delay.
     */
    public static SinkOptions defaults(String bootstrapServers, ClickHouseTarget clickhouse, SinkMode mode) {
        return new SinkOptions(bootstrapServers, clickhouse, mode, DEFAULT_GROUP, false, false, null,
                Duration.ofSeconds(5), "read_committed", null);
    }

    /**
     * @param mode a sink mode
     * @return its default dead-letter topic, {@code <topic>.dlq} ({@code customer.totals.dlq} for totals)
     */
    public static String defaultDlqTopic(SinkMode mode) {
        return TopicNames.deadLetters(mode.topic());
    }

    /** @return the run window: {@code --for}, {@code --until-idle}, {@code --until-caught-up}, or none (until stopped) */
    public RunWindow window() {
        return window(runFor, untilIdle, untilCaughtUp);
    }

    private static RunWindow window(Duration runFor, Duration untilIdle, boolean untilCaughtUp) {
        return new RunWindow(runFor, untilIdle, untilCaughtUp);
    }

    /** @return a copy reading from the earliest offsets (or not) */
    public SinkOptions withFromStart(boolean value) {
        return copy(b -> b.fromStart = value);
    }

    /** @return a copy that inserts every record twice (or not); fault injection */
    public SinkOptions withDup(boolean value) {
        return copy(b -> b.dup = value);
    }

    /** @return a copy with another isolation level */
    public SinkOptions withIsolation(String value) {
        return copy(b -> b.isolation = value);
    }

    /** @return a copy that stops after the given idle time */
    public SinkOptions withUntilIdle(Duration value) {
        return copy(b -> {
            b.runFor = null;
            b.untilIdle = value;
            b.untilCaughtUp = false;
        });
    }

    /** @return a copy that stops after running this long, busy or not ({@code --for}) */
    public SinkOptions withRunFor(Duration value) {
        return copy(b -> {
            b.runFor = value;
            b.untilIdle = null;
            b.untilCaughtUp = false;
        });
    }

    /** @return a copy that stops once caught up with the end offsets read at its start ({@code --until-caught-up}) */
    public SinkOptions withUntilCaughtUp() {
        return copy(b -> {
            b.runFor = null;
            b.untilIdle = null;
            b.untilCaughtUp = true;
        });
    }

    /** @return a copy with another opt-in customer range ({@code --customers}), or none for null */
    public SinkOptions withCustomers(CustomerRange value) {
        return copy(b -> b.customers = value);
    }

    /** @return a copy writing rejected records to another topic ({@code --dlq-topic}) */
    public SinkOptions withDlqTopic(String value) {
        return copy(b -> b.dlqTopic = value);
    }

    /** @return a copy in another consumer group ({@code --group}) */
    public SinkOptions withGroupId(String value) {
        return copy(b -> b.groupId = value);
    }

    /** @return a copy writing to another ClickHouse target (e.g. another database) */
    public SinkOptions withClickhouse(ClickHouseTarget value) {
        return copy(b -> b.clickhouse = value);
    }

    /** @return a copy with static membership under this {@code group.instance.id}, or dynamic for null */
    public SinkOptions withInstanceId(String value) {
        return copy(b -> b.instanceId = value);
    }

    /** @return a copy with this consumer session timeout, or Kafka's default for null */
    public SinkOptions withSessionTimeout(Duration value) {
        return copy(b -> b.sessionTimeout = value);
    }

    /** @return a copy consuming another topic of the mode's record shape ({@code --topic}) */
    public SinkOptions withTopic(String value) {
        return copy(b -> b.topic = value);
    }

    /** @return a copy gathering polls into inserts this way ({@code --batch-rows}, {@code --batch-wait}) */
    public SinkOptions withBatching(Batching value) {
        return copy(b -> b.batching = value);
    }

    /** @return a copy committing written batches' offsets at most this often ({@code --commit-interval}; zero: each batch's) */
    public SinkOptions withCommitInterval(Duration value) {
        return copy(b -> b.commitInterval = value);
    }

    /**
     * TEST-ONLY: a copy with the totals contract on or off. Off reproduces the seed's unvalidated
     * consumer for a negative control (G11); it must never be used to run the pipeline.
     *
     * @return the copy
     */
    public SinkOptions withValidation(boolean value) {
        return copy(b -> b.validate = value);
    }

    /**
     * TEST-ONLY: a copy that writes the Kafka offset as the version (or not). On reproduces the
     * seed's version for the negative control of B10 (stale customers after the topic changes); it
     * must never be used to run the pipeline.
     *
     * @return the copy
     */
    public SinkOptions withOffsetAsVersion(boolean value) {
        return copy(b -> b.offsetAsVersion = value);
    }

    /**
     * FAULT INJECTION, TEST-ONLY: a copy that pauses this long before each batch's inserts (a slow
     * ClickHouse), so that a backlog drains slowly enough for group membership changes to land
     * mid-drain (B12); it must never be used to run the pipeline.
     *
     * @return the copy
     */
    public SinkOptions withInsertDelay(Duration value) {
        return copy(b -> b.insertDelay = value);
    }

    /**
     * FAULT INJECTION, TEST-ONLY: a copy that makes this mistake in offset handling (a twin that shows a checker
     * firing); it must never be used to run the pipeline.
     *
     * @return the copy
     */
    public SinkOptions withOffsetFault(OffsetFault value) {
        return copy(b -> b.offsetFault = value);
    }

    /**
     * @param value the user's Kafka client properties ({@code --kafka-config}; {@link KafkaClientConfig})
     * @return a copy whose consumer and dead-letter producer get them
     */
    public SinkOptions withKafkaConfig(KafkaClientConfig value) {
        return copy(b -> b.kafkaConfig = value);
    }

    private SinkOptions copy(Consumer<Copy> change) {
        Copy c = new Copy(this);
        change.accept(c);
        return new SinkOptions(bootstrapServers, c.clickhouse, mode, c.groupId, c.fromStart, c.dup, c.runFor,
                c.untilIdle, c.untilCaughtUp, c.isolation, c.customers, c.dlqTopic, maxValueBytes, c.validate,
                c.offsetAsVersion, c.instanceId, c.sessionTimeout, c.insertDelay, c.topic, c.batching, c.commitInterval,
                c.offsetFault, c.kafkaConfig);
    }

    /** The changeable components of one copy, set by a {@code with…} method before the copy is validated. */
    private static final class Copy {
        ClickHouseTarget clickhouse;
        String groupId;
        boolean fromStart;
        boolean dup;
        Duration runFor;
        Duration untilIdle;
        boolean untilCaughtUp;
        String isolation;
        CustomerRange customers;
        String dlqTopic;
        boolean validate;
        boolean offsetAsVersion;
        String instanceId;
        Duration sessionTimeout;
        Duration insertDelay;
        String topic;
        Batching batching;
        Duration commitInterval;
        OffsetFault offsetFault;
        KafkaClientConfig kafkaConfig;

        Copy(SinkOptions o) {
            clickhouse = o.clickhouse;
            groupId = o.groupId;
            fromStart = o.fromStart;
            dup = o.dup;
            runFor = o.runFor;
            untilIdle = o.untilIdle;
            untilCaughtUp = o.untilCaughtUp;
            isolation = o.isolation;
            customers = o.customers;
            dlqTopic = o.dlqTopic;
            validate = o.validate;
            offsetAsVersion = o.offsetAsVersion;
            instanceId = o.instanceId;
            sessionTimeout = o.sessionTimeout;
            insertDelay = o.insertDelay;
            topic = o.topic;
            batching = o.batching;
            commitInterval = o.commitInterval;
            offsetFault = o.offsetFault;
            kafkaConfig = o.kafkaConfig;
        }
    }
}
