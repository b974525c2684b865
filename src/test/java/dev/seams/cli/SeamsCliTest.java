package dev.seams.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class SeamsCliTest {

    @Test
    void versionPrintsTheBuildTheKafkaClientsAndTheJvmOnStdout() {
        CommandLine cli = SeamsCli.commandLine();
        StringWriter out = new StringWriter();
        cli.setOut(new PrintWriter(out));

        int status = cli.execute("--version");

        assertThat(status).isZero();
        String printed = out.toString();
        assertThat(printed).startsWith("seams " + BuildVersion.version() + " (commit " + BuildVersion.commit() + ")" + System.lineSeparator())
                .contains("Kafka clients " + org.apache.kafka.common.utils.AppInfoParser.getVersion()).contains("Java ");
        assertThat(BuildVersion.version()).as("filtered from the pom's project.version").matches("\\d+\\.\\d+\\.\\d+.*");
        assertThat(BuildVersion.commit()).as("the commit of this checkout (git-commit-id-maven-plugin)")
                .matches("[0-9a-f]{7}(, uncommitted changes)?|unknown");
    }

    @Test
    void everyCommandAnswersVersionAndItsHelpListsItsExitStatusesAndEveryOptionsMeaning() {
        CommandLine seams = SeamsCli.commandLine();
        for (CommandLine command : seams.getSubcommands().values()) {
            String name = command.getCommandName();
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            seams.setOut(new PrintWriter(out)).setErr(new PrintWriter(err));
            assertThat(seams.execute(name, "--version")).as("seams %s --version: %s", name, err).isZero();
            assertThat(out.toString()).as("%s --version", name).startsWith("seams " + BuildVersion.version());
            assertThat(command.getUsageMessage()).as("%s --help", name).contains("Exit status: 0 ");
            for (CommandLine.Model.OptionSpec option : command.getCommandSpec().options()) {
                assertThat(String.join(" ", option.description())).as("%s %s: its meaning in --help", name, option.longestName())
                        .isNotBlank();
            }
        }
        assertThat(seams.getUsageMessage()).contains("Exit status: ");
    }

    @CommandLine.Command(name = "boom")
    static final class Boom implements java.util.concurrent.Callable<Integer> {
        @Override
        public Integer call() {
            throw new IllegalStateException("a bug");
        }
    }

    @Test
    void anUnexpectedExceptionIsItsOwnExitStatusNeverOneThatNamesAnOutcome() {
        CommandLine cli = SeamsCli.commandLine().addSubcommand(new Boom());
        StringWriter err = new StringWriter();
        cli.setErr(new PrintWriter(err));

        int status = cli.execute("boom");

        assertThat(status).isEqualTo(ExitStatus.UNEXPECTED).isNotIn(ExitStatus.OK, ExitStatus.UNCOMMITTED, ExitStatus.USAGE);
        assertThat(err.toString()).contains("java.lang.IllegalStateException: a bug").contains("at dev.seams.cli.SeamsCliTest");
    }

    @CommandLine.Command(name = "refused")
    static final class Refused implements java.util.concurrent.Callable<Integer> {
        @Override
        public Integer call() throws Exception {
            throw new java.util.concurrent.ExecutionException(new org.apache.kafka.common.errors.SaslAuthenticationException(
                    "Authentication failed: Invalid username or password"));
        }
    }

    @Test
    void kafkaRefusingTheClientIsAFatalKafkaErrorInOneLineNotAStackTrace() {
        CommandLine cli = SeamsCli.commandLine().addSubcommand(new Refused());
        StringWriter err = new StringWriter();
        cli.setErr(new PrintWriter(err));

        int status = cli.execute("refused");

        assertThat(status).isEqualTo(ExitStatus.FATAL_KAFKA);
        assertThat(err.toString()).contains("seams refused: Kafka refused this client: SaslAuthenticationException: "
                + "Authentication failed: Invalid username or password (the credentials or ACLs of --kafka-config)")
                .doesNotContain("\tat ");
    }

    @Test
    void anAuthorizationFailureAnywhereInTheCauseChainIsARefusalToo() {
        assertThat(SeamsCli.kafkaRefusal(new IllegalStateException("describe failed",
                new org.apache.kafka.common.errors.GroupAuthorizationException("Not authorized to access group: g"))))
                .isInstanceOf(org.apache.kafka.common.errors.GroupAuthorizationException.class);
        assertThat(SeamsCli.kafkaRefusal(new IllegalStateException("a bug"))).isNull();
    }

    @Test
    void aUsageErrorIsOneLineAndWhereTheHelpIsNotTheWholeHelp() {
        CommandLine cli = SeamsCli.commandLine();
        StringWriter err = new StringWriter();
        cli.setErr(new PrintWriter(err));

        int status = cli.execute("lag", "--group", "g");

        assertThat(status).isEqualTo(ExitStatus.USAGE);
        assertThat(err.toString().lines().toList()).containsExactly(
                "seams lag: Missing required option: '--bootstrap-servers=<bootstrapServers>'",
                "Try 'seams lag --help' for more information.");
    }
}
