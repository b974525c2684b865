package dev.seams.cli;

import dev.seams.cli.options.KafkaConnection;
import dev.seams.cli.options.Membership;
import dev.seams.cli.options.PgLogin;
import dev.seams.cli.options.RunWindowOptions;
import dev.seams.consumer.GroupMembership;
import dev.seams.consumer.KafkaSource;
import dev.seams.consumer.RunStoppedException;
import dev.seams.consumer.RunWindow;
import dev.seams.inbox.CrashPoint;
import dev.seams.inbox.CrashSwitch;
import dev.seams.inbox.InboxFaults;
import dev.seams.inbox.InboxMode;
import dev.seams.inbox.InboxOptions;
import dev.seams.inbox.InboxSink;
import dev.seams.inbox.InboxSummary;
import dev.seams.inbox.InboxTarget;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code seams inbox}: sink mode inbox, exactly-once from {@code orders.events} into PostgreSQL —
 * every INSERT, UPDATE and DELETE recorded once, consumed offsets stored in the same transaction,
 * a processed-keys table against upstream re-sends ({@link InboxSink}; claim B4, seed 001). Ends with
 * the summary line {@code inbox: records=... (mode=..., commit-size=..., keep=...)}.
 *
 * <p>Exit status ({@link ExitStatus}; docs/sink.md, "Error classes and exit statuses"): 0 after a clean run; 1 if the run
 * ended with a poll whose database transaction had not succeeded after retriable failures (the next
 * run re-reads it); 2 for an invalid command line; 3 at a record that is not an order event (nothing
 * of its poll committed); 4 at a fatal Kafka error; 5 at a permanent database error (data exception,
 * constraint violation, undefined table, privilege, authentication), the poll's position on stderr;
 * 70 at an unexpected error; 137 when the fault-injection switch {@code --crash-at} fired.
 */
@Command(name = "inbox", mixinStandardHelpOptions = true, versionProvider = BuildVersion.class, sortOptions = false,
        description = "Sink mode inbox: orders.events into PostgreSQL order_ledger exactly-once, "
                + "via stored offsets and a processed-keys table in the same transaction (or --mode plain: at-least-once).",
        footer = {"", "Exit status: 0 clean run; 1 a poll left uncommitted after retriable failures;",
            "2 usage error; 3 a record that is not an order event; 4 fatal Kafka error;",
            "5 permanent database error (position printed); 69 the cluster did not answer", "(nothing read); 70 unexpected error;",
            "137 --crash-at fired."})
public final class InboxCommand implements Callable<Integer> {

    /** Exit status for a record that is not an order event ({@link ExitStatus#UNPROCESSABLE_RECORD}). */
    public static final int UNPROCESSABLE_EXIT = ExitStatus.UNPROCESSABLE_RECORD;

    @Mixin
    KafkaConnection kafka = new KafkaConnection();

    @Option(names = "--jdbc-url", required = true,
            description = "target database, e.g. jdbc:postgresql://localhost:5432/ledger?currentSchema=inbox")
    String jdbcUrl;

    @Mixin
    PgLogin login = new PgLogin();

    @Option(names = "--topic", defaultValue = InboxOptions.DEFAULT_TOPIC, description = "topic of order events to consume (default: ${DEFAULT-VALUE})")
    String topic;

    @Option(names = "--group", defaultValue = InboxOptions.DEFAULT_GROUP, description = "consumer group (default: ${DEFAULT-VALUE})")
    String group;

    @Option(names = "--mode", defaultValue = "inbox", description = "inbox (exactly-once) | plain (at-least-once twin) (default: ${DEFAULT-VALUE})")
    String mode;

    @Option(names = "--commit-size", defaultValue = "" + InboxOptions.DEFAULT_COMMIT_SIZE,
            description = "records per poll and per database transaction (default: ${DEFAULT-VALUE})")
    int commitSize;

    @Option(names = "--keep-factor", defaultValue = "" + InboxOptions.DEFAULT_KEEP_FACTOR,
            description = "the keys table keeps the keys of the keep-factor x commit-size newest changes "
                    + "by source LSN (default: ${DEFAULT-VALUE})")
    int keepFactor;

    @Mixin
    RunWindowOptions runWindow = new RunWindowOptions();

    @Option(names = "--isolation", defaultValue = "read_committed", description = "read_committed | read_uncommitted (default: ${DEFAULT-VALUE})")
    String isolation;

    @Mixin
    Membership membership = new Membership();

    @ArgGroup(exclusive = false, heading = "%nFault injection (TEST ONLY: never in production):%n")
    FaultInjection faults = new FaultInjection();

    /** The environment the password is read from; tests replace it. */
    Map<String, String> env = System.getenv();

    /** The options that break the sink on purpose, for the claim tests (B4) and their negative controls. */
    static final class FaultInjection {
        @Option(names = "--crash-at", description = "die by SIGKILL (exit 137) at mid-transaction | after-db-commit | "
                + "after-offset-commit of poll --crash-after-polls")
        String crashAt;

        @Option(names = "--crash-after-polls", defaultValue = "0",
                description = "the 1-based non-empty poll (re-reads included) at which --crash-at fires")
        long crashAfterPolls;

        @Option(names = "--key-by-order-id", description = "key the processed-keys table by the order id (the seed's "
                + "natural key), which takes an UPDATE for a repeat (B4's negative control)")
        boolean keyByOrderId;
    }

    /** Creates the command; picocli fills the options. */
    public InboxCommand() {
    }

    /**
     * @return the run's settings from the options
     * @throws IllegalArgumentException for an invalid option value (exit status 2 through {@link SeamsCli})
     */
    InboxOptions options() {
        RunWindow window = runWindow.window();
        CrashSwitch crash = new CrashSwitch(faults.crashAt == null ? null : CrashPoint.fromCliName(faults.crashAt),
                faults.crashAfterPolls);
        return new InboxOptions(new KafkaSource(kafka.bootstrapServers(), topic, isolation, kafka.clientConfig()),
                new GroupMembership(group, membership.instanceId(), membership.sessionTimeout()), window,
                new InboxTarget(jdbcUrl, login.user(), login.password(env)), InboxMode.fromCliName(mode), commitSize,
                keepFactor, new InboxFaults(crash, faults.keyByOrderId));
    }

    /**
     * Runs the inbox sink once and prints its summary line (stdout) and, if it stopped, why (stderr).
     *
     * @return the exit status (see the class comment)
     * @throws IllegalArgumentException for an invalid option value
     */
    @Override
    public Integer call() {
        InboxSink sink = new InboxSink(options());
        InboxSummary summary;
        try {
            summary = sink.run();
        } catch (RunStoppedException e) {
            System.out.println(sink.summary().line());
            System.err.println("inbox: stopped: " + e.getMessage());
            return ExitStatus.of(e.stop());
        }
        System.out.println(summary.line());
        return summary.uncommitted() > 0 ? ExitStatus.UNCOMMITTED : ExitStatus.OK;
    }
}
