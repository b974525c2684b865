package dev.seams.stand;

import static org.awaitility.Awaitility.await;

import dev.seams.load.PreexistingOrders;
import dev.seams.project.Project;
import dev.seams.sink.ClickHouseTarget;
import dev.seams.truth.ClickHouse;
import dev.seams.truth.Endpoints;
import dev.seams.truth.RunNames;
import dev.seams.truth.Topics;
import io.debezium.testing.testcontainers.DebeziumContainer;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.testcontainers.clickhouse.ClickHouseContainer;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.Network;
import org.testcontainers.postgresql.PostgreSQLContainer;

/**
 * The whole pipeline, started once per test JVM (docs/claims.md, the pipeline "the stand"):
 * PostgreSQL ({@code wal_level=logical}) → Debezium (Kafka Connect, pgoutput) → Kafka (KRaft: one node, or a
 * three-node cluster with {@code -Dseams.kafka.brokers=3}, {@link Brokers}) →
 * Kafka Streams {@code ds-streams} (a JRE container, {@link StreamsProcess}) → and ClickHouse for the sink,
 * on one Testcontainers {@link Network}. Tests run the sink themselves.
 *
 * <p>Schema and connector come from {@code containers/postgres/*.sql},
 * {@code containers/clickhouse/*.sql} and {@code containers/debezium/orders-connector.json}.
 * With Ryuk off the stand removes its own containers at JVM exit; every container carries the labels
 * {@code dev.seams.stand=true} and {@code dev.seams.stand.owner=<pid>} ({@link JvmContainer#labels()}) so {@code .ci/run}
 * can remove the leftovers of a run that was killed, and only those. Its ports are published on
 * {@link HostPorts#listenAddress()} only (loopback unless {@code -Dseams.stand.listen} says otherwise).
 */
public final class Stand implements Endpoints {

    /**
     * Partitions the two data topics are created with. {@code orders.events} keeps them;
     * {@code customer.totals} is given twice as many by claim B10 ({@code it/TransportIT}) and keeps
     * them for every later claim, so nothing may assume this count for {@code customer.totals}: read
     * its partitions from the broker ({@link Topics#partitionCount}, {@link Topics#endOffsets}).
     */
    public static final int PARTITIONS = 3;

    private static final Logger LOG = LoggerFactory.getLogger(Stand.class);
    private static Stand instance;
    private static RuntimeException failure;

    private final Images images;
    private final Network network;
    private final PostgreSQLContainer postgres;
    private final Brokers kafka;
    private final ClickHouseContainer clickhouse;
    private final DebeziumContainer connect;
    private final Path logDir;
    private StreamsProcess streams;
    private Admin admin;
    private double startSeconds;

    private Map<String, String> versions;
    private volatile List<Long> preexistingOrders = List.of();
    /** host:port of the source database as seen from this host; null: the stand's own PostgreSQL container (B18 moves it) */
    private volatile String sourceAddress;

    private Stand(Images images) {
        this.images = images;
        this.network = Network.newNetwork();
        this.logDir = Project.root().resolve("target/stand-logs");
        this.postgres = StandContainers.postgres(images, network);
        this.kafka = new Brokers(BrokerLayout.fromSystemProperties(), images.image("kafka"), network,
                SaslListener.fromSystemProperties().orElse(null));
        this.clickhouse = StandContainers.clickhouse(images, network);
        this.connect = StandContainers.connect(images, network, kafka);
    }

    /**
     * @return the running stand, started on first call
     * @throws StandUnavailableException if it could not start (then every later call throws it too)
     */
    public static synchronized Stand get() {
        if (failure != null) {
            throw failure;
        }
        if (instance == null) {
            Stand stand = new Stand(Images.fromSystemProperties());
            Runtime.getRuntime().addShutdownHook(new Thread(stand::stop, "stand-stop"));
            try {
                stand.start();
            } catch (RuntimeException | Error e) {
                failure = new StandUnavailableException("the stand did not start (profile "
                        + stand.images.profile() + "): " + e, e);
                stand.dumpLogs();
                throw failure;
            }
            instance = stand;
        }
        return instance;
    }

    /**
     * Starts the stand on as many paths at once as the dependencies allow (the machines have 2 cores, but
     * much of a start is waiting): PostgreSQL then its SQL files; ClickHouse then its DDL; Kafka then the
     * topics, then ds-streams; Kafka Connect as soon as the broker's container runs (the worker scans its
     * plugins while the broker starts, and waits for the broker before it joins), then the connector once
     * the orders table exists.
     */
    private void start() {
        long t0 = System.nanoTime();
        LOG.info("starting the stand, profile {}", images.profile());
        // its own threads: the common pool has one thread on 2 cores, and these tasks block
        ExecutorService threads = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "stand-start");
            t.setDaemon(true);
            return t;
        });
        try {
            startOn(threads);
        } finally {
            threads.shutdown();
        }
        startSeconds = (System.nanoTime() - t0) / 1e9;
        LOG.info("stand up in {} s", String.format("%.1f", startSeconds));
        versions = ServerVersions.live(this);
    }

    private void startOn(ExecutorService threads) {
        CompletableFuture<Void> pg = CompletableFuture.runAsync(() -> {
            postgres.start();
            try (Connection c = pg()) {
                ShippedSetup.applyPostgresScripts(c);
            } catch (SQLException e) {
                throw new IllegalStateException("cannot connect to PostgreSQL", e);
            }
            preexistingOrders = PreexistingOrders.write(this::pg);   // before the connector exists (B17)
        }, threads);
        CompletableFuture<Void> ch = CompletableFuture.runAsync(() -> {
            clickhouse.start();
            ClickHouse.of(clickhouseTarget()).runScript(Project.root().resolve("containers/clickhouse"));
        }, threads);
        CompletableFuture<Void> broker = CompletableFuture.runAsync(() -> {
            kafka.start();
            admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()));
            ShippedSetup.createTopics(admin, replicationFactor());
        }, threads);
        CompletableFuture<Void> worker = CompletableFuture.runAsync(() -> {
            await("the brokers' containers run (their aliases resolve for Connect)").atMost(Duration.ofMinutes(3))
                    .pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(100))
                    .until(() -> broker.isDone() || kafka.isRunning());
            broker.getNow(null);   // a broker that failed to start fails here
            connect.start();
        }, threads);
        CompletableFuture<Void> streamsUp = broker.thenRunAsync(() -> {
            streams = StreamsProcess.withEmptyState(images.image("jre"), network, Project.root().resolve("target/streams-state"), logDir, this);
            streams.start();
        }, threads);
        CompletableFuture<Void> connector = CompletableFuture.allOf(worker, pg, broker).thenRunAsync(
                () -> ShippedSetup.registerConnector(connect, RunNames.CONNECTOR, connectorConfig()), threads);
        try {
            CompletableFuture.allOf(pg, ch, broker, worker, streamsUp, connector).join();
        } catch (CompletionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : e;
        }
    }

    /** @return claim B7: each component's declared version (image labels, version tags, -Dkafka.version) against its live one */
    public List<VersionGate.Check> versionChecks() {
        return VersionGate.checks(DeclaredVersions.of(images.references()), versions);
    }

    /** @return version-dependent behaviour of this stand's servers (one place that knows the versions) */
    public ServerTraits traits() {
        return ServerTraits.of(versions);
    }

    /** @return the live versions read when the stand started ({@link ServerVersions#live}), component → version */
    public Map<String, String> versions() {
        return java.util.Collections.unmodifiableMap(versions);
    }

    /**
     * @param service one of postgres, kafka, connect, clickhouse
     * @return the image the profile runs for it, e.g. {@code clickhouse/clickhouse-server:25.8.11.66}
     */
    public String image(String service) {
        return images.image(service).asCanonicalNameString();
    }

    /**
     * @return the ids of the orders PostgreSQL held when the shipped connector was first registered
     *     ({@link PreexistingOrders}; claim B17 "existing rows"), ascending
     */
    public List<Long> preexistingOrderIds() {
        return preexistingOrders;
    }

    /**
     * @return the orders connector's configuration: the connector under test ({@code containers/debezium/orders-connector.json}
     *     unless {@code -Dseams.connector} names a user's) plus the connection to the stand's PostgreSQL as seen from the
     *     Connect container ({@link ShippedSetup#connector})
     */
    public Map<String, String> connectorConfig() {
        return connector().config();
    }

    /** @return the connector under test as the stand registered it, with every change it made ({@link dev.seams.config.ConnectorUnderTest}) */
    public dev.seams.config.ConnectorUnderTest.Registered connector() {
        return ShippedSetup.connector(postgres);
    }

    /** Stops Streams and removes every container (Ryuk may be off). Idempotent. */
    public synchronized void stop() {
        if (streams != null) {
            try {
                streams.discard();   // no graceful close: its group, its broker and everything else go away now
            } catch (RuntimeException e) {
                LOG.warn("cannot stop ds-streams: {}", e.toString());
            }
        }
        dumpLogs();
        if (admin != null) {
            admin.close(Duration.ofSeconds(5));
        }
        List<GenericContainer<?>> containers = new ArrayList<>(List.of(connect));
        containers.addAll(kafka.containersByName().values());
        containers.addAll(List.of(clickhouse, postgres));
        for (GenericContainer<?> c : containers) {
            try {
                c.stop();
            } catch (RuntimeException e) {
                LOG.warn("cannot stop {}: {}", c.getDockerImageName(), e.toString());
            }
        }
        try {
            network.close();
        } catch (RuntimeException e) {
            LOG.warn("cannot remove network: {}", e.toString());
        }
    }

    private void dumpLogs() {
        Map<String, GenericContainer<?>> containers = new LinkedHashMap<>(
                Map.of("postgres", postgres, "connect", connect, "clickhouse", clickhouse));
        containers.putAll(kafka.containersByName());
        StandContainers.writeLogs(logDir, containers);
    }

    /** @return a new connection to the source database; the caller closes it */
    @Override
    public Connection pg() throws SQLException {
        Properties props = new Properties();
        props.setProperty("user", postgres.getUsername());
        props.setProperty("password", postgres.getPassword());
        return DriverManager.getConnection(sourceJdbcUrl(), props);
    }

    /**
     * Makes a promoted standby the stand's source database (claim B18, failover of the source): from now on
     * {@link #pg()}, {@link #pgJdbcUrl(String)} and every reader of PostgreSQL's truth reach it. Connect is the caller's:
     * it points the connector at the promoted server ({@code database.hostname}, faults/SourceFailover).
     *
     * @param host the promoted server's host as seen from this host
     * @param port its port mapped to this host
     */
    public void failOverSource(String host, int port) {
        sourceAddress = host + ":" + port;
        LOG.info("the source database is now {} (a promoted standby)", sourceAddress);
    }

    /**
     * @param database a database on the stand's PostgreSQL server (the source {@code test}, or one a
     *                 test created, e.g. the inbox sink's target {@code ledger}, claim B4)
     * @return its JDBC URL as seen from this host; log in with {@link #pgUser()} / {@link #pgPassword()}
     */
    @Override
    public String pgJdbcUrl(String database) {
        String address = sourceAddress;
        return "jdbc:postgresql://" + (address != null ? address : postgres.getHost() + ":" + postgres.getMappedPort(5432)) + "/" + database;
    }

    /** @return the source database's JDBC URL as seen from this host (the database {@link #pg()} connects to) */
    public String sourceJdbcUrl() {
        return pgJdbcUrl(postgres.getDatabaseName());
    }

    /** @return the source database's name (the one {@link #pg()} connects to) */
    @Override
    public String sourceDatabase() {
        return postgres.getDatabaseName();
    }

    /** @return the PostgreSQL user of {@link #pg()} and {@link #pgJdbcUrl(String)} */
    @Override
    public String pgUser() {
        return postgres.getUsername();
    }

    /** @return that user's password */
    @Override
    public String pgPassword() {
        return postgres.getPassword();
    }

    /** @return the brokers' bootstrap servers as seen from this host (every node's, on a cluster) */
    @Override
    public String bootstrapServers() {
        return kafka.bootstrapServers();
    }

    /**
     * @return the brokers' bootstrap servers for the containers on the stand's network (Connect, ds-streams,
     *     the sink's container): {@code kafka:19092}, or every node of a cluster ({@link BrokerLayout#onNetwork()})
     */
    public String kafkaOnNetwork() {
        return kafka.onNetwork();
    }

    /** @return the replication factor of every topic the stand (or a test) creates: 1, or 3 on a cluster */
    @Override
    public short replicationFactor() {
        return kafka.layout().replicationFactor();
    }

    /** @return a shared admin client (do not close) */
    @Override
    public Admin admin() {
        return admin;
    }

    /** @return where the sink writes */
    @Override
    public ClickHouseTarget clickhouseTarget() {
        return new ClickHouseTarget("http://" + clickhouse.getHost() + ":" + clickhouse.getMappedPort(8123),
                clickhouse.getUsername(), clickhouse.getPassword(), clickhouse.getDatabaseName());
    }

    /** @return the Streams process */
    public StreamsProcess streams() {
        return streams;
    }

    /** @return the stand's network, for more project processes in containers (e.g. a sink as a B5 fault target) */
    public Network network() {
        return network;
    }

    /**
     * @return every server container of the stand by its name on the network: {@code postgres}, each Kafka node's alias,
     *     {@code connect}, {@code clickhouse} (what {@code seams stand up} watches while it is up)
     */
    public Map<String, ContainerControl> servers() {
        Map<String, ContainerControl> servers = new LinkedHashMap<>();
        servers.put("postgres", new ContainerControl(postgres.getContainerId()));
        kafka.containersByName().forEach((name, c) -> servers.put(name, new ContainerControl(c.getContainerId())));
        servers.put("connect", new ContainerControl(connect.getContainerId()));
        servers.put("clickhouse", new ContainerControl(clickhouse.getContainerId()));
        return servers;
    }

    /**
     * @param service one of postgres, kafka (the first Kafka node: the only one, unless the stand runs a
     *                cluster), kafka-N (node N of a cluster), connect, clickhouse
     * @return Docker's operations on that server's container, the target of a fault (claim B5)
     * @throws IllegalArgumentException for a service the stand does not run
     */
    public ContainerControl control(String service) {
        if (service.equals("kafka")) {
            return kafka.control(kafka.nodeIds().get(0));
        }
        GenericContainer<?> c = service.startsWith("kafka") ? kafka.containersByName().get(service) : switch (service) {
            case "postgres" -> postgres;
            case "connect" -> connect;
            case "clickhouse" -> clickhouse;
            default -> null;
        };
        if (c == null) {
            throw new IllegalArgumentException("no server " + service + " on the stand");
        }
        return new ContainerControl(c.getContainerId());
    }

    /**
     * Waits (up to 30 s) until ClickHouse answers or its container has exited; if it exited, starts the same container
     * again (same data, fixed ports) and waits (up to 2 min) until it answers. ClickHouse 18.16 has aborted when a Kafka
     * engine table was dropped (docs/findings.md): the engine as a sink under test and the P1 benchmark's engine
     * contender both recover so.
     *
     * @return the exit status of a ClickHouse that had exited and was started again; empty if it kept running
     * @throws IllegalStateException if it exited and does not answer after its restart (the message names the status)
     */
    public OptionalInt restartClickHouseIfExited() {
        ContainerControl server = control("clickhouse");
        await("ClickHouse answers or has exited").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(250))
                .ignoreExceptions().until(() -> !server.isRunning() || ClickHouse.of(clickhouseTarget()).scalar("SELECT 1") == 1);
        if (server.isRunning()) {
            return OptionalInt.empty();
        }
        int status = server.exitCode();
        server.start();
        try {
            await("ClickHouse answers again after its restart").atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(250))
                    .ignoreExceptions().until(() -> ClickHouse.of(clickhouseTarget()).scalar("SELECT 1") == 1);
        } catch (RuntimeException e) {
            throw new IllegalStateException("ClickHouse exited (status " + status + ") and does not answer after its restart", e);
        }
        return OptionalInt.of(status);
    }

    /** @return the Kafka Connect container */
    public DebeziumContainer connect() {
        return connect;
    }

    /** @return the Kafka nodes (their logs, e.g. the broker's version line and the group coordinators' rebalances; a node's container) */
    public Brokers kafka() {
        return kafka;
    }

    /** @return the profile that runs */
    public String profile() {
        return images.profile();
    }

    /** @return seconds from the first container start to ds-streams RUNNING */
    public double startSeconds() {
        return startSeconds;
    }
}
