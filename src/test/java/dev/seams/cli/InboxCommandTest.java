package dev.seams.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code seams inbox}'s flags (claim B4): defaults, durations, and the crash switch's checks. */
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
        assertThat(c.crashAt).isNull();
        assertThat(c.crashAfterPolls).isZero();
    }

    @Test
    void readsShortDurations() {
        InboxCommand c = parse("--bootstrap-servers", "b:1", "--jdbc-url", "u", "--until-idle", "3s", "--session-timeout", "10s");

        assertThat(c.untilIdle).isEqualTo(Duration.ofSeconds(3));
        assertThat(c.sessionTimeout).isEqualTo(Duration.ofSeconds(10));
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
}
