package dev.seams.cli;

import dev.seams.streams.StreamsApp;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code seams}: the command line of the pipeline's own processes —
 * {@code seams streams} (Kafka Streams, ds-streams), {@code seams sink} (Kafka → ClickHouse),
 * {@code seams seed} (deterministic orders into PostgreSQL), {@code seams lag} (consumer group lag),
 * {@code seams inbox} (sink mode inbox: exactly-once into PostgreSQL, claim B4),
 * {@code seams compare} (what changed between two guarantees.json reports, claim B7).
 */
@Command(name = "seams", mixinStandardHelpOptions = true,
        subcommands = {StreamsApp.class, SinkCommand.class, SeedCommand.class, LagCommand.class,
            InboxCommand.class, CompareCommand.class},
        description = "The CDC pipeline's stream processor, sink and seeder.")
public final class SeamsCli {

    private SeamsCli() {
    }

    /** Runs a subcommand and exits with its status. */
    public static void main(String[] args) {
        System.exit(new CommandLine(new SeamsCli()).execute(args));
    }
}
