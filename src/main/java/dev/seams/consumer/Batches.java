package dev.seams.consumer;

import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What both sinks do with one poll's records around its write: name its position, re-read it
 * after a retriable failure, and compute the offsets to commit after a successful write.
 */
public final class Batches {

    private static final Logger LOG = LoggerFactory.getLogger(Batches.class);
    /** One partition of a {@link #position}: {@code <topic>-<partition>@<first>..<last>}. */
    private static final Pattern PARTITION_RANGE = Pattern.compile("([A-Za-z0-9._-]+)-(\\d+)@(\\d+)\\.\\.(\\d+)");

    /** The offsets of one partition's records in a batch, both ends included. */
    public record OffsetRange(long first, long last) {
    }

    private Batches() {
    }

    /**
     * @param records one poll's records
     * @return the batch's position, partitions in order, e.g.
     *     {@code customer.totals-0@12..57, customer.totals-2@3..9}; {@code (empty)} for no record
     */
    public static String position(ConsumerRecords<?, ?> records) {
        StringJoiner joined = new StringJoiner(", ");
        records.partitions().stream()
                .sorted(Comparator.comparing(TopicPartition::topic).thenComparingInt(TopicPartition::partition))
                .forEach(tp -> {
                    List<? extends ConsumerRecord<?, ?>> of = records.records(tp);
                    joined.add(tp + "@" + of.get(0).offset() + ".." + of.get(of.size() - 1).offset());
                });
        return records.isEmpty() ? "(empty)" : joined.toString();
    }

    /**
     * Reads back what {@link #position} wrote, wherever it stands in a text (e.g. the sink's crash line, claim B5).
     *
     * @param text any text, e.g. {@code batch customer.totals-0@12..57, customer.totals-2@3..9 inserted}
     * @return partition → its offset range, in the text's order; empty if the text names none
     */
    public static Map<TopicPartition, OffsetRange> parsePosition(String text) {
        Map<TopicPartition, OffsetRange> ranges = new LinkedHashMap<>();
        Matcher m = PARTITION_RANGE.matcher(text);
        while (m.find()) {
            ranges.put(new TopicPartition(m.group(1), Integer.parseInt(m.group(2))),
                    new OffsetRange(Long.parseLong(m.group(3)), Long.parseLong(m.group(4))));
        }
        return ranges;
    }

    /**
     * Seeks every partition of the batch back to its first record, so the next poll re-reads the
     * batch (nothing of it was committed). Call it before the next poll: the partitions are still assigned.
     */
    public static void rewind(Consumer<?, ?> consumer, ConsumerRecords<?, ?> records) {
        for (TopicPartition tp : records.partitions()) {
            consumer.seek(tp, records.records(tp).get(0).offset());
        }
    }

    /**
     * After a retriable write failure: one log line naming the failure and the batch, the batch
     * rewound ({@link #rewind}), then the {@link Backoff}'s wait.
     *
     * @param failure what failed, with its class, e.g. {@code insert of 57 rows into customer_totals
     *                failed (retriable: server error 252 (too many parts)): …}
     * @return the number of records left uncommitted (the batch's)
     */
    public static int reread(Consumer<?, ?> consumer, ConsumerRecords<?, ?> records, Backoff backoff, String failure) {
        LOG.warn("{}; batch {} re-read in {} ms (retry {}), nothing committed", failure, position(records),
                backoff.nextMs(), backoff.attempt() + 1);
        rewind(consumer, records);
        backoff.sleep();
        return records.count();
    }

    /**
     * The offsets to commit once the batch is written: each partition's consumer position, which
     * steps past transaction control markers (so a caught-up read_committed group shows lag 0, G12).
     * Call it before the next poll.
     *
     * @return partition → next offset to read
     */
    public static Map<TopicPartition, OffsetAndMetadata> nextOffsets(Consumer<?, ?> consumer, ConsumerRecords<?, ?> records) {
        Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
        for (TopicPartition tp : records.partitions()) {
            offsets.put(tp, new OffsetAndMetadata(consumer.position(tp)));
        }
        return offsets;
    }

    /** @return partition → how many records of the batch it holds */
    public static Map<TopicPartition, Long> counts(ConsumerRecords<?, ?> records) {
        Map<TopicPartition, Long> counts = new HashMap<>();
        for (TopicPartition tp : records.partitions()) {
            counts.put(tp, (long) records.records(tp).size());
        }
        return counts;
    }
}
