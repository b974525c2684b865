package dev.seams.cli;

import dev.seams.cli.options.Verbosity;
import org.apache.kafka.common.errors.AuthenticationException;
import org.apache.kafka.common.errors.AuthorizationException;
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
 * A syntax error or an invalid option value (an {@link IllegalArgumentException} from a command) prints its message in
 * one line and where the help is, and exits with {@value ExitStatus#USAGE}; Kafka refusing the client (its
 * authentication or authorization failed, e.g. a wrong SASL password in {@code --kafka-config}) prints Kafka's reason
 * in one line and exits with {@value ExitStatus#FATAL_KAFKA}; any other exception prints its stack trace and exits with
 * {@value ExitStatus#UNEXPECTED}, never with a status that names an outcome ({@link ExitStatus}).
 */
@Command(name = "seams", mixinStandardHelpOptions = true, versionProvider = BuildVersion.class,
        subcommands = {StreamsCommand.class, SinkCommand.class, SeedCommand.class, LagCommand.class,
            InboxCommand.class, CompareCommand.class, ReconcileCommand.class, SlotCommand.class, CheckConfigCommand.class},
        description = "The CDC pipeline's stream processor, sink and seeder.",
        footer = {"", "Exit status: each command's own, listed in its --help; for every command",
            "0 success, 2 usage error (an unknown command or option, a missing or invalid",
            "value), 4 Kafka refused the client (authentication or authorization; the",
            "credentials of --kafka-config), 70 unexpected error.",
            "", "bin/seams stand up: the suite's stand brought up to explore (docs/stand.md; its own --help)."})
public final class SeamsCli {

    private SeamsCli() {
    }

    /** Runs a subcommand and exits with its status. */
    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    /**
     * @return the command line of {@code seams}, with invalid option values mapped to {@value ExitStatus#USAGE}, Kafka
     *     refusing the client to {@value ExitStatus#FATAL_KAFKA} and unexpected exceptions to {@value ExitStatus#UNEXPECTED}
     */
    public static CommandLine commandLine() {
        CommandLine cli = new CommandLine(new SeamsCli());
        cli.setParameterExceptionHandler((e, args) -> {
            int status = usageError(e.getCommandLine(), e.getMessage());
            if (e instanceof CommandLine.UnmatchedArgumentException unmatched) {   // "Did you mean: seams lag?"
                CommandLine.UnmatchedArgumentException.printSuggestions(unmatched, e.getCommandLine().getErr());
            }
            return status;
        });
        cli.setExecutionStrategy(parseResult -> {   // a one-shot command logs warnings and errors only (Verbosity)
            CommandLine.ParseResult leaf = parseResult;
            while (leaf.hasSubcommand()) {
                leaf = leaf.subcommand();
            }
            CommandLine.Model.CommandSpec mixin = leaf.commandSpec().mixins().get(Verbosity.MIXIN);
            try (Verbosity.Quiet quiet = mixin == null ? () -> { } : ((Verbosity) mixin.userObject()).quiet()) {
                return new CommandLine.RunLast().execute(parseResult);
            }
        });
        cli.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
            if (e instanceof IllegalArgumentException) {
                return usageError(commandLine, e.getMessage());
            }
            Throwable unconfigured = clientNotStarted(e);
            if (unconfigured != null) {
                return usageError(commandLine, "a Kafka client cannot start with these settings (--kafka-config): "
                        + unconfigured.getMessage());
            }
            Throwable refused = kafkaRefusal(e);
            if (refused != null) {
                commandLine.getErr().println(commandLine.getColorScheme().errorText("seams " + commandLine.getCommandName()
                        + ": Kafka refused this client: " + refused.getClass().getSimpleName() + ": " + refused.getMessage()
                        + " (the credentials or ACLs of --kafka-config)"));
                return ExitStatus.FATAL_KAFKA;
            }
            e.printStackTrace(commandLine.getErr());
            return ExitStatus.UNEXPECTED;
        });
        return cli;
    }

    /**
     * A usage error in two lines on stderr: what is wrong, and where the help is (not the whole help after it).
     *
     * @return {@value ExitStatus#USAGE}
     */
    private static int usageError(CommandLine commandLine, String message) {
        String name = commandLine.getCommandSpec().qualifiedName();
        commandLine.getErr().println(commandLine.getColorScheme().errorText(name + ": " + message));
        commandLine.getErr().println("Try '" + name + " --help' for more information.");
        return ExitStatus.USAGE;
    }

    /**
     * @param failure what a command threw
     * @return the innermost cause of a Kafka client that failed to start ({@code Failed to create new KafkaAdminClient},
     *     {@code Failed to construct kafka consumer}: its settings, e.g. a SASL login without a JAAS configuration), or
     *     null if there is none
     */
    static Throwable clientNotStarted(Throwable failure) {
        Throwable t = firstCause(failure, c -> c instanceof org.apache.kafka.common.KafkaException && c.getMessage() != null
                && (c.getMessage().startsWith("Failed to create new Kafka") || c.getMessage().startsWith("Failed to construct kafka")));
        while (t != null && t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t;
    }

    /** @return the first throwable of {@code failure}'s cause chain (itself included) that matches, or null */
    private static Throwable firstCause(Throwable failure, java.util.function.Predicate<Throwable> matches) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (matches.test(t)) {
                return t;
            }
        }
        return null;
    }

    /**
     * @param failure what a command threw
     * @return the Kafka authentication or authorization failure in its cause chain, or null if there is none
     */
    static Throwable kafkaRefusal(Throwable failure) {
        return firstCause(failure, t -> t instanceof AuthenticationException || t instanceof AuthorizationException);
    }
}
