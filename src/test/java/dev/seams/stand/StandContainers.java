package dev.seams.stand;

import com.github.dockerjava.api.model.ExposedPort;
import com.github.dockerjava.api.model.PortBinding;
import com.github.dockerjava.api.model.Ports;
import dev.seams.project.Project;
import dev.seams.truth.ClickHouse;
import io.debezium.testing.testcontainers.DebeziumContainer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.testcontainers.clickhouse.ClickHouseContainer;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.Network;
import org.testcontainers.postgresql.PostgreSQLContainer;
import org.testcontainers.utility.MountableFile;

/**
 * The stand's servers as Testcontainers definitions, not started: PostgreSQL, ClickHouse and Kafka Connect on the
 * stand's network under their aliases ({@code postgres}, {@code clickhouse}, {@code connect}), each labelled
 * {@link JvmContainer#LABEL} so that {@code .ci/run} removes leftovers of a killed run. Kafka is {@link Brokers}'.
 */
final class StandContainers {

    private static final Logger LOG = LoggerFactory.getLogger(StandContainers.class);

    private StandContainers() {
    }

    /**
     * @return PostgreSQL with {@code wal_level=logical} (fsync off: a test stand), its port fixed on the host so that a
     *     restarted container keeps it; started within 3 minutes
     */
    static PostgreSQLContainer postgres(Images images, Network network) {
        return new PostgreSQLContainer(images.image("postgres"))
                .withNetwork(network).withNetworkAliases("postgres")
                .withCommand("postgres", "-c", "fsync=off", "-c", "wal_level=logical")
                .withLabels(JvmContainer.labels())
                .withCreateContainerCmdModifier(cmd -> HostPorts.fix(cmd, 5432))
                .withCreateContainerCmdModifier(HostPorts::listen)
                .withStartupTimeout(Duration.ofMinutes(3));
    }

    /** @return ClickHouse with {@code system.part_log} on in every profile (G5, G6), its HTTP port fixed on the host */
    static ClickHouseContainer clickhouse(Images images, Network network) {
        return new ClickHouseContainer(images.image("clickhouse"))
                .withNetwork(network).withNetworkAliases("clickhouse")
                .withCopyFileToContainer(MountableFile.forHostPath(
                        Project.root().resolve("containers/clickhouse/config.d/seams-part-log.xml")),
                        "/etc/clickhouse-server/config.d/seams-part-log.xml")
                .withLabels(JvmContainer.labels())
                .withCreateContainerCmdModifier(cmd -> HostPorts.fix(cmd, 8123))
                .withCreateContainerCmdModifier(HostPorts::listen)
                .withStartupTimeout(Duration.ofMinutes(3));
    }

    /**
     * @param kafka the brokers it joins (their addresses on the network, the replication of its internal topics)
     * @return Kafka Connect with Debezium, its REST port fixed on the host; started within 4 minutes
     */
    static DebeziumContainer connect(Images images, Network network, Brokers kafka) {
        return new DebeziumContainer(images.image("connect"))
                .withNetwork(network).withNetworkAliases("connect")
                .withKafka(network, kafka.onNetwork())
                // its config, offset and status topics replicated like every topic (3 on a cluster)
                .withEnv(kafka.layout().connectEnv())
                // plugins found by their ServiceLoader manifests (every plugin of the stand has them), not by
                // scanning every class on the plugin path: about 5 s less of the worker's start (KIP-898)
                .withEnv("CONNECT_PLUGIN_DISCOVERY", "service_load")
                .withLabels(JvmContainer.labels())
                // a fixed host port for the REST API: a Connect container killed and started again by a
                // fault test (ConnectWorker) keeps it, so the module's REST helpers stay valid
                .withCreateContainerCmdModifier(cmd -> cmd.getHostConfig().withPortBindings(
                        new PortBinding(Ports.Binding.bindPort(HostPorts.free()), ExposedPort.tcp(8083))))
                .withCreateContainerCmdModifier(HostPorts::listen)
                .withStartupTimeout(Duration.ofMinutes(4));
    }

    /**
     * Writes each started container's output to {@code <dir>/<name>.log}; a container that never started is skipped.
     * Never throws: a log that cannot be written is a warning (this runs on the way out, also after a failed start).
     *
     * @param dir        where the logs go ({@code target/stand-logs})
     * @param containers name → container
     */
    static void writeLogs(Path dir, Map<String, GenericContainer<?>> containers) {
        try {
            Files.createDirectories(dir);
            for (var entry : containers.entrySet()) {
                if (entry.getValue().getContainerId() != null) {
                    Files.writeString(dir.resolve(entry.getKey() + ".log"), entry.getValue().getLogs());
                }
            }
        } catch (IOException | RuntimeException e) {
            LOG.warn("cannot write container logs: {}", e.toString());
        }
    }
}
