package dev.seams.consumer;

import java.time.Duration;
import java.util.Collection;
import java.util.Comparator;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The group rebalances one consumer run went through, and what they took away while it still had
 * records to drain (claim B12: group membership changes stop nothing — proven only if each change
 * landed mid-drain). Fed by {@link PollSession}'s rebalance listener:
 * <ul>
 *   <li>{@link #rebalances()}: assignments after the run's first one — every completed rebalance
 *       calls {@code onPartitionsAssigned}, under the eager and the cooperative protocol alike;</li>
 *   <li>{@link #revokedMidDrain()}: partitions revoked or lost while the consumer's position was
 *       below their end offset (read from the broker when they are taken away; read_committed: the
 *       last stable offset) — records this member will not write, the partition's next owner will.
 *       Offsets, not records: at the very tail of a transactional topic the gap can be a lone commit
 *       marker, so a claim that must prove records were behind also counts them from outside;</li>
 *   <li>{@link #rebalancesMidDrain()}: rebalances that met the member mid-drain — the partitions
 *       they took away from it, or the ones they assigned to it, were behind their end offsets: a
 *       join takes partitions with records behind away, a leave hands them back (with the classic
 *       eager protocol, the consumer's default, every rebalance revokes all partitions first).</li>
 * </ul>
 * If the end offsets cannot be read, the consumer's cached lag ({@link Consumer#currentLag}) decides,
 * and a partition whose lag is unknown counts as not behind. Revocations once the run has ended
 * ({@link #runEnding(boolean)}: the consumer closing) are not rebalances and are not counted. Not
 * thread-safe: the polling thread and its callbacks only.
 */
public final class Rebalances {

    private static final Logger LOG = LoggerFactory.getLogger(Rebalances.class);
    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    private final Consumer<?, ?> consumer;
    private long assignments;
    private long rebalancesMidDrain;
    private long revokedMidDrain;
    /** Whether partitions taken away since the last assignment had offsets behind. */
    private boolean tookAwayBehind;
    private boolean ended;

    /** @param consumer the run's consumer, asked for the partitions' positions and end offsets */
    public Rebalances(Consumer<?, ?> consumer) {
        this.consumer = consumer;
    }

    /**
     * The listener's {@code onPartitionsAssigned}, after the sink's own action (e.g. a seek): one
     * more (re)balance completed. It met the member mid-drain if the partitions it took away
     * ({@link #onTakenAway}) or the ones it assigned are behind their end offsets. Logged.
     *
     * @param partitions the partitions this rebalance assigned (possibly none)
     */
    public void onAssigned(Collection<TopicPartition> partitions) {
        assignments++;
        Map<TopicPartition, Long> gaps = partitions.isEmpty() ? Map.of() : behind(partitions);
        boolean handedBehind = gaps.values().stream().anyMatch(gap -> gap > 0);
        LOG.info("assignment {} of the run: {} (offsets behind: {})", assignments, partitions, gaps);
        if (assignments > 1 && (tookAwayBehind || handedBehind)) {
            rebalancesMidDrain++;
        }
        tookAwayBehind = false;
    }

    /**
     * The listener's {@code onPartitionsRevoked} or {@code onPartitionsLost}, called before the
     * partitions are given up (their positions still known).
     *
     * @param partitions the partitions taken away
     */
    public void onTakenAway(Collection<TopicPartition> partitions) {
        if (ended || partitions.isEmpty()) {
            return;
        }
        Map<TopicPartition, Long> gaps = behind(partitions);
        long behind = gaps.values().stream().filter(gap -> gap > 0).count();
        LOG.info("partitions taken away by a rebalance, {} of them behind their end offset (offsets behind: {})", behind, gaps);
        revokedMidDrain += behind;
        tookAwayBehind |= behind > 0;
    }

    /**
     * @param ending whether the run's window has closed: from then on revocations are the consumer closing, not
     *               rebalances; false again if the run goes on (its last write failed and was rewound)
     */
    public void runEnding(boolean ending) {
        ended = ending;
    }

    /** @return partition → end offset − position (0 if unknown), the partitions still assigned */
    private Map<TopicPartition, Long> behind(Collection<TopicPartition> partitions) {
        Map<TopicPartition, Long> ends;
        try {
            ends = consumer.endOffsets(partitions, TIMEOUT);
        } catch (KafkaException | IllegalStateException e) {
            LOG.warn("end offsets of {} not read ({}); the consumer's cached lag decides", partitions, e.toString());
            ends = Map.of();
        }
        Map<TopicPartition, Long> gaps = new TreeMap<>(Comparator.comparing(TopicPartition::topic)
                .thenComparingInt(TopicPartition::partition));
        for (TopicPartition tp : partitions) {
            try {
                Long end = ends.get(tp);
                long gap = end != null ? end - consumer.position(tp, TIMEOUT) : consumer.currentLag(tp).orElse(0);
                gaps.put(tp, Math.max(0, gap));
            } catch (KafkaException | IllegalStateException unknown) {
                gaps.put(tp, 0L);
            }
        }
        return gaps;
    }

    /** @return rebalances after the first assignment */
    public long rebalances() {
        return Math.max(0, assignments - 1);
    }

    /** @return rebalances whose partitions taken away or assigned were behind their end offsets */
    public long rebalancesMidDrain() {
        return rebalancesMidDrain;
    }

    /** @return partitions revoked or lost with records behind, summed over the run */
    public long revokedMidDrain() {
        return revokedMidDrain;
    }
}
