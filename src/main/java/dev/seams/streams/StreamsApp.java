package dev.seams.streams;

import dev.seams.cli.options.KafkaConnection;
import dev.seams.cli.options.Membership;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiConsumer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The ds-streams process: runs {@link TotalsTopology} with {@link StreamsSettings} until the JVM
 * is told to stop. Usable standalone ({@link #main(String[])}) or as the {@code streams}
 * subcommand of a picocli CLI.
 *
 * <p>Observable behaviour the claim tests rely on (G13, G14):
 * <ul>
 *   <li>every Kafka Streams state transition prints one stdout line
 *       {@code streams state: OLD -> NEW}; the app is ready after
 *       {@code streams state: REBALANCING -> RUNNING};</li>
 *   <li>SIGTERM/SIGINT close Kafka Streams gracefully (shutdown hook, up to 30 s); SIGKILL of
 *       course does not, and a restart with the same {@code --state-dir} recovers by itself
 *       (a TaskCorruptedException, if any, is logged by Kafka Streams at org.apache.kafka.streams);</li>
 *   <li>an uncaught exception in a stream thread is logged and the thread replaced, at most
 *       {@value ThreadReplacements#DEFAULT_MAX} times within 10 minutes; then the client shuts
 *       down with one log line saying so ({@link ThreadReplacements}); with static membership (the
 *       default, {@link StaticIdentity}) the dead thread's static member is removed from the group first ({@link StaticMemberRemoval}).</li>
 * </ul>
 * Exit status: 0 after a graceful shutdown, 1 if Kafka Streams went to state ERROR (e.g. a stream
 * thread kept dying), 2 for an invalid command line (or no static membership id could be read or made).
 */
@Command(name = "streams", mixinStandardHelpOptions = true,
        description = "Kafka Streams app ds-streams: orders.events -> per-customer totals -> customer.totals (exactly_once_v2).")
public class StreamsApp implements Callable<Integer> {

    private static final Logger log = LoggerFactory.getLogger(StreamsApp.class);
    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(30);

    @Mixin
    KafkaConnection kafka = new KafkaConnection();

    @Option(names = "--state-dir", required = true, description = "Directory for local state stores; keep it across restarts.")
    Path stateDir;

    @Option(names = "--application-id", defaultValue = StreamsSettings.APPLICATION_ID,
            description = "Streams application id (default: ${DEFAULT-VALUE}).")
    String applicationId;

    @Option(names = "--cache-max-bytes", defaultValue = "0",
            description = "statestore.cache.max.bytes (default: ${DEFAULT-VALUE}: one customer.totals record per change, "
                    + "at once; a cache collapses a customer's changes within a commit interval).")
    long cacheMaxBytes;

    @Mixin
    Membership membership = new Membership();

    @Option(names = "--dynamic-membership", description = "dynamic group membership instead of the default static one. "
            + "Default: static, with --instance-id or else an id kept in the state directory (<application id>"
            + StaticIdentity.SUFFIX + "), so that a restarted process takes its partitions back at once (claim B9).")
    boolean dynamicMembership;

    /** Creates the command; picocli fills the options. */
    public StreamsApp() {
    }

    /**
     * Runs the app from the command line and exits the JVM with {@link #call()}'s code
     * (2 for invalid options, picocli's usage error code).
     *
     * @param args {@code --bootstrap-servers HOST:PORT [--kafka-config FILE] --state-dir DIR [--application-id ID] [--cache-max-bytes N]
     *             [--instance-id ID | --dynamic-membership] [--session-timeout 10s]}
     */
    public static void main(String[] args) {
        System.exit(new CommandLine(new StreamsApp()).execute(args));
    }

    /**
     * Starts Kafka Streams and blocks until it has been closed (shutdown hook) or failed.
     *
     * @return 0 after a graceful shutdown, 1 if Kafka Streams reached state ERROR, 2 if {@code --instance-id} and
     *     {@code --dynamic-membership} were both given or the state directory's id cannot be read or made
     * @throws InterruptedException if interrupted while waiting
     */
    @Override
    public Integer call() throws InterruptedException {
        String instanceId;
        try {
            instanceId = StaticIdentity.resolve(stateDir, applicationId, membership.instanceId(), dynamicMembership);
        } catch (IllegalArgumentException | IOException e) {
            log.error("ds-streams: {}", e.getMessage());
            return 2;
        }
        StreamsOptions options = new StreamsOptions(applicationId, kafka.bootstrapServers(), stateDir, cacheMaxBytes,
                instanceId, membership.sessionTimeout(), kafka.clientConfig());
        Properties props = StreamsSettings.properties(options);
        KafkaStreams streams = new KafkaStreams(TotalsTopology.build(), props);
        CountDownLatch finished = new CountDownLatch(1);
        AtomicBoolean failed = new AtomicBoolean();
        streams.setStateListener((newState, oldState) -> {
            System.out.println("streams state: " + oldState + " -> " + newState);
            if (newState == KafkaStreams.State.ERROR) {
                failed.set(true);
                finished.countDown();
            } else if (newState == KafkaStreams.State.NOT_RUNNING) {
                finished.countDown();
            }
        });
        // created up front (not on the dying thread, during the outage), with the app's own client settings
        Admin admin = options.instanceId() == null ? null
                : Admin.create(new StreamsConfig(props).getAdminConfigs(applicationId + "-member-removal"));
        BiConsumer<String, Throwable> beforeReplace = admin == null ? (name, death) -> { }
                : new StaticMemberRemoval(() -> admin, applicationId, options.instanceId());
        streams.setUncaughtExceptionHandler(new ThreadReplacements(ThreadReplacements.DEFAULT_MAX,
                ThreadReplacements.DEFAULT_WINDOW, beforeReplace));
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            log.info("shutdown requested, closing Kafka Streams");
            streams.close(CLOSE_TIMEOUT);
        }, "ds-streams-shutdown"));

        log.info("starting {}", options);
        try {
            streams.start();
            finished.await();
            streams.close(CLOSE_TIMEOUT);
        } finally {
            if (admin != null) {
                admin.close(CLOSE_TIMEOUT);
            }
        }
        return failed.get() ? 1 : 0;
    }
}
