package dev.seams.stand;

import dev.seams.cli.SinkCommand;
import dev.seams.sink.ClickHouseTarget;
import dev.seams.sink.SinkSummary;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;

/**
 * One run of {@code seams sink} through its command line, as an operator runs it, in this JVM against the stand
 * (mode totals, the stand's ClickHouse database): what a supervisor sees of it.
 *
 * @param exitStatus the exit status ({@link dev.seams.cli.ExitStatus}; docs/sink.md)
 * @param summary    the summary line's counts
 * @param stopped    what it printed after {@code sink: stopped: } on stderr, or null if it did not stop
 */
public record SinkCli(int exitStatus, SinkSummary summary, String stopped) {

    /**
     * @param stand the running stand
     * @param extra further options, e.g. {@code --until-caught-up}
     * @return how the run ended
     */
    public static SinkCli run(Stand stand, String... extra) {
        ClickHouseTarget ch = stand.clickhouseTarget();
        List<String> args = new ArrayList<>(List.of("--bootstrap-servers", stand.bootstrapServers(),
                "--clickhouse", ch.endpoint(), "--clickhouse-user", ch.user(), "--clickhouse-password", ch.password(),
                "--clickhouse-database", ch.database(), "--mode", "totals"));
        args.addAll(List.of(extra));
        SinkCommand command = new SinkCommand();
        int status = new CommandLine(command).execute(args.toArray(String[]::new));
        return new SinkCli(status, command.summary(), command.stopped());
    }
}
