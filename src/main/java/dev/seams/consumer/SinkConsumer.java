package dev.seams.consumer;

import dev.seams.kafka.KafkaClientConfig;
import java.time.Duration;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * The consumer configuration both sinks share (docs/sink.md): auto-commit off (offsets are
 * committed after the write), the given isolation level (G15), {@code auto.offset.reset=earliest}
 * for a group without offsets, no topic auto-creation (a missing topic is a fatal error,
 * {@link PollSession}), byte-array key and value, and optional static membership.
 */
public final class SinkConsumer {

    /**
     * {@code max.poll.records} of the ClickHouse sink: one poll, one batch of inserts. It bounds what a
     * failed commit can make the partitions' next owner write twice when each batch's commit is sent as it is
     * written (claim B12: at most one poll per failed commit); while the sink is behind, a commit interval
     * ({@code sink.SinkOptions#commitInterval}) lets that many polls' commits go together, and a failed one leaves
     * them all. A poll that returns this many records tells the sink it is behind ({@code OffsetCommitter#afterPoll}).
     */
    public static final int MAX_POLL_RECORDS = 1000;

    private SinkConsumer() {
    }

    /**
     * @param source         the cluster, topic, isolation level and user's client properties (applied last)
     * @param membership     the consumer group and static membership
     * @param clientId       client id (appears in the broker's and the lag probe's views)
     * @param maxPollRecords records per poll
     * @return a new, mutable Properties
     * @throws IllegalArgumentException if the user's client properties set what the sink owns ({@link KafkaClientConfig#applyTo})
     */
    public static Properties properties(KafkaSource source, GroupMembership membership, String clientId, int maxPollRecords) {
        String bootstrapServers = source.bootstrapServers();
        String groupId = membership.groupId();
        String isolation = source.isolation();
        String instanceId = membership.instanceId();
        Duration sessionTimeout = membership.sessionTimeout();
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        props.put(ConsumerConfig.GROUP_ID_CONFIG, groupId);
        props.put(ConsumerConfig.CLIENT_ID_CONFIG, clientId);
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, isolation);
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, "false");
        props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, Integer.toString(maxPollRecords));
        if (instanceId != null) {
            props.put(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, instanceId);
        }
        if (sessionTimeout != null) {
            props.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, Long.toString(sessionTimeout.toMillis()));
        }
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        return source.kafkaConfig().applyTo(props);
    }
}
