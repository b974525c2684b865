package dev.seams.cli;

import dev.seams.cli.options.KafkaConnection;
import dev.seams.cli.options.Membership;
import dev.seams.streams.StaticIdentity;
import dev.seams.streams.StreamsApp;
import dev.seams.streams.StreamsOptions;
import dev.seams.streams.StreamsSettings;
import dev.seams.wire.TopicNames;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/**
 * {@code seams streams}: the ds-streams process's command line; {@link StreamsApp} runs the topology until the JVM
 * is told to stop. Usable standalone ({@link #main(String[])}) or as the {@code streams}
 * subcommand of {@link SeamsCli}.
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
 *       {@value dev.seams.streams.ThreadReplacements#DEFAULT_MAX} times within 10 minutes; then the client shuts
 *       down with one log line saying so ({@code streams.ThreadReplacements}); with static membership (the
 *       default, {@link StaticIdentity}) the dead thread's static member is removed from the group first ({@code streams.StaticMemberRemoval}).</li>
 * </ul>
 * Exit status: 0 after a graceful shutdown, 1 if Kafka Streams went to state ERROR (e.g. a stream
 * thread kept dying), 2 for an invalid command line (or no static membership id could be read or made).
 */
@Command(name = "streams", mixinStandardHelpOptions = true, versionProvider = BuildVersion.class,
        description = "Kafka Streams app ds-streams: orders.events -> per-customer totals -> customer.totals (exactly_once_v2).",
        footer = {"", "Exit status: 0 graceful shutdown (SIGTERM or SIGINT);",
            "1 Kafka Streams reached state ERROR (e.g. a stream thread kept dying);",
            "2 usage error (or no static membership id could be read or made);", "70 unexpected error."})
public class StreamsCommand implements Callable<Integer> {

    private static final Logger log = LoggerFactory.getLogger(StreamsCommand.class);

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

    @Option(names = "--topic-prefix", defaultValue = "", paramLabel = "PREFIX",
            description = "put before every topic it reads and writes (orders.events, orders.events.dlq, customer.totals): "
                    + "an isolated run on a shared cluster (default: none, the shipped names).")
    String topicPrefix;

    @Mixin
    Membership membership = new Membership();

    @Option(names = "--dynamic-membership", description = "dynamic group membership instead of the default static one. "
            + "Default: static, with --instance-id or else an id kept in the state directory (<application id>"
            + StaticIdentity.SUFFIX + "), so that a restarted process takes its partitions back at once (claim B9).")
    boolean dynamicMembership;

    /** Creates the command; picocli fills the options. */
    public StreamsCommand() {
    }

    /**
     * Runs the app from the command line and exits the JVM with {@link #call()}'s code
     * (2 for invalid options, picocli's usage error code).
     *
     * @param args {@code --bootstrap-servers HOST:PORT [--kafka-config FILE] --state-dir DIR [--application-id ID] [--topic-prefix P] [--cache-max-bytes N]
     *             [--instance-id ID | --dynamic-membership] [--session-timeout 10s]}
     */
    public static void main(String[] args) {
        System.exit(new CommandLine(new StreamsCommand()).execute(args));
    }

    /**
     * Starts Kafka Streams and blocks until it has been closed (shutdown hook) or failed ({@link StreamsApp#run}).
     *
     * @return 0 after a graceful shutdown, 1 if Kafka Streams reached state ERROR, 2 if {@code --instance-id} and
     *     {@code --dynamic-membership} were both given, the state directory's id cannot be read or made, or the topic
     *     prefix holds a character Kafka refuses
     * @throws InterruptedException if interrupted while waiting
     */
    @Override
    public Integer call() throws InterruptedException {
        String instanceId;
        TopicNames topics;
        try {
            instanceId = StaticIdentity.resolve(stateDir, applicationId, membership.instanceId(), dynamicMembership);
            topics = new TopicNames(topicPrefix);
        } catch (IllegalArgumentException | IOException e) {
            log.error("ds-streams: {}", e.getMessage());
            return 2;
        }
        StreamsOptions options = new StreamsOptions(applicationId, kafka.bootstrapServers(), stateDir, cacheMaxBytes,
                instanceId, membership.sessionTimeout(), kafka.clientConfig(), topics);
        return StreamsApp.run(options);
    }
}
