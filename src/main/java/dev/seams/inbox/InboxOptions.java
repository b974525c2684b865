package dev.seams.inbox;

import dev.seams.consumer.RunWindow;
import dev.seams.kafka.KafkaClientConfig;
import dev.seams.wire.TopicNames;
import java.time.Duration;
import java.util.Objects;

/**
 * One inbox sink run's settings ({@code seams inbox}'s flags; claim B4, seed 001).
 * {@link #toString()} never shows the password.
 *
 * @param bootstrapServers Kafka bootstrap servers, {@code host:port[,host:port]}
 * @param jdbcUrl          the target PostgreSQL database, e.g.
 *                         {@code jdbc:postgresql://localhost:5432/ledger?currentSchema=inbox}
 * @param user             its user
 * @param password         its password ({@code --password}, {@code --password-file} or {@code SEAMS_PG_PASSWORD})
 * @param topic            the topic to consume, {@code orders.events} by default
 * @param groupId          consumer group, {@value #DEFAULT_GROUP} by default; also names the
 *                         group's rows of the offsets table
 * @param mode             {@link InboxMode#INBOX} (exactly-once) or {@link InboxMode#PLAIN} (at-least-once twin)
 * @param commitSize       records per poll and per database transaction ({@code max.poll.records}), >= 1
 * @param keepFactor       the keys table keeps the keys of the {@code keepFactor × commitSize} newest
 *                         changes by source LSN (seed: 2-3), >= 1
 * @param runFor           stop after this long ({@code --for}); or null
 * @param untilIdle        stop after this long with nothing to read ({@code --until-idle}); or null
 * @param isolation        {@code read_committed} or {@code read_uncommitted}
 * @param instanceId       static group membership ({@code group.instance.id}): a restarted process
 *                         with the same id takes its partitions back at once instead of waiting for
 *                         the killed member's session to expire; null for dynamic membership
 * @param sessionTimeout   the consumer's {@code session.timeout.ms}; null for Kafka's default (45 s)
 * @param crash            FAULT INJECTION (TEST-ONLY): {@link CrashSwitch#OFF} in production
 * @param untilCaughtUp    stop once caught up with the end offsets read at the start
 *                         ({@code --until-caught-up}); at most one of the three run windows is set, none: until stopped
 * @param keyByOrderId     FAULT INJECTION (TEST-ONLY): key the keys table by the record key (the
 *                         order id, the seed's natural key) instead of the change, which takes an
 *                         UPDATE for a repeat — the negative control of B4; false in production
 * @param kafkaConfig      the user's client properties for the consumer ({@code --kafka-config};
 *                         {@link KafkaClientConfig}), {@link KafkaClientConfig#NONE} by default
 */
public record InboxOptions(String bootstrapServers, String jdbcUrl, String user, String password, String topic,
                           String groupId, InboxMode mode, int commitSize, int keepFactor, Duration runFor,
                           Duration untilIdle, String isolation, String instanceId, Duration sessionTimeout,
                           CrashSwitch crash, boolean untilCaughtUp, boolean keyByOrderId, KafkaClientConfig kafkaConfig) {

    /** The inbox sink's default consumer group. */
    public static final String DEFAULT_GROUP = "ds-inbox";
    /** The default topic: Debezium's order events. */
    public static final String DEFAULT_TOPIC = TopicNames.ORDERS_EVENTS;
    /** Default records per poll and transaction. */
    public static final int DEFAULT_COMMIT_SIZE = 100;
    /** Default multiple of the commit size the keys table keeps (the seed: "в 2-3 раза больше commit-size"). */
    public static final int DEFAULT_KEEP_FACTOR = 3;

    /**
     * @throws NullPointerException     if a required setting is null
     * @throws IllegalArgumentException if commitSize or keepFactor < 1 or their product exceeds an
     *                                  int, more than one run window is set, or the isolation
     *                                  level is unknown
     */
    public InboxOptions {
        Objects.requireNonNull(bootstrapServers, "bootstrapServers");
        Objects.requireNonNull(jdbcUrl, "jdbcUrl");
        Objects.requireNonNull(user, "user");
        Objects.requireNonNull(password, "password");
        Objects.requireNonNull(topic, "topic");
        Objects.requireNonNull(groupId, "groupId");
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(crash, "crash");
        Objects.requireNonNull(kafkaConfig, "kafkaConfig");
        if (commitSize < 1 || keepFactor < 1) {
            throw new IllegalArgumentException("--commit-size and --keep-factor must be >= 1, got "
                    + commitSize + " and " + keepFactor);
        }
        new RunWindow(runFor, untilIdle, untilCaughtUp);
        if (!"read_committed".equals(isolation) && !"read_uncommitted".equals(isolation)) {
            throw new IllegalArgumentException("isolation must be read_committed or read_uncommitted, got " + isolation);
        }
        if ((long) commitSize * keepFactor > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("--keep-factor x --commit-size exceeds " + Integer.MAX_VALUE);
        }
    }

    /** The settings of the first release: run window {@code --for} or {@code --until-idle}, keys by change. */
    public InboxOptions(String bootstrapServers, String jdbcUrl, String user, String password, String topic,
                        String groupId, InboxMode mode, int commitSize, int keepFactor, Duration runFor,
                        Duration untilIdle, String isolation, String instanceId, Duration sessionTimeout,
                        CrashSwitch crash) {
        this(bootstrapServers, jdbcUrl, user, password, topic, groupId, mode, commitSize, keepFactor, runFor,
                untilIdle, isolation, instanceId, sessionTimeout, crash, false, false, KafkaClientConfig.NONE);
    }

    /** @return how many keys (of the newest changes) the keys table keeps: keepFactor × commitSize */
    public int keep() {
        return commitSize * keepFactor;
    }

    /** @return the run window */
    public RunWindow window() {
        return new RunWindow(runFor, untilIdle, untilCaughtUp);
    }

    /** @return the settings with the password masked */
    @Override
    public String toString() {
        return "InboxOptions[bootstrapServers=" + bootstrapServers + ", jdbcUrl=" + jdbcUrl + ", user=" + user
                + ", password=" + (password.isEmpty() ? "" : "***") + ", topic=" + topic + ", groupId=" + groupId
                + ", mode=" + mode + ", commitSize=" + commitSize + ", keepFactor=" + keepFactor + ", runFor=" + runFor
                + ", untilIdle=" + untilIdle + ", untilCaughtUp=" + untilCaughtUp + ", isolation=" + isolation
                + ", instanceId=" + instanceId + ", sessionTimeout=" + sessionTimeout + ", crash=" + crash
                + ", keyByOrderId=" + keyByOrderId + ", kafkaConfig=" + kafkaConfig + "]";
    }
}
