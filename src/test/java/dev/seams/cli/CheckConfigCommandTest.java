package dev.seams.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code seams check-config} as a user runs it: its exit status and its lines (docs/config.md). */
class CheckConfigCommandTest {

    private record Run(int status, String out, String err) {
    }

    private static Run run(String... args) {
        PrintStream stdout = System.out;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        StringWriter err = new StringWriter();
        try {
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            CommandLine cli = SeamsCli.commandLine();
            cli.setErr(new PrintWriter(err, true));
            int status = cli.execute(args);
            return new Run(status, out.toString(StandardCharsets.UTF_8), err.toString());
        } finally {
            System.setOut(stdout);
        }
    }

    @Test
    void theShippedFilesAreClean() {
        Run r = run("check-config", "--connector", "containers/debezium/orders-connector.json",
                "--clickhouse-ddl", "containers/clickhouse/001-tables.sql");
        assertThat(r.status()).isZero();
        assertThat(r.out()).isEmpty();
    }

    @Test
    void aFindingIsOneLineWithTheSettingWhatItDoesAndTheClaimAndItsOwnExitStatus(@TempDir Path dir) throws Exception {
        Path connector = Files.writeString(dir.resolve("mine.json"), Files.readString(Path.of("containers/debezium/orders-connector.json"))
                .replace("\"snapshot.mode\": \"initial\"", "\"snapshot.mode\": \"no_data\""));
        Run r = run("check-config", "--connector", connector.toString());
        assertThat(r.status()).isEqualTo(ExitStatus.CONFIG_FINDINGS);
        assertThat(r.out().lines()).containsExactly(connector + ": snapshot.mode=no_data: the rows the table holds when the "
                + "connector is first registered are never read: those orders never reach Kafka, and their customers' totals "
                + "stay behind for good (shown by B17[existing rows], docs/claims.md)");
    }

    @Test
    void noFileOrAFileThatIsNoConfigurationIsAUsageErrorInOneLine(@TempDir Path dir) throws Exception {
        Run none = run("check-config");
        assertThat(none.status()).isEqualTo(ExitStatus.USAGE);
        assertThat(none.err()).startsWith("seams check-config: give --connector FILE, --clickhouse-ddl FILE or both");
        Path notJson = Files.writeString(dir.resolve("c.json"), "{ nope");
        Run bad = run("check-config", "--connector", notJson.toString());
        assertThat(bad.status()).isEqualTo(ExitStatus.USAGE);
        assertThat(bad.err().lines().findFirst().orElseThrow()).startsWith("seams check-config: " + notJson + ": not JSON");
        Run missing = run("check-config", "--clickhouse-ddl", dir.resolve("nothing.sql").toString());
        assertThat(missing.status()).isEqualTo(ExitStatus.USAGE);
        assertThat(missing.err()).contains("nothing.sql: cannot read it");
    }

    @Test
    void helpShowsEveryExitStatus() {
        String help = new CommandLine(new CheckConfigCommand()).getUsageMessage();
        assertThat(help).contains("0 nothing found; 11 findings printed", "2 usage error", "(default: none)");
    }
}
