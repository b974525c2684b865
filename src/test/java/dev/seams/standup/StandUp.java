package dev.seams.standup;

import dev.seams.check.Reconciliation;
import dev.seams.cli.BuildVersion;
import dev.seams.config.ConnectorUnderTest;
import dev.seams.seed.OrderSeeder;
import dev.seams.sink.ClickHouseTarget;
import dev.seams.stand.ContainerControl;
import dev.seams.stand.HostPorts;
import dev.seams.stand.Images;
import dev.seams.stand.SaslListener;
import dev.seams.stand.SinkContainer;
import dev.seams.stand.Stand;
import dev.seams.truth.RunNames;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import sun.misc.Signal;

/**
 * {@code seams stand up} ({@code bin/seams stand up}; docs/stand.md): the stand the suite runs on, brought up for a
 * person to explore. The same images ({@code containers/images.properties}), connector, DDL and ds-streams as every
 * claim, plus the sink as it is deployed ({@link SinkContainer#deployed}: shipped defaults,
 * {@code --run-until-stopped}). Prints the endpoints and three commands to try on stdout, stays up until Ctrl-C
 * (SIGINT) or SIGTERM, and then removes every container and the network in order (the sink first, then {@link Stand#stop()}).
 *
 * <p>Its ports are published on {@code --listen} only, loopback by default: the stand's servers have test passwords,
 * Kafka speaks PLAINTEXT and Connect's REST API has no authentication. While up it watches its containers: one that
 * stops or is removed from outside ends the command (exit status 3, the container named), the rest removed.
 *
 * <p>Exit status: 130 after Ctrl-C, 143 after SIGTERM (the JVM's, everything removed); 1 the stand or its sink did
 * not start (the reason on stderr; what did start is removed); 2 usage error (an unknown profile included); 3 a
 * container of the stand stopped or was removed while it was up. Seeded
 * orders that do not reach {@code customer_totals FINAL} within {@code --seed-timeout} are reported on stderr with the
 * customers that differ ({@link Reconciliation}), and the stand stays up to look at why.
 */
@Command(name = "seams stand up", mixinStandardHelpOptions = true, versionProvider = BuildVersion.class, sortOptions = false,
        description = {"Bring up the stand the suite runs on (PostgreSQL, Debezium on Kafka Connect, Kafka, ds-streams, "
                + "the sink, ClickHouse), print its endpoints and commands to try, and keep it up until Ctrl-C, "
                + "which removes everything."},
        footer = {"", "Exit status: 130 stopped by Ctrl-C, 143 by SIGTERM (everything removed);",
            "1 the stand or its sink did not start; 2 usage error;",
            "3 a container of the stand stopped or was removed while it was up (the rest removed)."})
public final class StandUp implements Callable<Integer> {

    @Option(names = "--profile", defaultValue = "${sys:seams.profile:-current}",
            description = "image set of containers/images.properties: current | candidate | offline | "
                    + "offline-candidate (default: ${DEFAULT-VALUE})")
    String profile;

    @Option(names = "--seed", paramLabel = "N", defaultValue = "0",
            description = "orders to insert once the stand is up, then wait until customer_totals FINAL equals "
                    + "PostgreSQL's totals (default: ${DEFAULT-VALUE}: none)")
    int seed;

    @Option(names = "--customers", defaultValue = "5", description = "the seeded orders' customers 1..N (default: ${DEFAULT-VALUE})")
    int customers;

    @Option(names = "--seed-timeout", defaultValue = "PT2M",
            description = "how long the seeded orders may take to reach ClickHouse, ISO-8601 (default: ${DEFAULT-VALUE})")
    Duration seedTimeout;

    @Option(names = "--endpoints-file", paramLabel = "FILE",
            description = "also write the stand's endpoints there for the claims' external mode (-Dseams.stand=external "
                    + "-Dseams.stand.file=FILE; docs/stand.md \"An existing stand\"), the passwords in FILE.*-password "
                    + "(default: none)")
    Path endpointsFile;

    @Option(names = "--kafka-sasl",
            description = "also give Kafka a SASL_PLAINTEXT listener (PLAIN, one user, a random password) on a host port "
                    + "of its own; the endpoints file then names it, with its client properties in FILE.kafka-client.properties "
                    + "(default: ${DEFAULT-VALUE})")
    boolean kafkaSasl;

    @Option(names = "--listen", paramLabel = "ADDRESS", defaultValue = HostPorts.LOOPBACK,
            description = "the host address the stand's ports are published on: loopback reaches this machine only; "
                    + "0.0.0.0 every network it joins, where anyone may use the test passwords, Kafka without TLS and "
                    + "Connect's REST API without authentication (default: ${DEFAULT-VALUE})")
    String listen;

    @Option(names = "--connector", paramLabel = "FILE",
            description = "run your Debezium connector configuration instead of the shipped one (Connect's {\"name\", "
                    + "\"config\"} JSON, a bare config object or a .properties file); the stand changes only the connection, "
                    + "names, table list and route, each change printed (docs/config.md; default: "
                    + ConnectorUnderTest.SHIPPED_FILE + ")")
    Path connector;

    @Option(names = {"-v", "--verbose"}, description = "also the stand's progress (INFO logs) on stderr; else warnings and "
            + "errors only (default: ${DEFAULT-VALUE})")
    boolean verbose;

    @Spec
    CommandSpec spec;

    /** Exit status: a container of the stand stopped or was removed while it was up. */
    static final int CONTAINER_GONE = 3;
    /** How often the containers are looked at while the stand is up. */
    private static final Duration WATCH_PERIOD = Duration.ofSeconds(2);

    /** Where the endpoints and commands go; tests replace it. */
    PrintStream out = System.out;

    /**
     * Brings the stand up (see the class comment for the exit statuses).
     *
     * @param args the command line
     */
    public static void main(String[] args) {
        if (System.getProperty("logback.configurationFile") == null) {   // before the first logger: logs to stderr
            System.setProperty("logback.configurationFile", "dev/seams/standup/stand-up-logback.xml");
        }
        if (java.util.Arrays.stream(args).anyMatch(a -> a.equals("-v") || a.equals("--verbose"))) {
            System.setProperty("seams.log.level", "INFO");
        }
        // JUL's manager is the one a library on the class path (jboss-logmanager) expects, before anything logs: else it
        // prints an ERROR that it was accessed first
        System.setProperty("java.util.logging.manager", "org.jboss.logmanager.LogManager");
        System.exit(commandLine().execute(args));
    }

    /** @return the command line: a usage error is two lines (what is wrong, where the help is), not the help after it */
    static CommandLine commandLine() {
        CommandLine cli = new CommandLine(new StandUp());
        cli.setParameterExceptionHandler((e, args) -> {
            CommandLine c = e.getCommandLine();
            c.getErr().println(c.getColorScheme().errorText("seams stand up: " + e.getMessage()));
            c.getErr().println("Try 'seams stand up --help' for more information.");
            return 2;
        });
        return cli;
    }

    /**
     * @return 1 if the stand or its sink did not start; else, once a signal stopped everything, 128 + its number
     * @throws ParameterException (exit status 2) for an unknown profile or a seed without customers
     * @throws InterruptedException if the waiting thread is interrupted
     */
    @Override
    public Integer call() throws InterruptedException {
        if (seed < 0 || customers < 1) {
            throw new ParameterException(spec.commandLine(), "--seed must be >= 0 and --customers >= 1");
        }
        String before = System.getProperty("seams.profile");
        System.setProperty("seams.profile", profile);
        try {
            Images.fromSystemProperties().references();
        } catch (IllegalStateException e) {
            if (before == null) {   // the usage text after the error shows the default, not the refused profile
                System.clearProperty("seams.profile");
            } else {
                System.setProperty("seams.profile", before);
            }
            throw new ParameterException(spec.commandLine(), "--profile " + profile + ": " + e.getMessage());
        }
        if (!listen.matches("[0-9.]+|[0-9A-Fa-f:]+") || !isAddress(listen)) {
            throw new ParameterException(spec.commandLine(), "--listen " + listen + ": not an IP address of this host "
                    + "(e.g. 127.0.0.1, 0.0.0.0)");
        }
        System.setProperty(HostPorts.LISTEN_PROPERTY, listen);
        if (connector != null) {
            System.setProperty(ConnectorUnderTest.PROPERTY, connector.toString());
            try {
                String notAskable = ConnectorUnderTest.configured().notAskable();
                if (notAskable != null) {   // a person may still look at what it writes; the claims would be NOT_RUN
                    System.err.println("seams stand up: warning: " + notAskable);
                }
            } catch (IllegalArgumentException e) {
                System.clearProperty(ConnectorUnderTest.PROPERTY);
                throw new ParameterException(spec.commandLine(), "--connector " + e.getMessage());
            }
        }
        if (kafkaSasl) {
            System.setProperty(SaslListener.PROPERTY, "true");
        }
        Signals signals = Signals.install();
        Stand stand;
        SinkContainer sink;
        try {
            stand = Stand.get();
            sink = SinkContainer.deployed(stand);
            sink.start();
        } catch (RuntimeException e) {   // what did start is removed by the JVM's shutdown (Stand.get's hook, Testcontainers')
            System.err.println("seams stand up: " + e.getMessage());
            return 1;
        }
        if (!signals.received()) {
            print(stand);
            if (endpointsFile != null) {
                try {
                    writeEndpoints(stand, endpointsFile);
                } catch (IOException e) {
                    System.err.println("seams stand up: cannot write " + endpointsFile + ": " + e);
                    sink.close();
                    stand.stop();
                    return 1;
                }
            }
            if (seed > 0) {
                seed(stand);
            }
            out.println("Up until Ctrl-C, which removes every container and the network.");
            out.flush();
        }
        int status = watch(stand, sink, signals);
        System.err.println("seams stand up: stopping the sink, then ds-streams, every container and the network");
        try {
            sink.close();   // gracefully, while its broker is still there
        } finally {
            stand.stop();
        }
        return status;
    }

    /**
     * Waits for a signal, looking at the stand's containers every {@link #WATCH_PERIOD}.
     *
     * @return the signal's exit status, or {@link #CONTAINER_GONE} once a container no longer runs (named on stderr)
     */
    private static int watch(Stand stand, SinkContainer sink, Signals signals) throws InterruptedException {
        Map<String, ContainerControl> watched = new LinkedHashMap<>(stand.servers());
        watched.put("sink", sink.process("watched while the stand is up"));
        while (true) {
            OptionalInt status = signals.await(WATCH_PERIOD);
            if (status.isPresent()) {
                return status.getAsInt();
            }
            List<String> gone = watched.entrySet().stream().filter(w -> !w.getValue().isRunning()).map(Map.Entry::getKey).toList();
            if (!gone.isEmpty()) {
                System.err.println("seams stand up: the " + String.join(", ", gone) + " container" + (gone.size() == 1 ? " is" : "s are")
                        + " no longer running (stopped or removed from outside this command); removing the rest");
                return CONTAINER_GONE;
            }
        }
    }

    private static boolean isAddress(String literal) {
        try {
            java.net.InetAddress.getByName(literal);   // a literal: no name is looked up
            return true;
        } catch (java.net.UnknownHostException e) {
            return false;
        }
    }

    /**
     * Ctrl-C (SIGINT) and SIGTERM, taken by this command instead of the JVM's shutdown: the stand is stopped in order
     * (the sink gracefully while its broker is still there, then the rest), not raced by Testcontainers' own shutdown
     * hook, which removes every container at once. A signal during the start stops the stand as soon as it is up; a
     * second signal leaves it to the JVM's shutdown.
     */
    private static final class Signals {

        private final CountDownLatch first = new CountDownLatch(1);
        private final AtomicInteger status = new AtomicInteger();

        static Signals install() {
            Signals signals = new Signals();
            for (String name : List.of("INT", "TERM")) {
                Signal.handle(new Signal(name), s -> {
                    if (!signals.status.compareAndSet(0, 128 + s.getNumber())) {
                        Runtime.getRuntime().exit(128 + s.getNumber());
                    }
                    signals.first.countDown();
                });
            }
            return signals;
        }

        boolean received() {
            return first.getCount() == 0;
        }

        /**
         * @return the exit status of the first signal (128 + its number: 130 for SIGINT, 143 for SIGTERM), or empty if
         *     none came within {@code timeout}
         */
        OptionalInt await(Duration timeout) throws InterruptedException {
            return first.await(timeout.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS) ? OptionalInt.of(status.get())
                    : OptionalInt.empty();
        }
    }

    private void print(Stand stand) {
        ClickHouseTarget ch = stand.clickhouseTarget();
        String pg = stand.control("postgres").id().substring(0, 12);
        String kafka = stand.control("kafka").id().substring(0, 12);
        String clickhouse = stand.control("clickhouse").id().substring(0, 12);
        out.printf("seams stand up: profile %s, up in %.1f s%n", stand.profile(), stand.startSeconds());
        out.printf("  PostgreSQL   %s  user %s, password %s (table orders)%n", stand.sourceJdbcUrl(), stand.pgUser(),
                stand.pgPassword());
        out.printf("  Kafka        %s  topics %s, %s, %s%n", stand.bootstrapServers(), RunNames.ORDERS_EVENTS,
                RunNames.CUSTOMER_TOTALS, RunNames.CUSTOMER_TOTALS_DLQ);
        stand.kafka().sasl().ifPresent(sasl -> out.printf("  Kafka SASL   %s  SASL_PLAINTEXT, PLAIN, user %s, password %s%n",
                stand.kafka().saslBootstrapServers(), sasl.user(), sasl.password()));
        out.printf("  Connect      %s  connector %s%n", stand.connect().getTarget(), RunNames.CONNECTOR);
        ConnectorUnderTest.Registered registered = stand.connector();
        ConnectorUnderTest connector = ConnectorUnderTest.configured();
        out.printf("  Connector    %s (%s), the stand's changes: %s%n", connector.name(), connector.file(),
                String.join("; ", registered.lines()));
        out.printf("  ClickHouse   %s  database %s, user %s, password %s (customer_totals)%n", ch.endpoint(), ch.database(),
                ch.user(), ch.password());
        out.printf("  ds-streams and the sink (group %s) run in containers; their logs: target/stand-logs/%n",
                RunNames.SINK_GROUP);
        out.printf("  Ports published on %s only%s%n", HostPorts.listenAddress(), HostPorts.LOOPBACK.equals(HostPorts.listenAddress())
                ? ": reachable from this machine, not from a network (--listen ADDRESS for more)" : "");
        out.printf("Try:%n");
        out.printf("  docker exec -it -e PGPASSWORD=%s %s psql -h localhost -U %s %s -c \"INSERT INTO orders (customer_id, amount) "
                + "VALUES (7, 12.50)\"%n", stand.pgPassword(), pg, stand.pgUser(), stand.sourceDatabase());
        out.printf("  docker exec -it %s /opt/kafka/bin/kafka-console-consumer.sh --bootstrap-server %s --topic %s "
                + "--from-beginning --isolation-level read_committed --property print.key=true%n", kafka, stand.kafkaOnNetwork(), RunNames.CUSTOMER_TOTALS);
        out.printf("  docker exec -it %s clickhouse-client --user %s --password %s -d %s -q \"SELECT * FROM customer_totals "
                + "FINAL ORDER BY customer_id\"%n", clickhouse, ch.user(), ch.password(), ch.database());
        out.flush();
    }

    /**
     * Writes the stand's endpoints as an external stand's properties file (docs/stand.md "An existing stand"), each
     * password in a file of its own beside it, readable by its owner only; with a SASL listener ({@code --kafka-sasl})
     * Kafka's endpoint is that listener, and its client properties are such a file too.
     */
    static void writeEndpoints(Stand stand, Path file) throws IOException {
        ClickHouseTarget ch = stand.clickhouseTarget();
        Path pgPassword = secret(file, "pg-password", stand.pgPassword());
        Path chPassword = secret(file, "clickhouse-password", ch.password());
        Optional<SaslListener> sasl = stand.kafka().sasl();
        String kafka = sasl.isEmpty() ? "kafka.bootstrap.servers=" + stand.bootstrapServers()
                : "kafka.bootstrap.servers=" + stand.kafka().saslBootstrapServers() + "\nkafka.client.properties="
                        + secret(file, "kafka-client.properties", sasl.get().clientProperties());
        Files.writeString(file, String.join("\n",
                "# the endpoints of a stand `seams stand up` brought up, for -Dseams.stand=external (docs/stand.md)",
                "postgres.url=" + stand.pgJdbcUrl("postgres"),
                "postgres.user=" + stand.pgUser(),
                "postgres.password.file=" + pgPassword,
                "postgres.from.connect=postgres:5432",
                kafka,
                "connect.url=" + stand.connect().getTarget(),
                "clickhouse.url=" + ch.endpoint(),
                "clickhouse.user=" + ch.user(),
                "clickhouse.password.file=" + chPassword, ""));
    }

    private static Path secret(Path file, String suffix, String value) throws IOException {
        Path path = file.resolveSibling(file.getFileName() + "." + suffix).toAbsolutePath();
        Files.deleteIfExists(path);
        Files.createFile(path, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Files.writeString(path, value);
        return path;
    }

    /** Seeds, then waits until ClickHouse's totals equal PostgreSQL's; says so on stderr if not, and the stand stays up. */
    private void seed(Stand stand) {
        try (Connection c = stand.pg()) {
            OrderSeeder.seed(c, seed, customers, 42);
        } catch (SQLException e) {
            System.err.println("seams stand up: PostgreSQL refused the seeded orders (SQLSTATE " + e.getSQLState()
                    + "): " + e.getMessage());
            return;
        }
        long t0 = System.nanoTime();
        try {
            Awaitility.await("customer_totals FINAL equals PostgreSQL's totals").atMost(seedTimeout)
                    .pollInterval(Duration.ofMillis(500)).ignoreExceptions()
                    .until(() -> Reconciliation.customerTotalsFinal(stand).matches());
        } catch (ConditionTimeoutException e) {
            System.err.printf("seams stand up: after %s customer_totals FINAL still differs from PostgreSQL's totals "
                    + "(%s); the stand stays up: look at target/stand-logs/%n", seedTimeout, differences(stand));
            return;
        }
        out.printf("Seeded %d orders (customers 1..%d): customer_totals FINAL equals PostgreSQL's totals after %.1f s%n",
                seed, customers, (System.nanoTime() - t0) / 1e9);
    }

    private static String differences(Stand stand) {
        try {
            return Reconciliation.customerTotalsFinal(stand).describe();
        } catch (RuntimeException e) {
            return "not read: " + e.getMessage();
        }
    }
}
