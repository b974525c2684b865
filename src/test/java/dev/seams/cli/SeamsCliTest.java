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
        assertThat(printed).startsWith("seams " + BuildVersion.version() + System.lineSeparator())
                .contains("Kafka clients " + org.apache.kafka.common.utils.AppInfoParser.getVersion()).contains("Java ");
        assertThat(BuildVersion.version()).as("filtered from the pom's project.version").matches("\\d+\\.\\d+\\.\\d+.*");
    }
}
