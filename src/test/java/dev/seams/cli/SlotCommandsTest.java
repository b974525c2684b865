package dev.seams.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code seams slot} and {@code seams reconcile}: their defaults and every exit status in {@code --help}, usage errors 2. */
class SlotCommandsTest {

    @Test
    void helpShowsTheDefaultsAndEveryExitStatus() {
        String slot = SeamsCli.commandLine().getSubcommands().get("slot").getUsageMessage();
        assertThat(slot).contains("default: seams_orders", "0 healthy", "7 PostgreSQL refused", "8 slot lost", "9 slot at risk", "70");
        String reconcile = SeamsCli.commandLine().getSubcommands().get("reconcile").getUsageMessage();
        assertThat(reconcile).contains("default: orders.events", "default: public.orders", "default: 5m", "0 reconciled",
                "4 Kafka refused", "7 PostgreSQL refused", "70");
    }

    @Test
    void aNegativeBoundAndATableThatIsNoIdentifierAreUsageErrors() {
        CommandLine cli = SeamsCli.commandLine();
        cli.setErr(new PrintWriter(new StringWriter()));
        assertThat(cli.execute("slot", "--jdbc-url", "jdbc:postgresql://127.0.0.1:1/x", "--max-retained-mib", "-1"))
                .isEqualTo(ExitStatus.USAGE);
        assertThat(cli.execute("reconcile", "--bootstrap-servers", "127.0.0.1:1", "--jdbc-url", "jdbc:postgresql://127.0.0.1:1/x",
                "--table", "orders; DROP TABLE orders")).isEqualTo(ExitStatus.USAGE);
    }
}
