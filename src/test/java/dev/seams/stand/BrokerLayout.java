package dev.seams.stand;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * How many Kafka nodes the stand runs and how each is configured, as values only (no container):
 * one KRaft node, the default and what every claim but B5's cluster faults runs on, or a cluster of
 * {@code n ≥ 3} nodes, each a combined broker and controller (all of them voters of the KRaft quorum),
 * selected with {@code -D}{@value #PROPERTY}{@code =3}.
 *
 * <p>On a cluster every topic is replicated 3 times with {@code min.insync.replicas=2} and
 * {@code unclean.leader.election.enable=false}: the topics the stand creates, the consumer offsets and
 * transaction state ({@code transaction.state.log.min.isr=2}), Kafka Streams' internal topics
 * (ds-streams runs with {@code replication.factor=-1}: the broker's {@code default.replication.factor})
 * and Kafka Connect's config, offset and status topics ({@link #connectEnv()}). A producer with
 * {@code acks=all} (every producer of the pipeline) then has each write on two brokers at least before it
 * is acknowledged, and no out-of-sync replica may become leader: one broker can die without losing an
 * acknowledged record (claim B5, {@code it/ClusterFaultIT}).
 *
 * @param count the number of nodes: 1, or at least 3
 */
public record BrokerLayout(int count) {

    /** The system property that selects the number of nodes (failsafe passes it to the test JVM). */
    public static final String PROPERTY = "seams.kafka.brokers";
    /** The port of each node's listener for the containers on the stand's network. */
    public static final int NETWORK_PORT = 19092;
    /** The port of each node's controller listener (Testcontainers' {@code KafkaContainer} listens there). */
    static final int CONTROLLER_PORT = 9094;
    /** Replication factor of every topic on a cluster. */
    static final int CLUSTER_REPLICATION = 3;
    /** {@code min.insync.replicas} (and the transaction log's) on a cluster. */
    static final int CLUSTER_MIN_ISR = 2;

    /**
     * @throws IllegalArgumentException for 0, 2 or fewer: with two nodes neither a replication factor of 3
     *     nor a KRaft quorum that survives the loss of one node is possible
     */
    public BrokerLayout {
        if (count != 1 && count < CLUSTER_REPLICATION) {
            throw new IllegalArgumentException(PROPERTY + " must be 1 (one broker) or at least " + CLUSTER_REPLICATION
                    + " (a cluster with replication factor " + CLUSTER_REPLICATION + "), not " + count);
        }
    }

    /**
     * @return the layout {@code -D}{@value #PROPERTY} asks for, one node when it is unset or blank
     * @throws IllegalArgumentException if it is not a number, or not 1 or ≥ 3
     */
    public static BrokerLayout fromSystemProperties() {
        return parse(System.getProperty(PROPERTY));
    }

    /**
     * @param value the property's value, or null
     * @return the layout it names: one node when null, blank or an unresolved Maven expression ({@code ${…}})
     * @throws IllegalArgumentException if it is not a number, or not 1 or ≥ 3
     */
    static BrokerLayout parse(String value) {
        if (value == null || value.isBlank() || value.startsWith("${")) {
            return new BrokerLayout(1);
        }
        try {
            return new BrokerLayout(Integer.parseInt(value.trim()));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(PROPERTY + " must be a number of brokers, not '" + value + "'", e);
        }
    }

    /** @return whether there is more than one node */
    public boolean cluster() {
        return count > 1;
    }

    /** @return the node ids, 1 to {@link #count()} */
    public List<Integer> nodeIds() {
        return IntStream.rangeClosed(1, count).boxed().toList();
    }

    /**
     * @param nodeId a node id
     * @return its network alias and host name on the stand's network: {@code kafka} for the one node,
     *     {@code kafka-<id>} on a cluster
     */
    public String alias(int nodeId) {
        return cluster() ? "kafka-" + nodeId : "kafka";
    }

    /**
     * @return the bootstrap servers for the containers on the stand's network (Connect, ds-streams, the
     *     sink's container): {@code kafka:19092}, or every node on a cluster
     *     ({@code kafka-1:19092,kafka-2:19092,kafka-3:19092}), so a client starting while one node is down
     *     still finds the cluster
     */
    public String onNetwork() {
        return nodeIds().stream().map(id -> alias(id) + ":" + NETWORK_PORT).collect(Collectors.joining(","));
    }

    /** @return the replication factor of every topic: 1, or 3 on a cluster */
    public short replicationFactor() {
        return (short) (cluster() ? CLUSTER_REPLICATION : 1);
    }

    /** @return {@code min.insync.replicas}: 1, or 2 on a cluster */
    public int minInsyncReplicas() {
        return cluster() ? CLUSTER_MIN_ISR : 1;
    }

    /**
     * @return the broker settings every node runs with, property → value: the transaction clean-up
     *     interval of 1 s (so that B1's hanging transaction is aborted soon after its
     *     {@code transaction.timeout.ms}, instead of within 10 s more); on a cluster also the replication
     *     of every topic (3), {@code min.insync.replicas} and the transaction log's (2), and no unclean
     *     leader election. {@code it/ClusterFaultIT} reads them back from every node.
     */
    public Map<String, String> settings() {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("transaction.abort.timed.out.transaction.cleanup.interval.ms", "1000");
        if (cluster()) {
            settings.put("default.replication.factor", Integer.toString(CLUSTER_REPLICATION));
            settings.put("min.insync.replicas", Integer.toString(CLUSTER_MIN_ISR));
            settings.put("unclean.leader.election.enable", "false");
            settings.put("offsets.topic.replication.factor", Integer.toString(CLUSTER_REPLICATION));
            settings.put("transaction.state.log.replication.factor", Integer.toString(CLUSTER_REPLICATION));
            settings.put("transaction.state.log.min.isr", Integer.toString(CLUSTER_MIN_ISR));
        }
        return settings;
    }

    /**
     * The environment of one node, in the official {@code apache/kafka} image's contract
     * ({@code KAFKA_FOO_BAR} → {@code foo.bar}; the offline substitute honours the same), on top of what
     * Testcontainers' {@code KafkaContainer} sets (listeners, a one-node quorum, replication factor 1):
     * {@link #settings()}, and on a cluster the node's id and the quorum of every node's controller.
     *
     * @param nodeId the node's id
     * @return the variables to set
     */
    public Map<String, String> env(int nodeId) {
        Map<String, String> env = new LinkedHashMap<>();
        if (cluster()) {
            env.put("KAFKA_NODE_ID", Integer.toString(nodeId));
            env.put("KAFKA_CONTROLLER_QUORUM_VOTERS", nodeIds().stream()
                    .map(id -> id + "@" + alias(id) + ":" + CONTROLLER_PORT).collect(Collectors.joining(",")));
        }
        settings().forEach((name, value) -> env.put("KAFKA_" + name.toUpperCase(Locale.ROOT).replace('.', '_'), value));
        return env;
    }

    /**
     * @return the Kafka Connect worker's environment for its config, offset and status topics: their
     *     replication factor on a cluster ({@code CONNECT_*} becomes the worker's property in Debezium's
     *     image and in the offline substitute); nothing for one node (the images' default, 1)
     */
    public Map<String, String> connectEnv() {
        if (!cluster()) {
            return Map.of();
        }
        Map<String, String> env = new LinkedHashMap<>();
        for (String storage : List.of("CONFIG", "OFFSET", "STATUS")) {
            env.put("CONNECT_" + storage + "_STORAGE_REPLICATION_FACTOR", Integer.toString(CLUSTER_REPLICATION));
        }
        return env;
    }
}
