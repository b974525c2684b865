package dev.seams.truth;

import dev.seams.wire.CustomerTotals;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.WeakHashMap;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;

/**
 * The latest ds-streams snapshot per customer in {@code customer.totals} (read_committed, highest
 * {@code version} wins; {@link Topics#latestSnapshots()}), kept per stand and brought up to date
 * incrementally: each read continues at the offsets where the previous one stopped (the last stable
 * offsets then), so waiting for the pipeline to settle does not re-read a topic of tens of thousands of
 * records every poll. The result equals a read from the beginning: records are immutable, a
 * read_committed fetch skips aborted records wherever it starts, and records of a transaction still
 * open lie at or above the last stable offset, where the next read begins.
 *
 * <p>Read again from the beginning whenever what was read may no longer be in the log: the topic's id
 * changed (deleted and re-created, B10), its partitions changed, or a partition's log start offset moved
 * ({@code deleteRecords}, which {@code faults.Injection#close()} uses to remove injected records), and after
 * any failure (e.g. a record that is not a totals snapshot).
 */
final class LatestSnapshots {

    private static final Map<Admin, LatestSnapshots> BY_CLUSTER = new WeakHashMap<>();
    private static final Duration READ_TIMEOUT = Duration.ofMinutes(2);

    private final Admin admin;
    private final Properties reader;
    private Uuid topicId;
    private Map<TopicPartition, Long> logStart = Map.of();
    private final Map<TopicPartition, Long> next = new HashMap<>();
    private final Map<Long, CustomerTotals> latest = new TreeMap<>();

    private LatestSnapshots(Admin admin, Properties reader) {
        this.admin = admin;
        this.reader = reader;
    }

    /**
     * @param reader a read_committed reader's properties ({@code Topics#readerProperties}), used by the first call per cluster
     * @return the cluster's reader (one per admin client, i.e. per stand)
     */
    static synchronized LatestSnapshots of(Admin admin, Properties reader) {
        return BY_CLUSTER.computeIfAbsent(admin, a -> new LatestSnapshots(a, reader));
    }

    /**
     * @return customer → its snapshot with the highest version, as a read of the whole topic now would give it
     * @throws IllegalStateException at a record that is not a totals snapshot
     */
    synchronized Map<Long, CustomerTotals> read() {
        try {
            TopicDescription topic = admin.describeTopics(List.of(RunNames.CUSTOMER_TOTALS)).allTopicNames().get()
                    .get(RunNames.CUSTOMER_TOTALS);
            List<TopicPartition> partitions = topic.partitions().stream()
                    .map(p -> new TopicPartition(RunNames.CUSTOMER_TOTALS, p.partition())).toList();
            Map<TopicPartition, Long> start = earliest(partitions);
            if (!topic.topicId().equals(topicId) || !start.equals(logStart)) {
                topicId = topic.topicId();
                logStart = start;
                next.clear();
                latest.clear();
            }
            catchUp(partitions);
            return new TreeMap<>(latest);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            topicId = null;
            throw new IllegalStateException(e);
        } catch (ExecutionException | RuntimeException e) {
            topicId = null;   // read everything again next time
            throw e instanceof RuntimeException r ? r : new IllegalStateException("cannot read " + RunNames.CUSTOMER_TOTALS, e);
        }
    }

    private Map<TopicPartition, Long> earliest(List<TopicPartition> partitions) throws InterruptedException, ExecutionException {
        Map<TopicPartition, OffsetSpec> request = new HashMap<>();
        partitions.forEach(tp -> request.put(tp, OffsetSpec.earliest()));
        Map<TopicPartition, Long> start = new HashMap<>();
        for (Map.Entry<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> en
                : admin.listOffsets(request).all().get().entrySet()) {
            start.put(en.getKey(), en.getValue().offset());
        }
        return start;
    }

    private void catchUp(List<TopicPartition> partitions) {
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(reader)) {
            consumer.assign(partitions);
            for (TopicPartition tp : partitions) {
                consumer.seek(tp, next.getOrDefault(tp, logStart.getOrDefault(tp, 0L)));
            }
            Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
            long deadline = System.nanoTime() + READ_TIMEOUT.toNanos();
            while (partitions.stream().anyMatch(tp -> consumer.position(tp) < ends.get(tp))) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("could not read " + RunNames.CUSTOMER_TOTALS + " to its end offsets " + ends);
                }
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                    merge(record);
                }
            }
            partitions.forEach(tp -> next.put(tp, consumer.position(tp)));
        }
    }

    private void merge(ConsumerRecord<byte[], byte[]> record) {
        CustomerTotals t;
        try {
            t = CustomerTotals.fromJson(record.value());
        } catch (RuntimeException e) {
            throw new IllegalStateException("unexpected record in customer.totals at " + record.partition() + "@" + record.offset(), e);
        }
        latest.merge(t.customerId(), t, (a, b) -> b.version() > a.version() ? b : a);
    }
}
