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
        CommandLine cli = new CommandLine(new StandUp());
        cli.setErr(new java.io.PrintWriter(err));
        assertThat(cli.execute("--profile", "no-such-profile")).isEqualTo(2);
        assertThat(System.getProperty("seams.profile")).as("a refused profile is not left set").isEqualTo(profile);
        assertThat(err.toString()).contains("--profile no-such-profile:")
                .as("the usage after the error shows the default, not the refused profile").doesNotContain("default: no-such-profile");
    }

    @Test
    void helpShowsDefaultsAndEveryExitStatus() {
        String help = new CommandLine(new StandUp()).getUsageMessage();
        assertThat(help).contains("--seed=N", "(default: 0: none)", "(default: 5)", "(default: PT2M)")
                .contains("130 stopped by Ctrl-C", "143 by SIGTERM", "1 the stand or its sink did not start", "2 usage error");
    }
}
