package dev.seams.inbox;

import dev.seams.wire.InvalidJsonException;
import dev.seams.wire.OrderEvent;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * One poll of {@code orders.events}, parsed into ledger entries in read order (claim B4): every
 * INSERT, UPDATE and DELETE (the rewritten old row, {@code "__deleted":"true"}) is an entry. A
 * row-less deletion (a Kafka tombstone or the JSON value {@code null}, an older connector's output)
 * names no customer and no change: it is counted as a tombstone and carries no entry.
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
     * @param polled       the poll's records, in the consumer's order
     * @param keyByOrderId FAULT INJECTION: key entries by the order id ({@link ChangeKeys#orderKey}), not the change
     * @return the batch
     * @throws UnprocessableRecordException at the first value that is not an order event
     */
    static PollBatch of(Iterable<ConsumerRecord<byte[], byte[]>> polled, boolean keyByOrderId) {
        List<LedgerEntry> entries = new ArrayList<>();
        int records = 0;
        int tombstones = 0;
        for (ConsumerRecord<byte[], byte[]> record : polled) {
            records++;
            OrderEvent event;
            try {
                event = OrderEvent.ofValue(record.value());
            } catch (InvalidJsonException e) {
                throw new UnprocessableRecordException("record " + record.topic() + "-" + record.partition() + "@"
                        + record.offset() + " is not an order event: " + e.getMessage(), e);
            }
            if (event == null) {
                tombstones++;
                continue;
            }
            String key = keyByOrderId ? ChangeKeys.orderKey(record) : ChangeKeys.of(record, event);
            entries.add(new LedgerEntry(key, event.orderId(), event.customerId(), event.amount(), event.op(),
                    event.lsn(), event.deleted(), record.partition(), record.offset()));
        }
        return new PollBatch(List.copyOf(entries), records, tombstones);
    }

    /** @return every entry (row-less deletions excluded), in read order */
    List<LedgerEntry> entries() {
        return entries;
    }

    /**
     * The entries that Kafka delivered again although the database already stored their
     * partition's position beyond them (claim B4: redeliveries are excluded exactly, by offsets).
     *
     * @param storedNext partition → the next offset the database stored for it; a partition
     *                   missing or with a negative offset has none
     * @return the entries at or beyond the stored offsets, in read order
     */
    List<LedgerEntry> beyond(Map<Integer, Long> storedNext) {
        return entries.stream().filter(e -> e.offset() >= storedNext.getOrDefault(e.partition(), -1L)).toList();
    }

    /** @return the distinct keys of the entries, in first-read order */
    static Set<String> keys(List<LedgerEntry> entries) {
        Set<String> keys = new LinkedHashSet<>();
        entries.forEach(e -> keys.add(e.key()));
        return keys;
    }

    /**
     * The entries to write in mode inbox: those whose key is not already processed, and of
     * several entries with the same key only the first.
     *
     * @param entries   candidate entries, in read order
     * @param processed keys already in the processed-keys table
     * @return the new entries, in read order
     */
    static List<LedgerEntry> fresh(List<LedgerEntry> entries, Collection<String> processed) {
        Set<String> seen = new HashSet<>(processed);
        List<LedgerEntry> fresh = new ArrayList<>();
        for (LedgerEntry entry : entries) {
            if (seen.add(entry.key())) {
                fresh.add(entry);
            }
        }
        return fresh;
    }

    /** @return the number of records polled, row-less deletions included */
    int records() {
        return records;
    }

    /** @return the number of row-less deletions polled */
    int tombstones() {
        return tombstones;
    }
}
