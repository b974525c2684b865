package dev.seams.cli;

import dev.seams.sink.ClickHouseTarget;
import dev.seams.sink.CustomerRange;
import dev.seams.sink.Sink;
import dev.seams.sink.SinkMode;
import dev.seams.sink.SinkOptions;
import dev.seams.sink.SinkSummary;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code seams sink}: one sink run, ending with the summary line (DESIGN.md "The sink").
 * Exit status 0 unless an insert failed and was not retried successfully before the run ended.
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

    @Option(names = "--for", description = "run this long, e.g. 15s")
    Duration runFor;

    @Option(names = "--until-idle", description = "stop after this long with nothing to read, e.g. 5s")
    Duration untilIdle;

    @Option(names = "--isolation", defaultValue = "read_committed", description = "read_committed | read_uncommitted")
    String isolation;

    @Option(names = "--customers", defaultValue = "1..5", description = "accepted customer ids, e.g. 1..5")
    String customers;

    @Override
    public Integer call() {
        Duration idle = runFor == null && untilIdle == null ? Duration.ofSeconds(5) : untilIdle;
        SinkOptions options = new SinkOptions(bootstrapServers,
                new ClickHouseTarget(clickhouse, clickhouseUser, clickhousePassword, clickhouseDatabase),
                SinkMode.fromCliName(mode), group, fromStart, dup, runFor, idle, isolation,
                CustomerRange.parse(customers));
        SinkSummary summary = new Sink(options).run();
        System.out.println(summary.line());
        return 0;
    }
}
