package dev.seams.stand;

import dev.seams.truth.Groups;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.Network;
import org.testcontainers.kafka.KafkaContainer;
import org.testcontainers.lifecycle.Startables;
import org.testcontainers.utility.DockerImageName;

/**
 * The stand's Kafka, one part of it (CONTRIBUTING.md "Adding a fault" "the environment from parts"): one KRaft
 * node, or a cluster of combined broker+controller nodes ({@link BrokerLayout}, {@code -Dseams.kafka.brokers=3},
 * claim B5's cluster faults), each a Testcontainers {@link KafkaContainer} (the module's own KRaft setup,
 * its {@code KAFKA_*} environment overridden for the cluster, as Testcontainers' own
 * {@code examples/kafka-cluster} does). Each node has a fixed host port for its host listener
 * ({@link HostPorts}), so a node killed and started again by a fault keeps it; on the stand's network
 * it is {@link BrokerLayout#alias(int)}{@code :}{@value BrokerLayout#NETWORK_PORT}. Every container
 * carries the stand's labels ({@link JvmContainer#labels()}).
 */
public final class Brokers {

    /** Where the node's host listener listens inside its container (Testcontainers' {@code KafkaContainer}). */
    private static final int HOST_LISTENER_PORT = 9092;

    private final BrokerLayout layout;
    private final Map<Integer, KafkaContainer> nodes = new LinkedHashMap<>();
    private final SaslListener sasl;
    private final List<String> saslBootstrap = new ArrayList<>();

    /**
     * A position in every node's log ({@link #mark()}), to read what the nodes logged since.
     *
     * @param lengths node id → characters of its log at the mark
     */
    public record LogMark(Map<Integer, Integer> lengths) {
    }

    /**
     * The node's command, in place of the module's ({@code while [ ! -f /tmp/testcontainers_start.sh ]; ... done;
     * /tmp/testcontainers_start.sh}): the module copies its start script into the container once it runs, and its
     * command executes the script as soon as the file appears, which fails with "Text file busy" (exit status 126, the
     * node never starts) when the engine has not closed the file yet (testcontainers-java issue 11682; met here in a
     * mutation-tier run, the stand's start lost for 3 minutes). This one waits until the script holds its last command,
     * the image's {@code /etc/kafka/docker/run}, and has the shell read it rather than executing the file.
     */
    static final String START = "while ! grep -qs /etc/kafka/docker/run /tmp/testcontainers_start.sh; do sleep 0.1; done; "
            + "exec sh /tmp/testcontainers_start.sh";

    /**
     * @param layout  how many nodes, and their configuration
     * @param image   the profile's Kafka image
     * @param network the stand's network
     * @param sasl    a SASL listener for every node beside the PLAINTEXT ones, or null for none
     */
    Brokers(BrokerLayout layout, DockerImageName image, Network network, SaslListener sasl) {
        this.layout = layout;
        this.sasl = sasl;
        for (int id : layout.nodeIds()) {
            String alias = layout.alias(id);
            int saslHostPort = sasl == null ? 0 : HostPorts.free();
            KafkaContainer node = new KafkaContainer(image);
            node.withCommand("sh", "-c", START)
                    .withNetwork(network).withNetworkAliases(alias)
                    .withListener(alias + ":" + BrokerLayout.NETWORK_PORT)
                    .withEnv(layout.env(id))
                    .withLabels(JvmContainer.labels())
                    .withCreateContainerCmdModifier(cmd -> {
                        HostPorts.fix(cmd, HOST_LISTENER_PORT);
                        if (layout.cluster()) {   // the inter-broker listener advertises the host name: make it the alias
                            cmd.withHostName(alias);
                        }
                        if (sasl != null) {
                            HostPorts.fix(cmd, SaslListener.PORT, saslHostPort);
                            cmd.withEnv(SaslListener.secured(cmd.getEnv()));
                        }
                        HostPorts.listen(cmd);
                    })
                    .withStartupTimeout(Duration.ofMinutes(3));
            if (sasl != null) {   // the second listener: SaslListener.NAME
                node.withListener(alias + ":" + SaslListener.PORT, () -> node.getHost() + ":" + saslHostPort)
                        .withEnv(sasl.brokerEnv())
                        .withExposedPorts(HOST_LISTENER_PORT, SaslListener.PORT);
                saslBootstrap.add(node.getHost() + ":" + saslHostPort);
            }
            nodes.put(id, node);
        }
    }

    /**
     * Starts every node at once (a cluster's nodes wait for a quorum of each other before they run) and
     * returns when each logged that it runs.
     *
     * @throws RuntimeException if a node does not start within 3 minutes
     */
    void start() {
        Startables.deepStart(nodes.values()).join();
    }

    /** @return whether every node's container has been created and runs (the aliases resolve for Connect) */
    boolean isRunning() {
        return nodes.values().stream().allMatch(n -> n.getContainerId() != null && n.isRunning());
    }

    /** Stops and removes every node's container. */
    void stop() {
        nodes.values().forEach(GenericContainer::stop);
    }

    /** @return how many nodes and how they are configured */
    public BrokerLayout layout() {
        return layout;
    }

    /** @return the node ids, 1 to n */
    public List<Integer> nodeIds() {
        return layout.nodeIds();
    }

    /** @return the bootstrap servers as seen from this host: every node's fixed host listener */
    public String bootstrapServers() {
        return nodes.values().stream().map(KafkaContainer::getBootstrapServers).collect(Collectors.joining(","));
    }

    /** @return the SASL listener every node has, or empty */
    public Optional<SaslListener> sasl() {
        return Optional.ofNullable(sasl);
    }

    /**
     * @return the bootstrap servers of the SASL listeners as seen from this host, every node's
     * @throws IllegalStateException if the nodes have none ({@link #sasl()})
     */
    public String saslBootstrapServers() {
        if (sasl == null) {
            throw new IllegalStateException("the stand's Kafka has no SASL listener (-D" + SaslListener.PROPERTY + "=true)");
        }
        return String.join(",", saslBootstrap);
    }

    /** @return the bootstrap servers for the containers on the stand's network ({@link BrokerLayout#onNetwork()}) */
    public String onNetwork() {
        return layout.onNetwork();
    }

    /**
     * @param nodeId a node id
     * @return Docker's operations on that node's container (the target of a fault, claim B5)
     * @throws IllegalArgumentException if there is no such node
     */
    public ContainerControl control(int nodeId) {
        return new ContainerControl(node(nodeId).getContainerId());
    }

    /**
     * @return what every node logged, node after node (a cluster's nodes each under a {@code --- kafka-N}
     *     line): the broker's start-up lines, the group coordinators' rebalances ({@link Groups#rebalances})
     */
    public String logs() {
        return since(new LogMark(Map.of()));
    }

    /** @return the current end of every node's log */
    public LogMark mark() {
        Map<Integer, Integer> lengths = new LinkedHashMap<>();
        nodes.forEach((id, node) -> lengths.put(id, node.getLogs().length()));
        return new LogMark(lengths);
    }

    /**
     * @param mark an earlier {@link #mark()}
     * @return what every node logged since then (a restarted node's log goes on after its earlier lines)
     */
    public String since(LogMark mark) {
        StringBuilder out = new StringBuilder();
        nodes.forEach((id, node) -> {
            String log = node.getLogs();
            if (layout.cluster()) {
                out.append("--- ").append(layout.alias(id)).append('\n');
            }
            out.append(log.substring(Math.min(log.length(), mark.lengths().getOrDefault(id, 0))));
        });
        return out.toString();
    }

    /** @return each node's log file name under {@code target/stand-logs} ({@code kafka}, or {@code kafka-N}) → its container */
    Map<String, GenericContainer<?>> containersByName() {
        Map<String, GenericContainer<?>> named = new LinkedHashMap<>();
        nodes.forEach((id, node) -> named.put(layout.alias(id), node));
        return named;
    }

    private KafkaContainer node(int nodeId) {
        KafkaContainer node = nodes.get(nodeId);
        if (node == null) {
            throw new IllegalArgumentException("no Kafka node " + nodeId + " on the stand (nodes " + nodes.keySet() + ")");
        }
        return node;
    }
}
