package dev.seams.cli;

import dev.seams.cli.options.HumanDuration;
import dev.seams.cli.options.KafkaConnection;
import dev.seams.cli.options.Membership;
import dev.seams.cli.options.RunWindowOptions;
import dev.seams.cli.options.Secrets;
import dev.seams.consumer.GroupMembership;
import dev.seams.consumer.KafkaSource;
import dev.seams.consumer.RunStoppedException;
import dev.seams.consumer.RunWindow;
import dev.seams.sink.Batching;
import dev.seams.sink.ClickHouseTarget;
import dev.seams.sink.CustomerRange;
import dev.seams.sink.Rejects;
import dev.seams.sink.Sink;
import dev.seams.sink.SinkCrash;
import dev.seams.sink.SinkFaults;
import dev.seams.sink.SinkMode;
import dev.seams.sink.SinkOptions;
import dev.seams.sink.SinkSummary;
import dev.seams.sink.TotalsValidator;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code seams sink}: one sink run, ending with the summary line (docs/sink.md).
 * Rejected records go to {@code --dlq-topic} (claims G10, G11) and do not change the exit status.
 *
 * <p>Exit status ({@link ExitStatus}; docs/sink.md, "Error classes and exit statuses"): 0 after a clean run; 1 if the run
 * window ended with a batch not committed after retriable failures (its records are re-read by the
 * next run); 2 for an invalid command line; 4 at a fatal Kafka error (authorization, unknown topic,
 * invalid offset configuration, fenced {@code --instance-id}); 5 at a permanent write error
 * (ClickHouse: unknown table or column, type mismatch, value out of range, authentication; or the
 * dead-letter topic refusing a record), with the batch's position on stderr and nothing committed; 10 when a
 * value the source legitimately holds does not fit its ClickHouse column without rounding (claim B15: the record, the
 * column and the ALTER that widens it on stderr, nothing of the batch written or committed); 69 when the cluster did
 * not answer for the topic's partitions at start (nothing read; {@link ExitStatus#UNAVAILABLE}); 70 at an
 * unexpected error ({@link ExitStatus#UNEXPECTED}).
 *
 * <p>SIGTERM (a graceful stop: {@code docker stop}, Kubernetes) ends the run as {@link Sink#stop()} does: the
 * batch in hand is written and committed, the closing commits are sent, the summary line printed; the JVM
 * waits at most {@link #SHUTDOWN_WAIT} for it (a batch whose write keeps failing is re-read by the next run).
 */
@Command(name = "sink", mixinStandardHelpOptions = true, versionProvider = BuildVersion.class, sortOptions = false,
        description = "Consume customer.totals (or orders.events) into ClickHouse, at-least-once.",
        footer = {"", "Exit status: 0 clean run; 1 a batch left uncommitted after retriable failures;",
            "2 usage error; 4 fatal Kafka error; 5 permanent write error (position printed);",
            "10 a value does not fit its ClickHouse column without rounding (the ALTER to run printed);",
            "69 the cluster did not answer (nothing read); 70 unexpected error."})
public final class SinkCommand implements Callable<Integer> {

    /** How long a SIGTERM waits for the run to finish its batch in hand and its closing commits. */
    public static final Duration SHUTDOWN_WAIT = Duration.ofSeconds(20);

    @Mixin
    KafkaConnection kafka = new KafkaConnection();

    @Option(names = "--clickhouse", defaultValue = "http://localhost:8123", description = "ClickHouse HTTP endpoint (default: ${DEFAULT-VALUE})")
    String clickhouse;

    @Option(names = "--clickhouse-user", defaultValue = "default", description = "ClickHouse user (default: ${DEFAULT-VALUE})")
    String clickhouseUser;

    @Option(names = "--clickhouse-password", description = "ClickHouse password (visible to ps: prefer "
            + "--clickhouse-password-file or " + Secrets.CLICKHOUSE_ENV + "; default empty)")
    String clickhousePassword;

    @Option(names = "--clickhouse-password-file", description = "file holding the ClickHouse password")
    Path clickhousePasswordFile;

    @Option(names = "--clickhouse-database", defaultValue = "default", description = "database of the target tables (default: ${DEFAULT-VALUE})")
    String clickhouseDatabase;

    @Option(names = "--clickhouse-timeout", converter = HumanDuration.class, defaultValue = "30s",
            description = "connect and response timeout of one ClickHouse request; a server frozen longer is "
                    + "retried (default: ${DEFAULT-VALUE})")
    Duration clickhouseTimeout;

    @Option(names = "--mode", defaultValue = "totals", description = "totals | dedup-demo (default: ${DEFAULT-VALUE})")
    String mode;

    @Option(names = "--group", defaultValue = SinkOptions.DEFAULT_GROUP, description = "consumer group (default: ${DEFAULT-VALUE})")
    String group;

    @Option(names = "--topic", description = "topic to consume, in the mode's record shape (default: the mode's, "
            + "customer.totals or orders.events)")
    String topic;

    @Option(names = "--batch-rows", defaultValue = "0", description = "gather polls until this many records, then "
            + "insert them at once; offsets committed after that insert (default: 0, every poll its own insert)")
    int batchRows;

    @Option(names = "--batch-wait", converter = HumanDuration.class, description = "with --batch-rows: the longest "
            + "a gathered record waits for its insert, e.g. 500ms (default: 1s); the freshness batching costs")
    Duration batchWait;

    @Option(names = "--commit-interval", converter = HumanDuration.class, defaultValue = "500ms", description = "while "
            + "polls come back full (a backlog), commit written batches' offsets together at most this often (fewer "
            + "OffsetCommit requests); a crash then re-reads up to this much written data; once caught up, each batch's "
            + "at once; 0s: every batch's at once (default: ${DEFAULT-VALUE})")
    Duration commitInterval;

    @Mixin
    Membership membership = new Membership();

    @Option(names = "--from-start", description = "read from the earliest offsets")
    boolean fromStart;

    @Mixin
    RunWindowOptions runWindow = new RunWindowOptions();

    @Option(names = "--isolation", defaultValue = "read_committed", description = "read_committed | read_uncommitted (default: ${DEFAULT-VALUE})")
    String isolation;

    @Option(names = "--customers", description = "opt-in rule: accept only these customer ids, e.g. 1..5 (default: all)")
    String customers;

    @Option(names = "--dlq-topic", description = "where rejected records go (default: <topic>.dlq, e.g. customer.totals.dlq)")
    String dlqTopic;

    @Option(names = "--max-value-bytes", defaultValue = "" + TotalsValidator.DEFAULT_MAX_VALUE_BYTES,
            description = "largest accepted customer.totals value in bytes (default: ${DEFAULT-VALUE})")
    int maxValueBytes;

    @ArgGroup(exclusive = false, heading = "%nFault injection (TEST ONLY: never in production):%n")
    FaultInjection faults = new FaultInjection();

    /** The environment passwords are read from; tests replace it. */
    Map<String, String> env = System.getenv();

    private SinkSummary summary;
    private String stopped;

    /** The options that break the sink's guarantees on purpose, for negative controls. */
    static final class FaultInjection {
        @Option(names = "--dup", description = "insert every record twice (the source's -dup; claim G2's control)")
        boolean dup;

        @Option(names = "--crash-at", description = "after-insert | mid-insert: once --crash-trigger exists, stop at this "
                + "point of the next batch (prints 'sink: crash at POINT: ...') and wait to be killed (claim B5)")
        String crashAt;

        @Option(names = "--crash-trigger", description = "with --crash-at: the file whose appearance arms it (deleted when "
                + "it fires)")
        Path crashTrigger;

        SinkCrash crash() {
            return new SinkCrash(crashAt == null ? null : SinkCrash.Point.fromCliName(crashAt), crashTrigger);
        }
    }

    /** Creates the command; picocli fills the options. */
    public SinkCommand() {
    }

    /** @return the summary of the last {@link #call()}, or null before one ended (for callers that embed the command) */
    public SinkSummary summary() {
        return summary;
    }

    /**
     * @return why the last {@link #call()} stopped, as printed on stderr after {@code sink: stopped: }; null if it
     *     did not stop (for callers that embed the command)
     */
    public String stopped() {
        return stopped;
    }

    /**
     * @return the run's settings from the options
     * @throws IllegalArgumentException for an invalid option value (exit status 2 through {@link SeamsCli})
     */
    SinkOptions options() {
        RunWindow window = runWindow.window();
        SinkMode sinkMode = SinkMode.fromCliName(mode);
        String password = Secrets.resolve(clickhousePassword, clickhousePasswordFile, Secrets.CLICKHOUSE_ENV, env, "");
        KafkaSource source = new KafkaSource(kafka.bootstrapServers(), topic == null ? sinkMode.topic() : topic, isolation,
                kafka.clientConfig());
        Rejects rejects = new Rejects(customers == null ? null : CustomerRange.parse(customers),
                dlqTopic == null ? SinkOptions.defaultDlqTopic(sinkMode) : dlqTopic, maxValueBytes);
        Batching batching = batchRows == 0 ? Batching.PER_POLL
                : new Batching(batchRows, batchWait == null ? Batching.DEFAULT_WAIT : batchWait);
        return new SinkOptions(source, new GroupMembership(group, membership.instanceId(), membership.sessionTimeout()),
                window, fromStart, sinkMode,
                new ClickHouseTarget(clickhouse, clickhouseUser, password, clickhouseDatabase, clickhouseTimeout),
                rejects, batching, commitInterval, SinkFaults.NONE.withDup(faults.dup));
    }

    /**
     * Runs the sink once and prints its summary line (stdout) and, if it stopped, why (stderr).
     *
     * @return the exit status (see the class comment)
     * @throws IllegalArgumentException for an invalid option value
     */
    @Override
    public Integer call() {
        Sink sink = new Sink(options()).withCrash(faults.crash());
        CountDownLatch ended = new CountDownLatch(1);
        Thread onSigterm = new Thread(() -> {
            sink.stop();
            try {
                ended.await(SHUTDOWN_WAIT.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "sink-shutdown");
        Runtime.getRuntime().addShutdownHook(onSigterm);
        try {
            return runOnce(sink);
        } finally {
            ended.countDown();
            try {
                Runtime.getRuntime().removeShutdownHook(onSigterm);
            } catch (IllegalStateException shuttingDown) {
                // the JVM is exiting: the hook has run or runs now, and finds the run ended
            }
        }
    }

    private int runOnce(Sink sink) {
        try {
            summary = sink.run();
        } catch (RunStoppedException e) {
            summary = sink.summary();
            stopped = e.getMessage();
            System.out.println(summary.line());
            System.err.println("sink: stopped: " + stopped);
            return ExitStatus.of(e.stop());
        }
        System.out.println(summary.line());
        return summary.uncommitted() > 0 ? ExitStatus.UNCOMMITTED : ExitStatus.OK;
    }
}
