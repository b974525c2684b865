package dev.seams.inbox;

import dev.seams.consumer.GroupMembership;
import dev.seams.consumer.KafkaSource;
import dev.seams.consumer.RunWindow;
import dev.seams.wire.TopicNames;
import java.util.Objects;

/**
 * One inbox sink run's settings ({@code seams inbox}'s flags; claim B4, seed 001), grouped as the records they are.
 * {@link #toString()} never shows the password ({@link InboxTarget#toString()}).
 *
 * @param source     what is consumed and how: cluster, topic ({@value #DEFAULT_TOPIC} by default), isolation, the
 *                   user's client properties ({@code --kafka-config})
 * @param membership the consumer group ({@value #DEFAULT_GROUP} by default; also names the group's rows of the offsets
 *                   table) and static membership: a restarted process with the same id takes its partitions back at
 *                   once instead of waiting for the killed member's session to expire
 * @param window     when the run ends: {@code --for}, {@code --until-idle}, {@code --until-caught-up}, or none
 * @param target     the PostgreSQL database written
 * @param mode       {@link InboxMode#INBOX} (exactly-once) or {@link InboxMode#PLAIN} (at-least-once twin)
 * @param commitSize records per poll and per database transaction ({@code max.poll.records}), >= 1
 * @param keepFactor the keys table keeps the keys of the {@code keepFactor × commitSize} newest changes by source LSN
 *                   (seed: 2-3), >= 1
 * @param faults     FAULT INJECTION (TEST-ONLY): {@link InboxFaults#NONE} in production
 */
public record InboxOptions(KafkaSource source, GroupMembership membership, RunWindow window, InboxTarget target,
                           InboxMode mode, int commitSize, int keepFactor, InboxFaults faults) {

    /** The inbox sink's default consumer group. */
    public static final String DEFAULT_GROUP = "ds-inbox";
    /** The default topic: Debezium's order events. */
    public static final String DEFAULT_TOPIC = TopicNames.ORDERS_EVENTS;
    /** Default records per poll and transaction. */
    public static final int DEFAULT_COMMIT_SIZE = 100;
    /** Default multiple of the commit size the keys table keeps (the seed: "в 2-3 раза больше commit-size"). */
    public static final int DEFAULT_KEEP_FACTOR = 3;

    /**
     * @throws NullPointerException     if a setting is null
     * @throws IllegalArgumentException if commitSize or keepFactor < 1 or their product exceeds an int
     */
    public InboxOptions {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(membership, "membership");
        Objects.requireNonNull(window, "window");
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(faults, "faults");
        if (commitSize < 1 || keepFactor < 1) {
            throw new IllegalArgumentException("--commit-size and --keep-factor must be >= 1, got "
                    + commitSize + " and " + keepFactor);
        }
        if ((long) commitSize * keepFactor > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("--keep-factor x --commit-size exceeds " + Integer.MAX_VALUE);
        }
    }

    /** @return how many keys (of the newest changes) the keys table keeps: keepFactor × commitSize */
    public int keep() {
        return commitSize * keepFactor;
    }
}
