package dev.seams.kafka;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Reads the records of given offset ranges once, without a consumer group (assigned partitions, no commits): what
 * {@code seams lag} counts behind a committed offset and what {@code seams reconcile} reads as a topic's image.
 */
public final class OffsetRangeReader {

    private OffsetRangeReader() {
    }

    /** The ranges were not read within the timeout: the cluster served too slowly, or not at all. */
    public static final class NotReadInTimeException extends IllegalStateException {
        NotReadInTimeException(String message) {
            super(message);
        }
    }

    /**
     * Visits every record in {@code [from, to)} of each partition, in offset order per partition; where {@code from} is
     * below the partition's log start, from the log start (the records below it are gone). Control markers are never
     * returned; with {@link IsolationLevel#READ_COMMITTED} neither are aborted records, and {@code to} should be
     * the last stable offset (a read_committed consumer never reads past it).
     *
     * @param bootstrapServers Kafka bootstrap servers
     * @param clientConfig     the user's client properties ({@code --kafka-config})
     * @param isolation        the consumer's isolation level
     * @param from             partition → first offset to read
     * @param to               partition → offset to stop before; a partition with {@code from >= to} is not read
     * @param timeout          how long the whole read may take
     * @param each             called with each record in range
     * @throws NotReadInTimeException if the ranges were not read within {@code timeout}
     * @throws org.apache.kafka.common.KafkaException on a fatal client error (authorization, unknown topic)
     */
    public static void read(String bootstrapServers, KafkaClientConfig clientConfig, IsolationLevel isolation,
                            Map<TopicPartition, Long> from, Map<TopicPartition, Long> to, Duration timeout,
                            Consumer<ConsumerRecord<byte[], byte[]>> each) {
        List<TopicPartition> behind = from.keySet().stream().filter(tp -> from.get(tp) < to.get(tp)).toList();
        if (behind.isEmpty()) {
            return;
        }
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, isolation.toString());
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(clientConfig.applyTo(props))) {
            consumer.assign(behind);
            // a range that starts below the log start (retention, deleteRecords) is read from the log start: a seek below
            // it would reset by the consumer's policy (latest by default: the whole range skipped, nothing counted)
            Map<TopicPartition, Long> logStart = consumer.beginningOffsets(behind, timeout);
            behind.forEach(tp -> consumer.seek(tp, Math.max(from.get(tp), logStart.getOrDefault(tp, 0L))));
            long deadline = System.nanoTime() + timeout.toNanos();
            while (behind.stream().anyMatch(tp -> consumer.position(tp) < to.get(tp))) {
                if (System.nanoTime() > deadline) {
                    throw new NotReadInTimeException("could not read up to the offsets " + to + " within " + timeout);
                }
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    if (r.offset() < to.get(new TopicPartition(r.topic(), r.partition()))) {
                        each.accept(r);
                    }
                }
            }
        }
    }
}
