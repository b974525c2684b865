package dev.seams.truth;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.kafka.common.TopicPartition;

/**
 * Where each customer's records lie in {@code customer.totals} (read_committed) from given offsets
 * on, and how many are keyed by something other than their customer_id (claims G6, B10: ds-streams
 * keys every snapshot by its customer, so a customer's records share one partition as long as the
 * topic keeps its partition count; after the topic gains partitions, a customer's new records may
 * land in another partition than its old ones).
 *
 * @param partitionsByCustomer customer → the partitions holding its records
 * @param records              snapshot records read (values that are not a JSON object with an
 *                             integer customer_id are skipped: the sink sends those to the DLQ)
 * @param misKeyed             of those, records whose key is not their customer_id as text
 */
public record Partitioning(Map<Long, Set<Integer>> partitionsByCustomer, long records, long misKeyed) {

    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * @param from partition → first offset to read; partitions absent from it are read from their start
     * @return where the records at or after {@code from}, up to the current end, lie
     */
    public static Partitioning of(Topics topics, Map<TopicPartition, Long> from) {
        Map<Long, Set<Integer>> partitions = new TreeMap<>();
        long[] counts = new long[2];
        topics.readAll(RunNames.CUSTOMER_TOTALS, "read_committed", r -> {
            if (r.offset() < from.getOrDefault(new TopicPartition(r.topic(), r.partition()), 0L) || r.value() == null) {
                return;
            }
            JsonNode customer;
            try {
                customer = JSON.readTree(r.value()).path("customer_id");
            } catch (IOException ex) {
                return;   // not a snapshot: the sink sends it to the DLQ, it never gets a version
            }
            if (!customer.canConvertToLong()) {
                return;
            }
            partitions.computeIfAbsent(customer.asLong(), k -> new TreeSet<>()).add(r.partition());
            counts[0]++;
            String key = r.key() == null ? null : new String(r.key(), StandardCharsets.UTF_8);
            if (!Integer.toString(customer.asInt()).equals(key)) {
                counts[1]++;
            }
        });
        return new Partitioning(partitions, counts[0], counts[1]);
    }

    /** @return customers found in more than one partition → those partitions */
    public Map<Long, Set<Integer>> split() {
        Map<Long, Set<Integer>> split = new TreeMap<>(partitionsByCustomer);
        split.values().removeIf(p -> p.size() < 2);
        return split;
    }

    /**
     * @param earlier where the same customers' records lay before (e.g. before the topic gained partitions)
     * @return customers present in both whose records here lie in no partition they used before →
     *     {@code [old partitions] -> [new partitions]}
     */
    public Map<Long, String> movedFrom(Partitioning earlier) {
        Map<Long, String> moved = new TreeMap<>();
        partitionsByCustomer.forEach((customer, now) -> {
            Set<Integer> before = earlier.partitionsByCustomer().get(customer);
            if (before != null && now.stream().noneMatch(before::contains)) {
                moved.put(customer, before + " -> " + now);
            }
        });
        return moved;
    }
}
