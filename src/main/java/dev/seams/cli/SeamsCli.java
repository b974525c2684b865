package dev.seams.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine;

/**
 * {@code seams}: the command line of the pipeline's own processes —
 * {@code seams streams} (Kafka Streams, ds-streams), {@code seams sink} (Kafka → ClickHouse),
 * {@code seams seed} (deterministic orders into PostgreSQL), {@code seams lag} (consumer group lag),
 * {@code seams inbox} (sink mode inbox: exactly-once into PostgreSQL, claim B4),
 * {@code seams compare} (what changed between two guarantees.json reports, claim B7),
 * {@code seams reconcile} (the deletes a re-snapshot after a lost slot cannot carry, claim B14),
 * {@code seams slot} (the replication slot's health, claim B14).
 * An invalid option value (an {@link IllegalArgumentException} from a command) prints its message
 * and the usage and exits with {@value ExitStatus#USAGE}, like a syntax error; any other exception prints its stack
 * trace and exits with {@value ExitStatus#UNEXPECTED}, never with a status that names an outcome ({@link ExitStatus}).
 */
@Command(name = "seams", mixinStandardHelpOptions = true, versionProvider = BuildVersion.class,
        subcommands = {StreamsCommand.class, SinkCommand.class, SeedCommand.class, LagCommand.class,
            InboxCommand.class, CompareCommand.class, ReconcileCommand.class, SlotCommand.class},
        description = "The CDC pipeline's stream processor, sink and seeder.",
        footer = {"", "Exit status: each command's own, listed in its --help; for every command",
            "0 success, 2 usage error (an unknown command or option, a missing or invalid",
            "value), 70 unexpected error.",
            "", "bin/seams stand up: the suite's stand brought up to explore (docs/stand.md; its own --help)."})
public final class SeamsCli {

    private SeamsCli() {
    }

    /** Runs a subcommand and exits with its status. */
    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    /**
     * @return the command line of {@code seams}, with invalid option values mapped to {@value ExitStatus#USAGE} and
     *     unexpected exceptions to {@value ExitStatus#UNEXPECTED}
     */
    public static CommandLine commandLine() {
        CommandLine cli = new CommandLine(new SeamsCli());
        cli.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
            if (e instanceof IllegalArgumentException) {
                commandLine.getErr().println(commandLine.getColorScheme().errorText(e.getMessage()));
                commandLine.usage(commandLine.getErr());
                return ExitStatus.USAGE;
            }
            e.printStackTrace(commandLine.getErr());
            return ExitStatus.UNEXPECTED;
        });
        return cli;
    }
}
