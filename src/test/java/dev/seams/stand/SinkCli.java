package dev.seams.stand;

import dev.seams.cli.ExitStatus;
import dev.seams.cli.SinkCommand;
import dev.seams.sink.ClickHouseTarget;
import dev.seams.sink.SinkMode;
import dev.seams.sink.SinkSummary;
import dev.seams.truth.ClickHouse;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;

/**
 * One run of {@code seams sink} through its command line, as an operator runs it, in this JVM against the stand
 * (the stand's ClickHouse database): what a supervisor sees of it.
 *
 * @param exitStatus the exit status ({@link dev.seams.cli.ExitStatus}; docs/sink.md)
 * @param summary    the summary line's counts
 * @param stopped    what it printed after {@code sink: stopped: } on stderr, or null if it did not stop
 */
public record SinkCli(int exitStatus, SinkSummary summary, String stopped) {

    /** The ALTER a stop on a value its column cannot hold prints (exit status 10; docs/sink.md, claim B15). */
    public static final Pattern ALTER = Pattern.compile("ALTER TABLE \\S+ MODIFY COLUMN \\S+ Decimal\\(\\d+, \\d+\\)");

    /**
     * @param stand the running stand
     * @param mode  the sink's mode ({@code --mode})
     * @param extra further options, e.g. {@code --until-caught-up}
     * @return how the run ended
     */
    public static SinkCli run(Stand stand, SinkMode mode, String... extra) {
        ClickHouseTarget ch = stand.clickhouseTarget();
        List<String> args = new ArrayList<>(List.of("--bootstrap-servers", stand.bootstrapServers(),
                "--clickhouse", ch.endpoint(), "--clickhouse-user", ch.user(), "--clickhouse-password", ch.password(),
                "--clickhouse-database", ch.database(), "--mode", mode.cliName()));
        args.addAll(List.of(extra));
        SinkCommand command = new SinkCommand();
        int status = new CommandLine(command).execute(args.toArray(String[]::new));
        return new SinkCli(status, command.summary(), command.stopped());
    }

    /**
     * What an operator does with a sink that stopped on a value its column cannot hold (claim B15; docs/sink.md): runs
     * the ALTER the stop printed and the sink again, until the sink no longer stops so or {@code maxAlters} ALTERs ran.
     *
     * @param first     the run that may have stopped
     * @param runAlter  runs one printed ALTER against ClickHouse
     * @param again     runs the sink again
     * @param maxAlters the most ALTERs to run
     * @return the last run and the ALTERs run, in order
     */
    public static Widened widenUntilCarried(SinkCli first, Consumer<String> runAlter, Supplier<SinkCli> again, int maxAlters) {
        List<String> alters = new ArrayList<>();
        SinkCli run = first;
        while (run.exitStatus() == ExitStatus.TARGET_TOO_NARROW && alters.size() < maxAlters) {
            Matcher alter = ALTER.matcher(String.valueOf(run.stopped()));
            if (!alter.find()) {
                break;
            }
            runAlter.accept(alter.group());
            alters.add(alter.group());
            run = again.get();
        }
        return new Widened(run, List.copyOf(alters));
    }

    /**
     * @param last   the last run of the sink
     * @param alters the ALTERs the stops printed, run in order
     */
    public record Widened(SinkCli last, List<String> alters) {
    }
}
