package dev.seams.inbox;

import dev.seams.streams.InvalidJsonException;
import dev.seams.streams.OrderEvent;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * One poll of {@code orders.events}, parsed into ledger entries in read order (claim B4). A
 * tombstone (null value: the order was deleted) carries no row and no key and is only counted.
 */
final class PollBatch {

    private final List<LedgerEntry> entries;
    private final int records;
    private final int tombstones;

    private PollBatch(List<LedgerEntry> entries, int records, int tombstones) {
        this.entries = entries;
        this.records = records;
        this.tombstones = tombstones;
    }

    /**
     * @param polled the poll's records, in the consumer's order
     * @return the batch
     * @throws UnprocessableRecordException at the first value that is not an order event
     */
    static PollBatch of(Iterable<ConsumerRecord<byte[], byte[]>> polled) {
        List<LedgerEntry> entries = new ArrayList<>();
        int records = 0;
        int tombstones = 0;
        for (ConsumerRecord<byte[], byte[]> record : polled) {
            records++;
            if (record.value() == null) {
                tombstones++;
                continue;
            }
            OrderEvent event;
            try {
                event = OrderEvent.parse(record.value());
            } catch (InvalidJsonException e) {
                throw new UnprocessableRecordException("record " + record.topic() + "-" + record.partition() + "@"
                        + record.offset() + " is not an order event: " + e.getMessage(), e);
            }
            entries.add(new LedgerEntry(MessageKeys.of(record), event.orderId(), event.customerId(), event.amount(),
                    record.partition(), record.offset()));
        }
        return new PollBatch(List.copyOf(entries), records, tombstones);
    }

    /** @return every entry (tombstones excluded), in read order */
    List<LedgerEntry> entries() {
        return entries;
    }

    /** @return the distinct keys of the entries, in first-read order */
    Set<String> keys() {
        Set<String> keys = new LinkedHashSet<>();
        entries.forEach(e -> keys.add(e.key()));
        return keys;
    }

    /**
     * The entries to write in mode inbox: those whose key is not already processed, and of
     * several entries with the same key in this poll only the first.
     *
     * @param processed keys already in the processed-keys table
     * @return the new entries, in read order
     */
    List<LedgerEntry> fresh(Collection<String> processed) {
        Set<String> seen = new HashSet<>(processed);
        List<LedgerEntry> fresh = new ArrayList<>();
        for (LedgerEntry entry : entries) {
            if (seen.add(entry.key())) {
                fresh.add(entry);
            }
        }
        return fresh;
    }

    /** @return the number of records polled, tombstones included */
    int records() {
        return records;
    }

    /** @return the number of tombstones polled */
    int tombstones() {
        return tombstones;
    }
}
