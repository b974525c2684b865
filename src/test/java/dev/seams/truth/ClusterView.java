package dev.seams.truth;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.DescribeTopicsOptions;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.admin.TransactionDescription;
import org.apache.kafka.clients.admin.TransactionListing;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.config.ConfigResource;

/**
 * Who does what among the stand's Kafka nodes, as the Admin API tells it at the moment of each call
 * (claim B5's cluster faults): the leader of each partition of a topic, the transaction coordinator of
 * each transactional id, the active controller, the replication of every topic and the brokers' own
 * configuration. Every call gives the cluster {@value #TIMEOUT_S} s to answer (a node may be down: the
 * client asks another one).
 */
public final class ClusterView {

    /** A partition with no leader (during an election, or with no replica in sync). */
    public static final int NO_LEADER = -1;
    private static final long TIMEOUT_S = 10;

    private final Admin admin;

    private ClusterView(Admin admin) {
        this.admin = admin;
    }

    /**
     * @param admin an admin client of the cluster (not closed here), e.g. the stand's shared one
     * @return the view of the cluster's brokers
     */
    public static ClusterView of(Admin admin) {
        return new ClusterView(admin);
    }

    /**
     * @param topic a topic
     * @return partition → the node id of its leader, {@value #NO_LEADER} when it has none
     * @throws IllegalStateException if the cluster does not answer in time
     */
    public Map<Integer, Integer> leaders(String topic) {
        TopicDescription d = get(admin.describeTopics(List.of(topic)).allTopicNames()).get(topic);
        Map<Integer, Integer> leaders = new TreeMap<>();
        for (TopicPartitionInfo p : d.partitions()) {
            leaders.put(p.partition(), p.leader() == null || p.leader().isEmpty() ? NO_LEADER : p.leader().id());
        }
        return leaders;
    }

    /**
     * @param prefix the start of the transactional ids wanted, e.g. {@code ds-streams-} (Kafka Streams'
     *               exactly-once producers are {@code <application.id>-<process id>-<thread>})
     * @return the transactional ids the coordinators know that start so, sorted ({@code listTransactions},
     *     which asks every broker)
     * @throws IllegalStateException if the cluster does not answer in time. Measured on Kafka clients 4.2:
     *     the call fails at once ({@code IllegalArgumentException: Unexpected key set: [BrokerKey(…)]}) while the
     *     client cannot reach one of the brokers (one just restarted, or down), so callers retry it, and do not
     *     use it while a broker is down
     */
    public List<String> transactionalIds(String prefix) {
        Collection<TransactionListing> listed = get(admin.listTransactions().all());
        return listed.stream().map(TransactionListing::transactionalId).filter(id -> id.startsWith(prefix)).sorted().toList();
    }

    /**
     * @param ids transactional ids
     * @return transactional id → the node id of its transaction coordinator (the leader of its
     *     {@code __transaction_state} partition, found with {@code FindCoordinator}: this works with a broker down)
     * @throws IllegalStateException if the cluster does not answer in time (e.g. a coordinator is not
     *     elected yet: its transactions cannot be described)
     */
    public Map<String, Integer> transactionCoordinators(Collection<String> ids) {
        Map<String, Integer> coordinators = new TreeMap<>();
        if (!ids.isEmpty()) {
            Map<String, TransactionDescription> described = get(admin.describeTransactions(ids).all());
            described.forEach((id, d) -> coordinators.put(id, d.coordinatorId()));
        }
        return coordinators;
    }

    /**
     * @return the node id of the active controller (the KRaft quorum's leader)
     * @throws IllegalStateException if the cluster does not answer in time
     */
    public int controller() {
        return get(admin.describeMetadataQuorum().quorumInfo()).leaderId();
    }

    /** @return the node ids of the brokers the cluster has registered and not fenced now */
    public Set<Integer> liveBrokers() {
        Collection<Node> nodes = get(admin.describeCluster().nodes());
        return nodes.stream().map(Node::id).collect(Collectors.toCollection(TreeSet::new));
    }

    /**
     * @return every topic, the internal ones too ({@code __consumer_offsets}, {@code __transaction_state}),
     *     → its smallest replica count over its partitions
     */
    public Map<String, Integer> replicationFactors() {
        Map<String, Integer> factors = new TreeMap<>();
        describeAll().forEach((topic, d) -> factors.put(topic,
                d.partitions().stream().mapToInt(p -> p.replicas().size()).min().orElse(0)));
        return factors;
    }

    /** @return the partitions of every topic whose in-sync replicas are fewer than its replicas (0: every replica caught up) */
    public long underReplicatedPartitions() {
        return describeAll().values().stream().flatMap(d -> d.partitions().stream())
                .filter(p -> p.isr().size() < p.replicas().size()).count();
    }

    /**
     * @param nodeId a broker
     * @param names  configuration names, e.g. {@code min.insync.replicas}
     * @return name → the value the broker runs with (its own setting or Kafka's default)
     */
    public Map<String, String> brokerConfig(int nodeId, Collection<String> names) {
        ConfigResource broker = new ConfigResource(ConfigResource.Type.BROKER, Integer.toString(nodeId));
        Config config = get(admin.describeConfigs(List.of(broker)).all()).get(broker);
        Map<String, String> values = new TreeMap<>();
        for (String name : names) {
            var entry = config.get(name);
            values.put(name, entry == null ? null : entry.value());
        }
        return values;
    }

    private Map<String, TopicDescription> describeAll() {
        Set<String> names = get(admin.listTopics(new ListTopicsOptions().listInternal(true)).names());
        return get(admin.describeTopics(names, new DescribeTopicsOptions()).allTopicNames());
    }

    private static <T> T get(KafkaFuture<T> future) {
        return Futures.get(future, Duration.ofSeconds(TIMEOUT_S), "the cluster did not answer");
    }
}
