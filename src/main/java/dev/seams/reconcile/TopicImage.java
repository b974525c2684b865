package dev.seams.reconcile;

import dev.seams.kafka.KafkaClientConfig;
import dev.seams.kafka.OffsetRangeReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;

/**
 * A changelog topic as its consumers hold it: the last record of each key, read read_committed from the beginning of
 * each partition up to its last stable offset at the time of the read (claim B14 "slot dropped": what the pipeline
 * still believes about each order).
 */
public final class TopicImage {

    /**
     * One key's last record.
     *
     * @param partition the partition it was read from (every record of a key is in one partition)
     * @param offset    its offset
     * @param key       its key bytes, as written (a record written back under these bytes lands beside it)
     * @param value     its value bytes, null for a tombstone
     */
    public record Last(int partition, long offset, byte[] key, byte[] value) {
    }

    private final Map<String, Last> last = new LinkedHashMap<>();
    private long records;

    /** An empty image; {@link #add} folds records into it. */
    public TopicImage() {
    }

    /**
     * Folds one record into the image: it replaces the key's earlier record. A record without a key is counted and
     * otherwise ignored (a table keeps no row for it).
     *
     * @param record a record, in offset order per partition
     */
    public void add(ConsumerRecord<byte[], byte[]> record) {
        records++;
        if (record.key() != null) {
            last.put(new String(record.key(), StandardCharsets.UTF_8),
                    new Last(record.partition(), record.offset(), record.key(), record.value()));
        }
    }

    /** @return every key's last record, in the order the keys were first seen */
    public Collection<Last> lastRecords() {
        return last.values();
    }

    /** @return records folded in, keyless ones included */
    public long records() {
        return records;
    }

    /**
     * Reads a whole topic into an image.
     *
     * @param admin            an admin client of the cluster (not closed here), for the partitions and their offsets
     * @param bootstrapServers the same cluster, for the reading consumer
     * @param clientConfig     the user's client properties ({@code --kafka-config})
     * @param topic            the topic
     * @param timeout          how long each step (offsets, the read) may take
     * @return the image of every record below each partition's last stable offset, aborted records excluded
     * @throws IllegalStateException if the read did not finish within {@code timeout}, or the broker did not answer
     * @throws KafkaException        on a fatal client error (authorization, unknown topic)
     */
    public static TopicImage read(Admin admin, String bootstrapServers, KafkaClientConfig clientConfig, String topic,
                                  Duration timeout) {
        List<TopicPartition> partitions = get(admin.describeTopics(List.of(topic)).allTopicNames(), timeout).get(topic)
                .partitions().stream().map(p -> new TopicPartition(topic, p.partition())).toList();
        Map<TopicPartition, Long> from = offsets(admin, partitions, OffsetSpec.earliest(), timeout);
        Map<TopicPartition, Long> to = offsets(admin, partitions, OffsetSpec.latest(), timeout);
        TopicImage image = new TopicImage();
        OffsetRangeReader.read(bootstrapServers, clientConfig, IsolationLevel.READ_COMMITTED, from, to, timeout, image::add);
        return image;
    }

    /** Offsets as a read_committed consumer sees them: latest is the last stable offset. */
    private static Map<TopicPartition, Long> offsets(Admin admin, List<TopicPartition> partitions, OffsetSpec spec,
                                                     Duration timeout) {
        Map<TopicPartition, OffsetSpec> request = new HashMap<>();
        partitions.forEach(tp -> request.put(tp, spec));
        Map<TopicPartition, Long> offsets = new HashMap<>();
        get(admin.listOffsets(request, new ListOffsetsOptions(IsolationLevel.READ_COMMITTED)).all(), timeout)
                .forEach((tp, info) -> offsets.put(tp, info.offset()));
        return offsets;
    }

    private static <T> T get(org.apache.kafka.common.KafkaFuture<T> future, Duration timeout) {
        try {
            return future.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof KafkaException k) {
                throw k;
            }
            throw new IllegalStateException("the broker refused: " + e.getCause(), e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException("the broker did not answer within " + timeout, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
