package dev.seams.inbox;

import java.time.Duration;
import java.util.Objects;

/**
 * One inbox sink run's settings ({@code seams inbox}'s flags; claim B4, seed 001).
 *
 * @param bootstrapServers Kafka bootstrap servers, {@code host:port[,host:port]}
 * @param jdbcUrl          the target PostgreSQL database, e.g.
 *                         {@code jdbc:postgresql://localhost:5432/ledger?currentSchema=inbox}
 * @param user             its user
 * @param password         its password
 * @param topic            the topic to consume, {@code orders.events} by default
 * @param groupId          consumer group, {@value #DEFAULT_GROUP} by default
 * @param mode             {@link InboxMode#INBOX} (exactly-once) or {@link InboxMode#PLAIN} (at-least-once twin)
 * @param commitSize       records per poll and per database transaction ({@code max.poll.records}), >= 1
 * @param keepFactor       the keys table keeps {@code keepFactor × commitSize} newest keys (seed: 2-3), >= 1
 * @param runFor           stop after this long ({@code --for}); null if {@code untilIdle} is set
 * @param untilIdle        stop after this long with nothing to read ({@code --until-idle}); null if {@code runFor} is set
 * @param isolation        {@code read_committed} or {@code read_uncommitted}
 * @param instanceId       static group membership ({@code group.instance.id}): a restarted process
 *                         with the same id takes its partitions back at once instead of waiting for
 *                         the killed member's session to expire; null for dynamic membership
 * @param sessionTimeout   the consumer's {@code session.timeout.ms}; null for Kafka's default (45 s)
 * @param crash            TEST-ONLY fault injection, {@link CrashSwitch#OFF} in production
 */
public record InboxOptions(String bootstrapServers, String jdbcUrl, String user, String password, String topic,
                           String groupId, InboxMode mode, int commitSize, int keepFactor, Duration runFor,
                           Duration untilIdle, String isolation, String instanceId, Duration sessionTimeout,
                           CrashSwitch crash) {

    /** The inbox sink's default consumer group. */
    public static final String DEFAULT_GROUP = "ds-inbox";
    /** The default topic: Debezium's order events. */
    public static final String DEFAULT_TOPIC = "orders.events";
    /** Default records per poll and transaction. */
    public static final int DEFAULT_COMMIT_SIZE = 100;
    /** Default multiple of the commit size the keys table keeps (the seed: "в 2-3 раза больше commit-size"). */
    public static final int DEFAULT_KEEP_FACTOR = 3;

    /**
     * @throws NullPointerException     if a required setting is null
     * @throws IllegalArgumentException if commitSize or keepFactor < 1 or their product exceeds an
     *                                  int, neither or both of runFor/untilIdle are set, or the
     *                                  isolation level is unknown
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
        if (commitSize < 1 || keepFactor < 1) {
            throw new IllegalArgumentException("--commit-size and --keep-factor must be >= 1, got "
                    + commitSize + " and " + keepFactor);
        }
        if ((runFor == null) == (untilIdle == null)) {
            throw new IllegalArgumentException("exactly one of --for and --until-idle must be given");
        }
        if (!"read_committed".equals(isolation) && !"read_uncommitted".equals(isolation)) {
            throw new IllegalArgumentException("isolation must be read_committed or read_uncommitted, got " + isolation);
        }
        if ((long) commitSize * keepFactor > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("--keep-factor x --commit-size exceeds " + Integer.MAX_VALUE);
        }
    }

    /** @return how many newest keys the keys table keeps: keepFactor × commitSize */
    public int keep() {
        return commitSize * keepFactor;
    }
}
