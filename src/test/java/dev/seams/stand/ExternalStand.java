package dev.seams.stand;

import static org.awaitility.Awaitility.await;

import dev.seams.config.ConnectorUnderTest;
import dev.seams.kafka.KafkaClientConfig;
import dev.seams.load.PreexistingOrders;
import dev.seams.project.Project;
import dev.seams.report.NotApplicableException;
import dev.seams.sink.ClickHouseTarget;
import dev.seams.truth.ClickHouse;
import dev.seams.truth.Endpoints;
import dev.seams.truth.Groups;
import dev.seams.truth.ReplicationSlots;
import dev.seams.truth.RunNames;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ConsumerGroupListing;
import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A stand the suite did not start (docs/stand.md "An existing stand"; {@code -Dseams.stand=external}): PostgreSQL,
 * Kafka, Kafka Connect with Debezium, and ClickHouse at the endpoints of a properties file ({@code
 * -Dseams.stand.file}, default {@value #DEFAULT_FILE}). The run creates its own pipeline there, every name with the
 * run's prefix ({@link RunNames}): a PostgreSQL database {@code <prefix>seams} with the shipped schema, the topics, the
 * connector (its slot and publication), ds-streams as a child JVM of this one (application id {@code
 * <prefix>ds-streams}), and a ClickHouse database {@code <prefix>seams} with the shipped DDL. At the end of the JVM,
 * after a failure too, it removes all of that again ({@link #remove()}).
 *
 * <p>Claims that stop, kill, pause or cut a server need process control the run does not have there: they are NOT_RUN
 * with {@value #NO_PROCESS_CONTROL} ({@link #processControl}).
 */
public final class ExternalStand implements Endpoints {

    /** The system property naming the endpoints file. */
    public static final String FILE_PROPERTY = "seams.stand.file";
    /** The endpoints file when {@value #FILE_PROPERTY} is unset, relative to the project root. */
    public static final String DEFAULT_FILE = "seams-stand.properties";
    /** Why a claim that needs process control does not run on an external stand. */
    public static final String NO_PROCESS_CONTROL = "external stand: no process control";

    private static final Logger LOG = LoggerFactory.getLogger(ExternalStand.class);

    /** The run's own database on both PostgreSQL and ClickHouse. */
    private static final String DATABASE = RunNames.of("seams");
    /** The run's replication slot and publication (the shipped {@code seams_orders} with the prefix). */
    private static final String SLOT = RunNames.of("seams_orders");
    private static ExternalStand instance;
    private static RuntimeException failure;

    /**
     * Removes the run's pipeline from the external stand when the test session ends ({@code
     * META-INF/services/org.junit.platform.launcher.LauncherSessionListener}), while the JVM still runs normally: a
     * shutdown hook is only the fallback, since the build may stop a forked JVM that takes long to exit.
     */
    public static final class Removal implements LauncherSessionListener {

        /** Created by JUnit's service loader. */
        public Removal() {
        }

        @Override
        public void launcherSessionClosed(LauncherSession session) {
            ExternalStand stand;
            synchronized (ExternalStand.class) {
                stand = instance;
            }
            if (stand != null) {
                stand.remove();
            }
        }
    }

    private final Path file;
    private final Properties endpoints;
    /** The passwords, read once from their files. */
    private final String pgPassword;
    private final String clickhousePassword;
    /** {@code kafka.client.properties}: the Kafka clients' SASL/SSL settings, or null for a PLAINTEXT listener. */
    private final Path kafkaClientProperties;
    private final KafkaClientConfig kafkaClientConfig;
    private final List<Runnable> undo = new ArrayList<>();
    private Admin admin;
    private short replicationFactor;
    private double startSeconds;

    private ExternalStand(Path file, Properties endpoints) {
        this.file = file;
        this.endpoints = endpoints;
        this.pgPassword = secret("postgres.password.file");
        this.clickhousePassword = secret("clickhouse.password.file");
        String client = endpoints.getProperty("kafka.client.properties", "").strip();
        this.kafkaClientProperties = client.isEmpty() ? null : Path.of(client).toAbsolutePath();
        this.kafkaClientConfig = KafkaClientConfig.load(kafkaClientProperties);   // read once: a file that cannot be read fails the start
    }

    /** @return whether this run's stand is an external one ({@code -Dseams.stand=external}) */
    public static boolean chosen() {
        return "external".equals(System.getProperty(RunNames.STAND_PROPERTY, "local"));
    }

    /**
     * @return the external stand, its run's pipeline created on first call
     * @throws StandUnavailableException if the endpoints file cannot be read, a server cannot be reached or refuses
     *     what the run creates (then every later call throws it too; what was created is removed)
     */
    public static synchronized ExternalStand get() {
        if (failure != null) {
            throw failure;
        }
        if (instance == null) {
            Path file = Project.root().resolve(System.getProperty(FILE_PROPERTY, DEFAULT_FILE));
            ExternalStand stand = null;
            try {
                stand = new ExternalStand(file, load(file));
                Runtime.getRuntime().addShutdownHook(new Thread(stand::remove, "external-stand-remove"));
                stand.start();
                instance = stand;
            } catch (RuntimeException e) {
                failure = new StandUnavailableException("the external stand of " + file + " is not usable: " + e, e);
                if (stand != null) {
                    stand.remove();   // what the run did create
                }
                throw failure;
            }
        }
        return instance;
    }

    /**
     * A claim that drives a server's process states it first (docs/stand.md "An existing stand").
     *
     * @param stand the run's endpoints
     * @param why   what the claim does to a process, in its words
     * @return the suite's own stand
     * @throws NotApplicableException on an external stand: the claim is NOT_RUN with {@value #NO_PROCESS_CONTROL}
     */
    public static Stand processControl(Endpoints stand, String why) {
        if (stand instanceof Stand own) {
            return own;
        }
        throw new NotApplicableException(NO_PROCESS_CONTROL + " (" + why + ")");
    }

    private static Properties load(Path file) {
        Properties p = new Properties();
        try (InputStream in = Files.newInputStream(file)) {
            p.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the endpoints file " + file + " (docs/stand.md \"An existing stand\")", e);
        }
        return p;
    }

    private String required(String key) {
        String value = endpoints.getProperty(key);
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException(file + " has no " + key + " (docs/stand.md \"An existing stand\")");
        }
        return value.trim();
    }

    private String secret(String key) {
        Path path = Path.of(required(key));
        try {
            return Files.readString(path).strip();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + key + " " + path, e);
        }
    }

    private void start() {
        if (RunNames.PREFIX.isEmpty()) {   // never the shipped names on a shared stand: the removal goes by the prefix
            throw new IllegalStateException("an external stand's run needs a name prefix (" + RunNames.PREFIX_PROPERTY + ")");
        }
        long t0 = System.nanoTime();
        LOG.info("creating this run's pipeline on the external stand of {}, names prefixed {}", file, RunNames.PREFIX);
        try (Connection c = adminPg(); Statement st = c.createStatement()) {
            try (var rs = st.executeQuery("SHOW wal_level")) {
                rs.next();
                if (!"logical".equals(rs.getString(1))) {
                    throw new IllegalStateException("PostgreSQL runs wal_level=" + rs.getString(1)
                            + "; Debezium's pgoutput needs wal_level=logical");
                }
            }
            st.execute("CREATE DATABASE " + DATABASE);
            undo.add(this::dropPostgresDatabases);
        } catch (SQLException e) {
            throw new IllegalStateException("PostgreSQL at " + required("postgres.url") + ": " + e.getMessage(), e);
        }
        try (Connection c = pg()) {
            ShippedSetup.applyPostgresScripts(c);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot connect to " + pgJdbcUrl(DATABASE), e);
        }
        PreexistingOrders.write(this::pg);   // before the connector exists, as on the suite's own stand (B17)

        ClickHouse server = ClickHouse.of(clickhouseTarget().withDatabase("default"));
        server.execute("CREATE DATABASE " + DATABASE);
        undo.add(() -> dropClickHouseDatabases(server));
        ClickHouse.of(clickhouseTarget()).runScript(Project.root().resolve("containers/clickhouse"));

        admin = Admin.create(kafkaClientConfig.applyTo(Map.<String, Object>of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers())));
        undo.add(this::deleteGroups);
        undo.add(this::deleteTopics);
        replicationFactor = endpoints.containsKey("kafka.replication.factor")
                ? Short.parseShort(required("kafka.replication.factor")) : (short) Math.min(3, brokers());
        ShippedSetup.createTopics(admin, replicationFactor);

        Path stateDir = Project.root().resolve("target/external-streams-state/" + RunNames.PREFIX);
        Project.deleteTree(stateDir);   // a reused prefix's old stores must not meet the new topics
        undo.add(() -> Project.deleteTree(stateDir));
        List<String> streamsArgs = new ArrayList<>(List.of(
                "--bootstrap-servers", bootstrapServers(), "--application-id", RunNames.STREAMS_GROUP,
                "--topic-prefix", RunNames.PREFIX, "--dynamic-membership",
                "--state-dir", stateDir.toString()));
        streamsArgs.addAll(kafkaConfigOption());
        JvmProcess streams = new JvmProcess("external-streams", "dev.seams.cli.StreamsCommand", streamsArgs,
                Project.root().resolve("target/stand-logs"));
        undo.add(streams::stop);
        streams.start();
        streams.awaitOutput("REBALANCING -> RUNNING", Duration.ofMinutes(3));

        ConnectWorker connect = connect();
        undo.add(() -> removeConnector(connect));
        connect.putConfig(RunNames.CONNECTOR, connectorConfig(), Duration.ofMinutes(3));
        connect.awaitTaskRunning(RunNames.CONNECTOR);
        startSeconds = (System.nanoTime() - t0) / 1e9;
        LOG.info("this run's pipeline is up on the external stand in {} s", String.format("%.1f", startSeconds));
    }

    /**
     * @return the connector under test ({@code containers/debezium/orders-connector.json} unless {@code -Dseams.connector}
     *     names a user's) with the connection to the run's database as the Connect worker reaches it ({@code
     *     postgres.from.connect}) and the run's names: {@code topic.prefix}, the route to {@link RunNames#ORDERS_EVENTS},
     *     the slot and the publication
     */
    public Map<String, String> connectorConfig() {
        return connector().config();
    }

    /** @return the connector under test as this run registers it, with every change the stand made */
    public ConnectorUnderTest.Registered connector() {
        String[] hostPort = required("postgres.from.connect").split(":", 2);
        return ConnectorUnderTest.configured().forStand(new ConnectorUnderTest.StandNames(hostPort[0],
                hostPort.length > 1 ? hostPort[1] : "5432", pgUser(), pgPassword(), DATABASE, RunNames.CONNECTOR_TOPIC_PREFIX, SLOT,
                RunNames.ORDERS_EVENTS));
    }

    private ConnectWorker connect() {
        return ConnectWorker.at(required("connect.url"));
    }

    private int brokers() {
        try {
            return admin.describeCluster().nodes().get(1, TimeUnit.MINUTES).size();
        } catch (Exception e) {
            throw new IllegalStateException("Kafka at " + bootstrapServers() + " does not answer: " + e, e);
        }
    }

    /**
     * Removes what the run created, newest first, each step on its own (a failed one is logged, the next still runs):
     * the connector (stopped, its offsets deleted, then deleted), ds-streams, the topics and consumer groups with the
     * run's prefix (ds-streams' internal topics included), the slot, the PostgreSQL and ClickHouse databases. Once
     * only: later calls do nothing.
     */
    synchronized void remove() {
        if (undo.isEmpty()) {
            return;
        }
        for (int i = undo.size() - 1; i >= 0; i--) {
            try {
                undo.get(i).run();
            } catch (RuntimeException e) {
                LOG.warn("cannot remove a part of this run from the external stand: {}", e.toString());
            }
        }
        undo.clear();
        if (admin != null) {
            admin.close(Duration.ofSeconds(5));
        }
        LOG.info("this run's pipeline ({}*) is removed from the external stand", RunNames.PREFIX);
    }

    /**
     * Stops the connector and waits until it is STOPPED (its task gone, the slot released), deletes its offsets (Kafka
     * Connect 3.6+, KIP-875; an older worker keeps them, harmless under a prefix of its own), then deletes it, asking
     * again while the worker rebalances, until it is gone from {@code /connectors}.
     */
    private static void removeConnector(ConnectWorker connect) {
        String name = RunNames.CONNECTOR;
        try {
            connect.stop(name);
            await(name + " STOPPED").atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofMillis(250)).ignoreExceptions()
                    .until(() -> "STOPPED".equals(connect.connectorState(name)));
            connect.deleteOffsets(name);
        } catch (RuntimeException e) {
            LOG.warn("cannot stop {} and delete its offsets: {}", name, e.toString());
        }
        await(name + " deleted").atMost(Duration.ofMinutes(2)).pollDelay(Duration.ZERO).pollInterval(Duration.ofSeconds(1))
                .ignoreExceptions().until(() -> {
                    if (listed(connect, name)) {
                        connect.delete(name);
                    }
                    return !listed(connect, name);
                });
    }

    private static boolean listed(ConnectWorker connect, String name) {
        for (var node : connect.get("/connectors")) {
            if (name.equals(node.asText())) {
                return true;
            }
        }
        return false;
    }

    private void deleteTopics() {
        try {
            List<String> ours = admin.listTopics().names().get(1, TimeUnit.MINUTES).stream()
                    .filter(t -> t.startsWith(RunNames.PREFIX) || t.equals(RunNames.HEARTBEAT)).toList();
            admin.deleteTopics(ours).all().get(1, TimeUnit.MINUTES);
            LOG.info("deleted this run's {} topics", ours.size());
        } catch (Exception e) {
            throw new IllegalStateException("cannot delete this run's topics: " + e, e);
        }
    }

    /** Deletes the run's consumer groups, each on its own; a group that still has members loses them first. */
    private void deleteGroups() {
        List<String> groups;
        try {
            groups = admin.listConsumerGroups().all().get(1, TimeUnit.MINUTES).stream()
                    .map(ConsumerGroupListing::groupId).filter(g -> g.startsWith(RunNames.PREFIX)).toList();
        } catch (Exception e) {
            throw new IllegalStateException("cannot list the consumer groups: " + e, e);
        }
        for (String group : groups) {
            try {
                Groups.of(admin).removeAllMembers(group);
                admin.deleteConsumerGroups(List.of(group)).all().get(1, TimeUnit.MINUTES);
            } catch (Exception e) {
                LOG.warn("cannot delete the consumer group {}: {}", group, e.toString());
            }
        }
        LOG.info("deleted this run's {} consumer groups", groups.size());
    }

    /** Drops the run's ClickHouse databases: its own and the scratch ones claims made ({@code ClickHouse#scratch}). */
    private static void dropClickHouseDatabases(ClickHouse server) {
        for (List<String> row : server.rows("SHOW DATABASES")) {
            if (row.get(0).startsWith(RunNames.PREFIX)) {
                try {
                    server.execute("DROP DATABASE IF EXISTS " + row.get(0));
                } catch (RuntimeException e) {
                    LOG.warn("cannot drop the ClickHouse database {}: {}", row.get(0), e.toString());
                }
            }
        }
    }

    /** @return a connection to the database of {@code postgres.url}, where the run's own databases are created and dropped */
    private Connection adminPg() throws SQLException {
        return DriverManager.getConnection(required("postgres.url"), pgUser(), pgPassword());
    }

    /**
     * Drops the run's slot (retried while the deleted connector's walsender still holds it, {@link ReplicationSlots#drop})
     * and every database that starts with the prefix, each on its own: {@code WITH (FORCE)} on PostgreSQL 13+, else after
     * terminating its backends.
     */
    private void dropPostgresDatabases() {
        new ReplicationSlots(this::adminPg).drop(SLOT);
        List<String> ours = new ArrayList<>();   // the run's own and those claims made (e.g. the inbox's ledger)
        boolean force;
        try (Connection c = adminPg(); Statement st = c.createStatement()) {
            try (var rs = st.executeQuery("SELECT datname FROM pg_database WHERE starts_with(datname, '" + RunNames.PREFIX + "')")) {
                while (rs.next()) {
                    ours.add(rs.getString(1));
                }
            }
            force = c.getMetaData().getDatabaseMajorVersion() >= 13;
        } catch (SQLException e) {
            throw new IllegalStateException("cannot list the run's PostgreSQL databases: " + e, e);
        }
        for (String database : ours) {
            try (Connection c = adminPg(); Statement st = c.createStatement()) {
                if (!force) {
                    st.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '" + database + "'");
                }
                st.execute("DROP DATABASE IF EXISTS " + database + (force ? " WITH (FORCE)" : ""));
            } catch (SQLException e) {
                LOG.warn("cannot drop the PostgreSQL database {}: {}", database, e.toString());
            }
        }
    }

    /** @return seconds this run took to create its pipeline on the stand */
    public double startSeconds() {
        return startSeconds;
    }

    /** @return the endpoints file */
    public Path file() {
        return file;
    }

    @Override
    public Connection pg() throws SQLException {
        return DriverManager.getConnection(pgJdbcUrl(DATABASE), pgUser(), pgPassword());
    }

    /** @return the JDBC URL of a database on the stand's PostgreSQL: {@code postgres.url} with its database replaced */
    @Override
    public String pgJdbcUrl(String database) {
        String url = required("postgres.url");
        int slash = url.indexOf('/', "jdbc:postgresql://".length());
        int query = url.indexOf('?');
        return (slash < 0 ? url : url.substring(0, slash)) + "/" + database + (query < 0 ? "" : url.substring(query));
    }

    @Override
    public String sourceDatabase() {
        return DATABASE;
    }

    @Override
    public String pgUser() {
        return required("postgres.user");
    }

    @Override
    public String pgPassword() {
        return pgPassword;
    }

    @Override
    public String bootstrapServers() {
        return required("kafka.bootstrap.servers");
    }

    /** @return {@code kafka.client.properties}, as an absolute path; empty if the file names none (PLAINTEXT) */
    @Override
    public Optional<Path> kafkaClientProperties() {
        return Optional.ofNullable(kafkaClientProperties);
    }

    /** @return that file's properties, read once when the endpoints were read */
    @Override
    public KafkaClientConfig kafkaClientConfig() {
        return kafkaClientConfig;
    }

    @Override
    public Admin admin() {
        return admin;
    }

    @Override
    public short replicationFactor() {
        return replicationFactor;
    }

    /** @return the run's ClickHouse database {@code <prefix>seams} at {@code clickhouse.url} */
    @Override
    public ClickHouseTarget clickhouseTarget() {
        return new ClickHouseTarget(required("clickhouse.url"), required("clickhouse.user"), clickhousePassword, DATABASE);
    }
}
