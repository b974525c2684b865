package dev.seams.check;

import dev.seams.truth.Futures;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListTransactionsOptions;
import org.apache.kafka.clients.admin.ProducerState;
import org.apache.kafka.clients.admin.TransactionDescription;
import org.apache.kafka.clients.admin.TransactionListing;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TransactionalIdNotFoundException;

/**
 * Finds hanging transactions on the given topics, by the rule of {@code kafka-transactions.sh find-hanging}: a producer
 * holds a transaction open on a partition for longer than any transaction of the pipeline may last, and the
 * coordinator of its transactional id no longer lists that partition (or knows no transactional id for the producer).
 * The coordinator never writes that partition's marker, no timeout aborts it, and the partition's last stable offset
 * (LSO) stays where it is: every read_committed reader, ds-streams' restore of a changelog included, stops there
 * (KAFKA-12671, KIP-890; docs/findings.md 2026-12-05: Kafka 4.3.1 after a broker's SIGKILL). The operator's way out is
 * {@code kafka-transactions.sh abort} with the partition and the transaction's start offset ({@link Hanging#abortCommand}).
 */
public final class HangingTransactions {

    private HangingTransactions() {
    }

    /**
     * A transaction the coordinator will not complete.
     *
     * @param partition       where it is open
     * @param producerId      its producer
     * @param producerEpoch   the producer's epoch on that partition
     * @param startOffset     the transaction's first offset there (the LSO cannot pass it)
     * @param openMs          how long since the producer last wrote to the partition, ms
     * @param transactionalId the producer's transactional id, or {@code -} if the coordinator knows none
     * @param coordinator     what the coordinator says of that id now: state, epoch and partitions, or {@code unknown}
     */
    public record Hanging(TopicPartition partition, long producerId, int producerEpoch, long startOffset, long openMs,
                          String transactionalId, String coordinator) {

        /**
         * @param bootstrapServers the cluster, as the command takes it
         * @return the command that aborts it ({@code kafka-transactions.sh}, shipped with Kafka)
         */
        public String abortCommand(String bootstrapServers) {
            return "kafka-transactions.sh --bootstrap-server " + bootstrapServers + " abort --topic " + partition.topic()
                    + " --partition " + partition.partition() + " --start-offset " + startOffset;
        }

        @Override
        public String toString() {
            return partition + ": producer " + producerId + " epoch " + producerEpoch + " open since offset " + startOffset
                    + " for " + openMs / 1000 + " s; transactional id " + transactionalId + ", coordinator: " + coordinator;
        }
    }

    /**
     * Asks the cluster (describeProducers, listTransactions, describeTransactions).
     *
     * @param admin     an admin client of the cluster (not closed here)
     * @param topics    the topics to search, every partition of each
     * @param olderThan how long a transaction must have been open to be a candidate (longer than the producers'
     *                  {@code transaction.timeout.ms}: a transaction within it may still end by itself)
     * @return the hanging transactions, by partition; empty if none
     * @throws IllegalStateException if the cluster does not answer ({@link Futures#get})
     */
    public static List<Hanging> find(Admin admin, Collection<String> topics, Duration olderThan) {
        List<TopicPartition> partitions = new ArrayList<>();
        Futures.get(admin.describeTopics(topics).allTopicNames(), "cannot describe " + topics).forEach((topic, description) ->
                description.partitions().forEach(p -> partitions.add(new TopicPartition(topic, p.partition()))));
        Map<TopicPartition, List<ProducerState>> producers = new HashMap<>();
        Futures.get(admin.describeProducers(partitions).all(), "cannot describe the producers of " + topics)
                .forEach((tp, state) -> producers.put(tp, state.activeProducers()));
        Set<Long> open = new HashSet<>();
        producers.values().forEach(states -> states.stream().filter(p -> p.currentTransactionStartOffset().isPresent())
                .forEach(p -> open.add(p.producerId())));
        Map<Long, String> ids = new HashMap<>();
        Map<String, TransactionDescription> descriptions = new HashMap<>();
        if (!open.isEmpty()) {
            for (TransactionListing listing : Futures.get(admin.listTransactions(new ListTransactionsOptions()
                    .filterProducerIds(open)).all(), "cannot list the transactions of producers " + open)) {
                ids.put(listing.producerId(), listing.transactionalId());
            }
            var described = admin.describeTransactions(Set.copyOf(ids.values()));   // one request for every id
            for (String id : ids.values()) {
                try {
                    descriptions.put(id, Futures.get(described.description(id), "cannot describe the transaction of " + id));
                } catch (IllegalStateException e) {
                    if (!(e.getCause() instanceof TransactionalIdNotFoundException)) {
                        throw e;
                    }
                }
            }
        }
        return classify(producers, ids, descriptions, System.currentTimeMillis(), olderThan.toMillis());
    }

    /**
     * The rule, on what the cluster said.
     *
     * @param producers    partition → its active producers
     * @param ids          producer id → its transactional id (absent: the coordinator lists none)
     * @param descriptions transactional id → the coordinator's description (absent: not found)
     * @param nowMs        the wall clock, ms since the epoch
     * @param olderThanMs  how long a transaction must have been open to be a candidate, ms
     * @return the hanging transactions, by partition
     */
    static List<Hanging> classify(Map<TopicPartition, List<ProducerState>> producers, Map<Long, String> ids,
                                  Map<String, TransactionDescription> descriptions, long nowMs, long olderThanMs) {
        List<Hanging> hanging = new ArrayList<>();
        producers.forEach((tp, states) -> states.forEach(p -> {
            long openMs = nowMs - p.lastTimestamp();
            if (p.currentTransactionStartOffset().isEmpty() || openMs <= olderThanMs) {
                return;
            }
            String id = ids.get(p.producerId());
            TransactionDescription d = id == null ? null : descriptions.get(id);
            if (d == null || !d.topicPartitions().contains(tp)) {
                hanging.add(new Hanging(tp, p.producerId(), p.producerEpoch(), p.currentTransactionStartOffset().getAsLong(),
                        openMs, id == null ? "-" : id, d == null ? "unknown" : d.state() + " at epoch " + d.producerEpoch()
                        + ", partitions " + d.topicPartitions()));
            }
        }));
        hanging.sort(Comparator.comparing((Hanging h) -> h.partition().topic()).thenComparingInt(h -> h.partition().partition()));
        return hanging;
    }

}
