package dev.seams.consumer;

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
     * {@code max.poll.records} of the ClickHouse sink: one poll, one batch of inserts. It bounds what
     * a rebalance can make the partitions' next owner write twice (claim B12: at most one poll per rebalance).
     */
    public static final int MAX_POLL_RECORDS = 1000;

    private SinkConsumer() {
    }

    /**
     * @param bootstrapServers Kafka bootstrap servers
     * @param groupId          consumer group
     * @param clientId         client id (appears in the broker's and the lag probe's views)
     * @param isolation        {@code read_committed} or {@code read_uncommitted}
     * @param maxPollRecords   records per poll
     * @param instanceId       {@code group.instance.id} (static membership), or null
     * @param sessionTimeout   {@code session.timeout.ms}, or null for Kafka's default
     * @return a new, mutable Properties
     */
    public static Properties properties(String bootstrapServers, String groupId, String clientId, String isolation,
                                        int maxPollRecords, String instanceId, Duration sessionTimeout) {
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
        return props;
    }
}
