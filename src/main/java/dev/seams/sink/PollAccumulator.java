package dev.seams.sink;

import dev.seams.consumer.Batches;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * The records of the polls not yet written, gathered into one batch by the sink's {@link Batching}
 * (issue 13 P2). {@link #drain()} hands them over as one {@link ConsumerRecords}, each partition's
 * records in offset order, so that the batch is written, re-read ({@link Batches#rewind}) and
 * committed ({@link Batches#nextOffsets}, the consumer's position after the last poll) as one poll
 * would be. Not thread-safe: the polling thread and its rebalance callbacks only.
 */
final class PollAccumulator {

    private final Batching batching;
    private final Clock clock;
    private final Map<TopicPartition, List<ConsumerRecord<byte[], byte[]>>> records = new LinkedHashMap<>();
    private int count;
    private Instant oldest;

    PollAccumulator(Batching batching, Clock clock) {
        this.batching = batching;
        this.clock = clock;
    }

    /** Adds one poll's records (none is fine). */
    void add(ConsumerRecords<byte[], byte[]> polled) {
        if (polled.isEmpty()) {
            return;
        }
        if (count == 0) {
            oldest = clock.instant();
        }
        for (TopicPartition tp : polled.partitions()) {
            records.computeIfAbsent(tp, k -> new ArrayList<>()).addAll(polled.records(tp));
        }
        count += polled.count();
    }

    /** @return whether records are gathered and due for their insert ({@link Batching#due}) */
    boolean due() {
        return count > 0 && batching.due(count, Duration.between(oldest, clock.instant()));
    }

    /** @return whether nothing is gathered */
    boolean isEmpty() {
        return count == 0;
    }

    /**
     * @param longest the longest the next poll may block
     * @return how long the next poll may block so that the oldest gathered record's wait is kept:
     *     {@code longest}, or less while records wait (never negative)
     */
    Duration pollTimeout(Duration longest) {
        if (count == 0 || batching.rows() == 0) {
            return longest;
        }
        Duration left = batching.maxWait().minus(Duration.between(oldest, clock.instant()));
        return left.isNegative() ? Duration.ZERO : left.compareTo(longest) < 0 ? left : longest;
    }

    /** @return the gathered records as one batch; the accumulator is empty afterwards */
    ConsumerRecords<byte[], byte[]> drain() {
        Map<TopicPartition, OffsetAndMetadata> next = new HashMap<>();
        records.forEach((tp, list) -> next.put(tp, new OffsetAndMetadata(list.get(list.size() - 1).offset() + 1)));
        ConsumerRecords<byte[], byte[]> batch = new ConsumerRecords<>(new LinkedHashMap<>(records), next);
        records.clear();
        count = 0;
        oldest = null;
        return batch;
    }
}
