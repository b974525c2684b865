package dev.seams.cli;

import dev.seams.cli.options.Verbosity;
import dev.seams.config.ConfigCheck;
import dev.seams.config.ConnectorSettings;
import dev.seams.config.TableDefinitions;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code seams check-config}: a user's Debezium connector configuration and ClickHouse DDL read against the settings the
 * claims show breaking a guarantee, without a stand (docs/config.md; {@link dev.seams.config.ConfigRule}). Prints one
 * line per finding on stdout: the setting, what it does in production, the entries of the report that show it.
 *
 * <p>Exit status: 0 nothing found; {@value ExitStatus#CONFIG_FINDINGS} findings printed; 2 usage error, or a file that
 * cannot be read or is not a connector configuration / a DDL with a {@code CREATE TABLE} (one line on stderr).
 */
@Command(name = "check-config", mixinStandardHelpOptions = true, versionProvider = BuildVersion.class, sortOptions = false,
        description = "Read a Debezium connector configuration and ClickHouse DDL, without a stand, for the settings the "
                + "claims show breaking a guarantee: one line per finding.",
        footer = {"", "Exit status: 0 nothing found; 11 findings printed;",
            "2 usage error, or a file that cannot be read or is not a connector configuration or DDL."})
public final class CheckConfigCommand implements Callable<Integer> {

    @Mixin(name = Verbosity.MIXIN)
    Verbosity verbosity = new Verbosity();

    @Option(names = "--connector", paramLabel = "FILE", description = "the connector's configuration: Connect's "
            + "{\"name\": ..., \"config\": {...}}, a bare config object, or a .properties file (default: none)")
    Path connector;

    @Option(names = "--clickhouse-ddl", paramLabel = "FILE", description = "the ClickHouse tables' DDL, e.g. "
            + "containers/clickhouse/001-tables.sql (default: none)")
    Path ddl;

    /**
     * @return the exit status (see the class comment)
     * @throws IllegalArgumentException (exit status 2) when neither file is given, or one cannot be read
     */
    @Override
    public Integer call() {
        if (connector == null && ddl == null) {
            throw new IllegalArgumentException("give --connector FILE, --clickhouse-ddl FILE or both");
        }
        List<ConfigCheck.Finding> findings = ConfigCheck.check(connector == null ? null : ConnectorSettings.load(connector),
                ddl == null ? null : TableDefinitions.load(ddl));
        for (ConfigCheck.Finding f : findings) {
            Path file = f.rule().readsConnector() ? connector : ddl;
            System.out.println(file + ": " + f.line());
        }
        return findings.isEmpty() ? ExitStatus.OK : ExitStatus.CONFIG_FINDINGS;
    }
}
