package dev.seams.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.seams.cli.options.Secrets;
import dev.seams.inbox.CrashPoint;
import dev.seams.inbox.CrashSwitch;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code seams inbox}'s flags (claim B4): defaults, durations, the crash switch's checks, where the
 * password comes from, and the fault-injection section of {@code --help}.
 */
class InboxCommandTest {

    private static InboxCommand parse(String... args) {
        InboxCommand command = new InboxCommand();
        new CommandLine(command).parseArgs(args);
        return command;
    }

    @Test
    void defaultsFollowTheSeed() {
        InboxCommand c = parse("--bootstrap-servers", "localhost:9092", "--jdbc-url", "jdbc:postgresql://localhost/ledger");

        assertThat(c.topic).isEqualTo("orders.events");
        assertThat(c.group).isEqualTo("ds-inbox");
        assertThat(c.mode).isEqualTo("inbox");
        assertThat(c.commitSize).isEqualTo(100);
        assertThat(c.keepFactor).isEqualTo(3);
        assertThat(c.faults.crashAt).isNull();
        assertThat(c.faults.crashAfterPolls).isZero();
        assertThat(c.faults.keyByOrderId).isFalse();
    }

    @Test
    void readsShortDurations() {
        InboxCommand c = parse("--bootstrap-servers", "b:1", "--jdbc-url", "u", "--until-idle", "3s", "--session-timeout", "10s");

        assertThat(c.options().window().untilIdle()).isEqualTo(Duration.ofSeconds(3));
        assertThat(c.membership.sessionTimeout()).isEqualTo(Duration.ofSeconds(10));
    }

    @Test
    void rejectsACrashSwitchThatCannotFireBeforeConnectingAnywhere() {
        assertThatThrownBy(() -> parse("--bootstrap-servers", "b:1", "--jdbc-url", "u", "--crash-after-polls", "5").call())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--crash-at");
        assertThatThrownBy(() -> parse("--bootstrap-servers", "b:1", "--jdbc-url", "u", "--crash-at", "after-db-commit").call())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--crash-after-polls");
        assertThatThrownBy(() -> parse("--bootstrap-servers", "b:1", "--jdbc-url", "u", "--crash-at", "sometimes",
                "--crash-after-polls", "1").call())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("sometimes");
        assertThatThrownBy(() -> parse("--bootstrap-servers", "b:1", "--jdbc-url", "u", "--mode", "twice").call())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("twice");
    }

    @Test
    void thePasswordComesFromTheOptionAFileOrTheEnvironment(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("pg.pw"), "from-file\r\n", StandardCharsets.UTF_8);
        InboxCommand fromEnv = parse("--bootstrap-servers", "b:1", "--jdbc-url", "u");
        fromEnv.env = Map.of(Secrets.PG_ENV, "from-env");
        InboxCommand fromFile = parse("--bootstrap-servers", "b:1", "--jdbc-url", "u", "--password-file", file.toString());
        fromFile.env = Map.of(Secrets.PG_ENV, "from-env");
        InboxCommand none = parse("--bootstrap-servers", "b:1", "--jdbc-url", "u");
        none.env = Map.of();

        assertThat(fromEnv.options().target().password()).isEqualTo("from-env");
        assertThat(fromFile.options().target().password()).isEqualTo("from-file");
        assertThat(none.options().target().password()).isEqualTo("test");
        assertThat(parse("--bootstrap-servers", "b:1", "--jdbc-url", "u", "--password", "argv").options().target().password())
                .isEqualTo("argv");
    }

    @Test
    void theTestOnlySwitchesReachTheOptions() {
        InboxCommand c = parse("--bootstrap-servers", "b:1", "--jdbc-url", "u", "--crash-at", "after-db-commit",
                "--crash-after-polls", "3", "--key-by-order-id", "--until-caught-up");

        assertThat(c.options().faults().crash()).isEqualTo(new CrashSwitch(CrashPoint.AFTER_DB_COMMIT, 3));
        assertThat(c.options().faults().keyByOrderId()).isTrue();
        assertThat(c.options().window().untilCaughtUp()).isTrue();
    }

    @Test
    void helpMarksTheFaultInjectionOptions() {
        String help = new CommandLine(new InboxCommand()).getUsageMessage();
        String faults = help.substring(help.indexOf("Fault injection (TEST ONLY: never in production):"));

        assertThat(faults).contains("--crash-at").contains("--crash-after-polls").contains("--key-by-order-id");
        assertThat(help.indexOf("      --crash-at")).as("--crash-at is listed under the fault-injection heading")
                .isGreaterThan(help.indexOf("Fault injection"));
        assertThat(help).contains("137 --crash-at fired");
    }
}
