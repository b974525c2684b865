package dev.seams.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seams.cli.options.Secrets;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code seams seed}: the password from a file or the environment, and an exit status of its own per outcome. */
class SeedCommandTest {

    @TempDir
    Path dir;

    @Test
    void aRefusedDatabaseIsItsOwnExitStatusWithTheReasonOnStderr() throws Exception {
        Path secret = Files.writeString(dir.resolve("pg"), "from-file\n");
        SeedCommand seed = new SeedCommand();
        seed.env = Map.of(Secrets.PG_ENV, "from-env");
        new CommandLine(seed).parseArgs("--jdbc-url", "jdbc:postgresql://127.0.0.1:1/nowhere?connectTimeout=2",
                "--password-file", secret.toString());
        PrintStream stderr = System.err;
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status;
        try {
            System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
            status = seed.call();
        } finally {
            System.setErr(stderr);
        }

        assertThat(status).isEqualTo(ExitStatus.PG_REFUSED);
        assertThat(err.toString(StandardCharsets.UTF_8)).startsWith("seed: PostgreSQL refused (SQLSTATE 08001), nothing committed");
    }

    @Test
    void aPasswordAndAPasswordFileTogetherAreAUsageError() throws Exception {
        Path secret = Files.writeString(dir.resolve("pg"), "x");
        CommandLine cli = SeamsCli.commandLine();
        StringWriter err = new StringWriter();
        cli.setErr(new PrintWriter(err));

        int status = cli.execute("seed", "--jdbc-url", "jdbc:postgresql://127.0.0.1:1/x", "--password", "p",
                "--password-file", secret.toString());

        assertThat(status).isEqualTo(ExitStatus.USAGE);
        assertThat(err.toString()).contains("give the password or the password file, not both");
    }

    @Test
    void helpShowsTheDefaultsAndEveryExitStatus() {
        String help = SeamsCli.commandLine().getSubcommands().get("seed").getUsageMessage();
        assertThat(help).contains("--password-file").contains(Secrets.PG_ENV).contains("(default: 51)")
                .contains("7 PostgreSQL refused").contains("70 unexpected error");
    }
}
