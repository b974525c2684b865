package dev.seams.standup;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code seams stand up}'s command line: its defaults, shown in {@code --help} with every exit status. */
class StandUpTest {

    @Test
    void defaultsAreTheOfficialImagesAndNoSeed() {
        StandUp up = new StandUp();
        new CommandLine(up).parseArgs();
        assertThat(up.profile).isEqualTo(System.getProperty("seams.profile", "current"));
        assertThat(up.seed).isZero();
        assertThat(up.customers).isEqualTo(5);
        assertThat(up.seedTimeout).isEqualTo(Duration.ofMinutes(2));
    }

    @Test
    void seedAndProfileAreOptions() {
        StandUp up = new StandUp();
        new CommandLine(up).parseArgs("--profile", "offline", "--seed", "1000", "--customers", "50", "--seed-timeout", "PT30S");
        assertThat(up.profile).isEqualTo("offline");
        assertThat(up.seed).isEqualTo(1000);
        assertThat(up.customers).isEqualTo(50);
        assertThat(up.seedTimeout).isEqualTo(Duration.ofSeconds(30));
    }

    @Test
    void aSeedWithoutCustomersOrAnUnknownProfileIsAUsageErrorBeforeAnyContainerStarts() {
        assertThat(new CommandLine(new StandUp()).execute("--seed", "10", "--customers", "0")).isEqualTo(2);
        String profile = System.getProperty("seams.profile");
        java.io.StringWriter err = new java.io.StringWriter();
        CommandLine cli = StandUp.commandLine();
        cli.setErr(new java.io.PrintWriter(err));
        assertThat(cli.execute("--profile", "no-such-profile")).isEqualTo(2);
        assertThat(System.getProperty("seams.profile")).as("a refused profile is not left set").isEqualTo(profile);
        assertThat(err.toString()).startsWith("seams stand up: --profile no-such-profile:")
                .as("two lines: what is wrong, where the help is").endsWith("Try 'seams stand up --help' for more information."
                        + System.lineSeparator()).doesNotContain("Usage:");
    }

    @Test
    void helpShowsDefaultsAndEveryExitStatus() {
        String help = new CommandLine(new StandUp()).getUsageMessage().replaceAll("\\s+", " ");
        assertThat(help).contains("--seed=N", "(default: 0: none)", "(default: 5)", "(default: PT2M)")
                .contains("130 stopped by Ctrl-C", "143 by SIGTERM", "1 the stand or its sink did not start", "2 usage error",
                        "3 a container of the stand stopped or was removed")
                .contains("--listen=ADDRESS", "(default: 127.0.0.1)");
    }

    @Test
    void theStandListensOnLoopbackUnlessToldAndANameIsNoAddress() {
        StandUp up = new StandUp();
        new CommandLine(up).parseArgs();
        assertThat(up.listen).isEqualTo("127.0.0.1");
        java.io.StringWriter err = new java.io.StringWriter();
        CommandLine cli = StandUp.commandLine();
        cli.setErr(new java.io.PrintWriter(err));
        assertThat(cli.execute("--listen", "my-laptop.example")).isEqualTo(2);
        assertThat(err.toString()).contains("--listen my-laptop.example: not an IP address");
    }
}
