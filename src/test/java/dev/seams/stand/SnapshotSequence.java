package dev.seams.stand;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;

/**
 * Per-order check of the changelog {@code customer.totals} under an insert-only load: every new
 * order must move its customer's snapshot {@code orders} by exactly +1, in offset order (one customer
 * lives in one partition). A snapshot that does not advance is a {@code duplicate} (an input
 * processed twice, or data of an aborted transaction seen), a jump of k > 1 is k − 1 {@code lost}
 * orders. Counted against the expected sequence, never as count() − uniqExact() (CLAIMS.md).
 *
 * @param records   data records read after the start offsets
 * @param duplicate snapshots that did not advance
 * @param lost      orders skipped by jumps
 * @param last      the last snapshot's orders per customer
 */
public record SnapshotSequence(long records, long duplicate, long lost, Map<Integer, Long> last) {

    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * Reads {@code customer.totals} with the given isolation from the start offsets on.
     *
     * @param start      partition → first offset of the load (records before it are ignored)
     * @param startCount customer → orders before the load (PG's count)
     * @param isolation  {@code read_committed} (the contract) or {@code read_uncommitted} (the twin)
     */
    public static SnapshotSequence read(Topics topics, Map<TopicPartition, Long> start, Map<Integer, Long> startCount,
                                        String isolation) {
        Map<Integer, Long> last = new HashMap<>(startCount);
        long[] counts = new long[3];
        topics.readAll(Stand.CUSTOMER_TOTALS, isolation, r -> {
            if (r.offset() < start.getOrDefault(new TopicPartition(r.topic(), r.partition()), 0L)) {
                return;
            }
            JsonNode v;
            try {
                v = JSON.readTree(r.value());
            } catch (IOException e) {
                throw new UncheckedIOException("unexpected record in customer.totals at offset " + r.offset(), e);
            }
            int customer = v.get("customer_id").asInt();
            long orders = v.get("orders").asLong();
            long previous = last.getOrDefault(customer, 0L);
            counts[0]++;
            if (orders <= previous) {
                counts[1]++;
            } else if (orders > previous + 1) {
                counts[2] += orders - previous - 1;
            }
            last.put(customer, Math.max(previous, orders));
        });
        return new SnapshotSequence(counts[0], counts[1], counts[2], last);
    }
}
