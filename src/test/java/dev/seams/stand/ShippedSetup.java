package dev.seams.stand;

import dev.seams.config.ConnectorUnderTest;
import dev.seams.project.Project;
import dev.seams.truth.ClickHouse;
import dev.seams.truth.RunNames;
import dev.seams.wire.TopicNames;
import io.debezium.testing.testcontainers.DebeziumContainer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.testcontainers.postgresql.PostgreSQLContainer;

/**
 * What ships, applied to the stand's running servers: the PostgreSQL schema of {@code containers/postgres/*.sql}, the
 * pipeline's topics, and the connector of {@code containers/debezium/orders-connector.json} (claims test what ships,
 * docs/claims.md "the stand"). ClickHouse's DDL is {@link ClickHouse#runScript}'s.
 */
final class ShippedSetup {

    private ShippedSetup() {
    }

    /**
     * Runs every {@code containers/postgres/*.sql}, in name order.
     *
     * @param c a connection to the source database
     * @throws IllegalStateException if a file cannot be read or a statement fails
     */
    static void applyPostgresScripts(Connection c) {
        try (Statement st = c.createStatement();
             Stream<Path> files = Files.list(Project.root().resolve("containers/postgres"))) {
            for (Path file : files.filter(f -> f.toString().endsWith(".sql")).sorted().toList()) {
                st.execute(Files.readString(file));
            }
        } catch (SQLException | IOException e) {
            throw new IllegalStateException("cannot apply containers/postgres/*.sql", e);
        }
    }

    /**
     * Creates the pipeline's topics: {@link TopicNames#ORDERS_EVENTS} and {@link TopicNames#CUSTOMER_TOTALS} with
     * {@value Stand#PARTITIONS} partitions, the two DLQs and the connector's heartbeat topic with one.
     *
     * @param admin    an admin client of the stand's brokers
     * @param replicas the replication factor: 1, or 3 on a cluster
     * @throws IllegalStateException if the brokers refuse
     */
    static void createTopics(Admin admin, short replicas) {
        try {
            admin.createTopics(List.of(
                    new NewTopic(RunNames.ORDERS_EVENTS, Stand.PARTITIONS, replicas),
                    new NewTopic(RunNames.CUSTOMER_TOTALS, Stand.PARTITIONS, replicas),
                    new NewTopic(RunNames.CUSTOMER_TOTALS_DLQ, 1, replicas),
                    new NewTopic(RunNames.ORDERS_EVENTS_DLQ, 1, replicas),
                    new NewTopic(RunNames.HEARTBEAT, 1, replicas))).all().get();
        } catch (Exception e) {
            throw new IllegalStateException("cannot create topics", e);
        }
    }

    /** The shipped slot and publication ({@value ConnectorUnderTest#SHIPPED_FILE}). */
    static final String SLOT = "seams_orders";

    /**
     * @param postgres the stand's PostgreSQL (its credentials and database)
     * @return the connector under test ({@link ConnectorUnderTest}: the shipped one unless {@code -Dseams.connector}
     *     names a user's) with the connection to that PostgreSQL as seen from the Connect container ({@code
     *     postgres:5432}) and the suite's names, and every change the stand made to it
     */
    static ConnectorUnderTest.Registered connector(PostgreSQLContainer postgres) {
        return ConnectorUnderTest.configured().forStand(new ConnectorUnderTest.StandNames("postgres", "5432", postgres.getUsername(),
                postgres.getPassword(), postgres.getDatabaseName(), RunNames.CONNECTOR_TOPIC_PREFIX, SLOT, RunNames.ORDERS_EVENTS));
    }

    /**
     * Registers the connector and waits until its task runs (up to 3 minutes for the worker's answer). Not the
     * Debezium module's registerConnector: its HTTP client gives up after 10 s without an answer, which a worker of the
     * three-broker stand took on a loaded 2-core machine (CI of 54c196a: the stand did not start).
     *
     * @param connect the Kafka Connect container
     * @param name    the connector's name
     * @param config  its configuration ({@link #connectorConfig})
     */
    static void registerConnector(DebeziumContainer connect, String name, Map<String, String> config) {
        ConnectWorker worker = new ConnectWorker(connect);
        worker.putConfig(name, config, Duration.ofMinutes(3));
        worker.awaitTaskRunning(name);
    }
}
