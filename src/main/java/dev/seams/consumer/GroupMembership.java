package dev.seams.consumer;

import java.time.Duration;
import java.util.Objects;

/**
 * A sink's place in its consumer group ({@code --group}, {@code --instance-id}, {@code --session-timeout}).
 *
 * @param groupId        the consumer group
 * @param instanceId     static membership ({@code group.instance.id}): a restarted process with the same id takes its
 *                       partitions back at once instead of waiting for the killed member's session to expire (claim
 *                       B9); null for dynamic membership
 * @param sessionTimeout the consumer's {@code session.timeout.ms}; null for Kafka's default (45 s)
 */
public record GroupMembership(String groupId, String instanceId, Duration sessionTimeout) {

    /** @throws NullPointerException if the group is null */
    public GroupMembership {
        Objects.requireNonNull(groupId, "groupId");
    }

    /**
     * @param groupId the consumer group
     * @return dynamic membership of that group with Kafka's default session timeout
     */
    public static GroupMembership dynamic(String groupId) {
        return new GroupMembership(groupId, null, null);
    }

    /** @return a copy in another group */
    public GroupMembership withGroupId(String value) {
        return new GroupMembership(value, instanceId, sessionTimeout);
    }

    /** @return a copy with static membership under this id, or dynamic for null */
    public GroupMembership withInstanceId(String value) {
        return new GroupMembership(groupId, value, sessionTimeout);
    }

    /** @return a copy with this session timeout, or Kafka's default for null */
    public GroupMembership withSessionTimeout(Duration value) {
        return new GroupMembership(groupId, instanceId, value);
    }
}
