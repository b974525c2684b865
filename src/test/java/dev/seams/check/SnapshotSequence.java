package dev.seams.check;

import dev.seams.load.OrderLoad;
import dev.seams.truth.RunNames;
import dev.seams.truth.Topics;
import dev.seams.wire.CustomerTotals;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.common.TopicPartition;

/**
 * Per-change check of the changelog {@code customer.totals} after a load (claims G14, B5): ds-streams
 * gives every snapshot of a customer the next {@code version} of its aggregate (wire/CustomerTotals),
 * so a load applied exactly once advances each customer's version by exactly the steps the load
 * implies ({@link OrderLoad#expected()}), and no (customer, version) pair is written twice.
 * Counted against those expectations, never as {@code count() - uniqExact()} (docs/claims.md):
 * <ul>
 *   <li>{@code duplicate}: (customer, version) pairs read more than once — an input processed twice,
 *       or the records of an aborted transaction seen (read_uncommitted) next to their re-processing;</li>
 *   <li>{@code lost}: version steps missing at the end (a change never applied);</li>
 *   <li>{@code extra}: version steps beyond the expected (a change applied twice).</li>
 * </ul>
 * Independent of partitions: a customer's records may lie in several partitions (B10).
 *
 * @param records   data records read at or after the start offsets
 * @param duplicate (customer, version) pairs of those records read more than once
 * @param lost      version steps missing, summed over customers
 * @param extra     version steps beyond the expected, summed over customers
 * @param last      the highest version per customer at the end
 */
public record SnapshotSequence(long records, long duplicate, long lost, long extra, Map<Long, Long> last) {

    /**
     * Reads {@code customer.totals} with the given isolation from the beginning.
     *
     * @param start     partition → first offset of the load: records before it give each customer's version before the load
     * @param steps     customer → version steps the load must add ({@link OrderLoad.Expected#versionSteps()})
     * @param isolation {@code read_committed} (the contract) or {@code read_uncommitted} (the twin)
     * @throws IllegalStateException at a record that is not a totals snapshot
     */
    public static SnapshotSequence read(Topics topics, Map<TopicPartition, Long> start, Map<Long, Long> steps, String isolation) {
        Map<Long, Long> before = new HashMap<>();
        topics.readAll(RunNames.CUSTOMER_TOTALS, isolation, r -> {
            if (r.offset() < start.getOrDefault(new TopicPartition(r.topic(), r.partition()), 0L)) {
                try {
                    CustomerTotals t = CustomerTotals.fromJson(r.value());
                    before.merge(t.customerId(), t.version(), Math::max);
                } catch (RuntimeException e) {
                    // another claim's hand-made record (e.g. B1's aborted rogue, seen read_uncommitted)
                }
            }
        });
        return read(topics, start, before, steps, isolation);
    }

    /**
     * Reads {@code customer.totals} with the given isolation from the load's first offsets only, given each
     * customer's version before the load (e.g. {@link Topics#latestSnapshots()} when the load began, the
     * pipeline settled).
     *
     * @param start     partition → first offset of the load
     * @param before    customer → its highest version before the load (absent: none)
     * @param steps     customer → version steps the load must add ({@link OrderLoad.Expected#versionSteps()})
     * @param isolation {@code read_committed} (the contract) or {@code read_uncommitted} (the twin)
     * @throws IllegalStateException at a record of the load that is not a totals snapshot
     */
    public static SnapshotSequence read(Topics topics, Map<TopicPartition, Long> start, Map<Long, Long> before,
                                        Map<Long, Long> steps, String isolation) {
        Map<Long, Long> last = new TreeMap<>();
        Map<String, Integer> seen = new HashMap<>();
        long[] records = new long[1];
        topics.readFrom(RunNames.CUSTOMER_TOTALS, isolation, start, r -> {
            CustomerTotals t;
            try {
                t = CustomerTotals.fromJson(r.value());
            } catch (RuntimeException e) {
                throw new IllegalStateException("unexpected record in customer.totals at " + r.partition() + "@" + r.offset(), e);
            }
            records[0]++;
            seen.merge(t.customerId() + "@" + t.version(), 1, Integer::sum);
            last.merge(t.customerId(), t.version(), Math::max);
        });
        long duplicate = seen.values().stream().filter(n -> n > 1).count();
        long lost = 0;
        long extra = 0;
        for (Map.Entry<Long, Long> step : steps.entrySet()) {
            long expected = before.getOrDefault(step.getKey(), 0L) + step.getValue();
            long reached = last.getOrDefault(step.getKey(), before.getOrDefault(step.getKey(), 0L));
            lost += Math.max(0, expected - reached);
            extra += Math.max(0, reached - expected);
        }
        return new SnapshotSequence(records[0], duplicate, lost, extra, last);
    }
}
