package dev.seams.cli;

import dev.seams.sink.ClickHouseTarget;
import dev.seams.sink.CustomerRange;
import dev.seams.sink.Sink;
import dev.seams.sink.SinkMode;
import dev.seams.sink.SinkOptions;
import dev.seams.sink.SinkSummary;
import dev.seams.sink.TotalsValidator;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code seams sink}: one sink run, ending with the summary line (DESIGN.md "The sink").
 * Exit status 0 unless a batch's insert or dead-letter write failed and had not been retried
 * successfully when the run ended (then 1; its records are re-read by the next run). Rejected
 * records go to {@code --dlq-topic} (claims G10, G11) and do not change the exit status.
 */
@Command(name = "sink", mixinStandardHelpOptions = true,
        description = "Consume customer.totals (or orders.events) into ClickHouse, at-least-once.")
public final class SinkCommand implements Callable<Integer> {

    @Option(names = "--bootstrap-servers", required = true, description = "Kafka bootstrap servers")
    String bootstrapServers;

    @Option(names = "--clickhouse", defaultValue = "http://localhost:8123", description = "ClickHouse HTTP endpoint")
    String clickhouse;

    @Option(names = "--clickhouse-user", defaultValue = "default")
    String clickhouseUser;

    @Option(names = "--clickhouse-password", defaultValue = "")
    String clickhousePassword;

    @Option(names = "--clickhouse-database", defaultValue = "default")
    String clickhouseDatabase;

    @Option(names = "--mode", defaultValue = "totals", description = "totals | dedup-demo")
    String mode;

    @Option(names = "--group", defaultValue = SinkOptions.DEFAULT_GROUP, description = "consumer group")
    String group;

    @Option(names = "--from-start", description = "read from the earliest offsets")
    boolean fromStart;

    @Option(names = "--dup", description = "insert every record twice (the source's -dup)")
    boolean dup;

    @Option(names = "--for", converter = HumanDuration.class, description = "run this long, e.g. 15s")
    Duration runFor;

    @Option(names = "--until-idle", converter = HumanDuration.class, description = "stop after this long with nothing to read, e.g. 5s")
    Duration untilIdle;

    @Option(names = "--isolation", defaultValue = "read_committed", description = "read_committed | read_uncommitted")
    String isolation;

    @Option(names = "--customers", defaultValue = "1..5", description = "accepted customer ids, e.g. 1..5")
    String customers;

    @Option(names = "--dlq-topic", description = "where rejected records go (default: <topic>.dlq, e.g. customer.totals.dlq)")
    String dlqTopic;

    @Option(names = "--max-value-bytes", defaultValue = "" + TotalsValidator.DEFAULT_MAX_VALUE_BYTES,
            description = "largest accepted customer.totals value in bytes (default: ${DEFAULT-VALUE})")
    int maxValueBytes;

    private SinkSummary summary;

    /** Creates the command; picocli fills the options. */
    public SinkCommand() {
    }

    /** @return the summary of the last {@link #call()}, or null before one ended (for callers that embed the command) */
    public SinkSummary summary() {
        return summary;
    }

    /**
     * Runs the sink once and prints its summary line.
     *
     * @return 0, or 1 if the run ended with a batch left uncommitted after a failed insert or
     *     dead-letter write
     * @throws IllegalArgumentException for an invalid option value
     */
    @Override
    public Integer call() {
        Duration idle = runFor == null && untilIdle == null ? Duration.ofSeconds(5) : untilIdle;
        SinkMode sinkMode = SinkMode.fromCliName(mode);
        SinkOptions options = new SinkOptions(bootstrapServers,
                new ClickHouseTarget(clickhouse, clickhouseUser, clickhousePassword, clickhouseDatabase),
                sinkMode, group, fromStart, dup, runFor, idle, isolation, CustomerRange.parse(customers),
                dlqTopic == null ? SinkOptions.defaultDlqTopic(sinkMode) : dlqTopic, maxValueBytes, true);
        summary = new Sink(options).run();
        System.out.println(summary.line());
        return summary.uncommitted() > 0 ? 1 : 0;
    }
}
