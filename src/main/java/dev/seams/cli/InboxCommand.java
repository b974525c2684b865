package dev.seams.cli;

import dev.seams.inbox.CrashPoint;
import dev.seams.inbox.CrashSwitch;
import dev.seams.inbox.InboxMode;
import dev.seams.inbox.InboxOptions;
import dev.seams.inbox.InboxSink;
import dev.seams.inbox.InboxSummary;
import dev.seams.inbox.UnprocessableRecordException;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code seams inbox}: sink mode inbox, exactly-once from {@code orders.events} into PostgreSQL
 * through a processed-keys table committed in the same transaction ({@link InboxSink}; claim B4,
 * seed 001). Ends with the summary line {@code inbox: records=... (mode=..., commit-size=..., keep=...)}.
 *
 * <p>Exit status: 0 after a clean run; 1 if the run ended with a poll whose database transaction
 * had not succeeded (the next run re-reads it); 3 at a record that is not an order event (nothing
 * of its poll committed); 137 when the test-only {@code --crash-at} switch fired.
 */
@Command(name = "inbox", mixinStandardHelpOptions = true,
        description = "Sink mode inbox: orders.events into PostgreSQL order_ledger exactly-once, "
                + "via a processed-keys table in the same transaction (or --mode plain: at-least-once).")
public final class InboxCommand implements Callable<Integer> {

    /** Exit status for a record that is not an order event. */
    public static final int UNPROCESSABLE_EXIT = 3;

    @Option(names = "--bootstrap-servers", required = true, description = "Kafka bootstrap servers")
    String bootstrapServers;

    @Option(names = "--jdbc-url", required = true,
            description = "target database, e.g. jdbc:postgresql://localhost:5432/ledger?currentSchema=inbox")
    String jdbcUrl;

    @Option(names = "--user", defaultValue = "test")
    String user;

    @Option(names = "--password", defaultValue = "test")
    String password;

    @Option(names = "--topic", defaultValue = InboxOptions.DEFAULT_TOPIC)
    String topic;

    @Option(names = "--group", defaultValue = InboxOptions.DEFAULT_GROUP, description = "consumer group")
    String group;

    @Option(names = "--mode", defaultValue = "inbox", description = "inbox (exactly-once) | plain (at-least-once twin)")
    String mode;

    @Option(names = "--commit-size", defaultValue = "" + InboxOptions.DEFAULT_COMMIT_SIZE,
            description = "records per poll and per database transaction (default: ${DEFAULT-VALUE})")
    int commitSize;

    @Option(names = "--keep-factor", defaultValue = "" + InboxOptions.DEFAULT_KEEP_FACTOR,
            description = "the keys table keeps keep-factor x commit-size newest keys (default: ${DEFAULT-VALUE})")
    int keepFactor;

    @Option(names = "--for", converter = HumanDuration.class, description = "run this long, e.g. 15s")
    Duration runFor;

    @Option(names = "--until-idle", converter = HumanDuration.class,
            description = "stop after this long with nothing to read, e.g. 5s (default 5s)")
    Duration untilIdle;

    @Option(names = "--isolation", defaultValue = "read_committed", description = "read_committed | read_uncommitted")
    String isolation;

    @Option(names = "--instance-id", description = "static group membership (group.instance.id): a restart takes "
            + "the partitions back at once")
    String instanceId;

    @Option(names = "--session-timeout", converter = HumanDuration.class,
            description = "consumer session timeout, e.g. 10s (Kafka's default 45s)")
    Duration sessionTimeout;

    @Option(names = "--crash-at", description = "TEST ONLY: die by SIGKILL at mid-transaction | after-db-commit | "
            + "after-offset-commit of poll --crash-after-polls")
    String crashAt;

    @Option(names = "--crash-after-polls", defaultValue = "0",
            description = "TEST ONLY: the 1-based non-empty poll (re-reads included) at which --crash-at fires")
    long crashAfterPolls;

    /** Creates the command; picocli fills the options. */
    public InboxCommand() {
    }

    /**
     * Runs the inbox sink once and prints its summary line.
     *
     * @return 0, 1 (a poll left uncommitted after a failed transaction) or {@value #UNPROCESSABLE_EXIT}
     * @throws SQLException             if the target database cannot be reached at the start
     * @throws IllegalArgumentException for an invalid option value
     */
    @Override
    public Integer call() throws SQLException {
        Duration idle = runFor == null && untilIdle == null ? Duration.ofSeconds(5) : untilIdle;
        CrashSwitch crash = new CrashSwitch(crashAt == null ? null : CrashPoint.fromCliName(crashAt), crashAfterPolls);
        InboxOptions options = new InboxOptions(bootstrapServers, jdbcUrl, user, password, topic, group,
                InboxMode.fromCliName(mode), commitSize, keepFactor, runFor, idle, isolation, instanceId,
                sessionTimeout, crash);
        InboxSummary summary;
        try {
            summary = new InboxSink(options).run();
        } catch (UnprocessableRecordException e) {
            System.err.println("inbox: stopped: " + e.getMessage());
            return UNPROCESSABLE_EXIT;
        }
        System.out.println(summary.line());
        return summary.uncommitted() > 0 ? 1 : 0;
    }
}
