package dev.seams.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seams.lag.LagProbe;
import dev.seams.lag.PartitionLag;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

class LagCommandTest {

    private static final PartitionLag AT_REST_BEHIND_A_MARKER = new PartitionLag("ds-sink", "customer.totals", 0, 6, 7, 7, 0);
    private static final PartitionLag FAR_BEHIND = new PartitionLag("ds-sink", "customer.totals", 1, 100, 50_100, 50_100, PartitionLag.UNKNOWN);

    @Test
    void theColumnsOfKafkaConsumerGroupsComeFirstInTheirOrder() {
        String table = LagProbe.format(List.of(AT_REST_BEHIND_A_MARKER, FAR_BEHIND),
                Map.of(new TopicPartition("customer.totals", 0), new LagProbe.Owner("ds-sink-totals-1", "/10.0.0.7", "ds-sink-totals")));
        List<String> header = List.of(table.lines().findFirst().orElseThrow().trim().split("\\s+"));

        assertThat(header.subList(0, 9)).containsExactly("GROUP", "TOPIC", "PARTITION", "CURRENT-OFFSET", "LOG-END-OFFSET", "LAG",
                "CONSUMER-ID", "HOST", "CLIENT-ID");
        assertThat(header.subList(9, 12)).containsExactly("LAST-STABLE-OFFSET", "LAG-TO-LSO", "DATA-BEHIND");
        List<String> owned = List.of(table.lines().skip(1).findFirst().orElseThrow().trim().split("\\s+"));
        assertThat(owned.subList(0, 12)).containsExactly("ds-sink", "customer.totals", "0", "6", "7", "1", "ds-sink-totals-1",
                "/10.0.0.7", "ds-sink-totals", "7", "1", "0");
        assertThat(table.lines().skip(1).findFirst().orElseThrow()).endsWith("(control markers only)");
        List<String> unread = List.of(table.lines().skip(2).findFirst().orElseThrow().trim().split("\\s+"));
        assertThat(unread).containsExactly("ds-sink", "customer.totals", "1", "100", "50100", "50000", "-", "-", "-", "50100", "50000", "-");
    }

    @Test
    void aLagAboveTheThresholdIsItsOwnExitStatus() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        List<PartitionLag> lags = List.of(AT_REST_BEHIND_A_MARKER, FAR_BEHIND);

        assertThat(LagCommand.judge("ds-sink", lags, null, new PrintStream(err))).isEqualTo(ExitStatus.OK);
        assertThat(LagCommand.judge("ds-sink", lags, 50_001L, new PrintStream(err))).isEqualTo(ExitStatus.OK);
        assertThat(LagCommand.judge("ds-sink", lags, 50_000L, new PrintStream(err))).isEqualTo(ExitStatus.LAG_ABOVE);
        assertThat(err.toString(StandardCharsets.UTF_8)).isEqualTo("group ds-sink: lag 50001 above --fail-above 50000" + System.lineSeparator());
    }

    @Test
    void theExitStatusesAreListedInHelp() {
        String help = SeamsCli.commandLine().getSubcommands().get("lag").getUsageMessage();
        assertThat(help).contains("6 a group's lag above --fail-above").contains("(default: 10000)").contains("--fail-above=N");
    }

    @org.junit.jupiter.params.ParameterizedTest(name = "{0}")
    @org.junit.jupiter.params.provider.ValueSource(strings = {"--bootstrap-servers", "--bootstrap-server"})
    void aKafkaConfigThatRedirectsTheClusterIsRefusedBeforeConnecting(String option,
            @org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        // --bootstrap-server, the Kafka tools' spelling, is parsed as --bootstrap-servers, then the file refused alike
        java.nio.file.Path config = java.nio.file.Files.writeString(dir.resolve("c.properties"), "bootstrap.servers=elsewhere:9092\n");
        picocli.CommandLine cli = SeamsCli.commandLine();
        java.io.StringWriter err = new java.io.StringWriter();
        cli.setErr(new java.io.PrintWriter(err));

        int status = cli.execute("lag", option, "127.0.0.1:1", "--kafka-config", config.toString());

        assertThat(status).isEqualTo(ExitStatus.USAGE);
        assertThat(err.toString()).contains("--kafka-config sets bootstrap.servers, which seams sets itself to 127.0.0.1:1");
    }

    @Test
    void aClusterThatDoesNotAnswerIsOneLineAndItsOwnExitStatusWithinTheTimeout() {
        java.io.PrintStream stderr = System.err;
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        long t0 = System.nanoTime();
        int status;
        try {
            System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
            status = SeamsCli.commandLine().execute("lag", "--bootstrap-server", "127.0.0.1:1", "--group", "g", "--timeout", "1s");
        } finally {
            System.setErr(stderr);
        }
        double seconds = (System.nanoTime() - t0) / 1e9;

        assertThat(status).isEqualTo(ExitStatus.UNAVAILABLE);
        assertThat(err.toString(StandardCharsets.UTF_8).lines().filter(l -> l.startsWith("seams lag: ")).toList())
                .singleElement().asString().startsWith("seams lag: the cluster at 127.0.0.1:1 did not answer within 1.0 s");
        assertThat(seconds).as("seconds, against a 1 s timeout").isLessThan(20);
    }

    @Test
    void aGroupWithoutCommittedOffsetsIsARowSayingSoNotAFailure() {
        String table = LagProbe.format("nosuchgroup", List.of(), Map.of());

        List<String> row = List.of(table.lines().skip(1).findFirst().orElseThrow().split(" {2}\\("));
        assertThat(row.get(0).trim().split("\\s+")).hasSize(LagProbe.COLUMNS.size()).startsWith("nosuchgroup", "-", "-");
        assertThat(table).contains(LagProbe.NO_OFFSETS);
        assertThat(LagCommand.judge("nosuchgroup", List.of(), 0L, new PrintStream(new ByteArrayOutputStream())))
                .as("no lag: a --fail-above gate over several groups is not broken by it").isEqualTo(ExitStatus.OK);
    }

    @Test
    void aOneShotCommandLogsOnlyWarningsAndErrorsUnlessVerboseAndLeavesTheLogAsItFoundIt() {
        ch.qos.logback.classic.Logger root = (ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory.getLogger(
                org.slf4j.Logger.ROOT_LOGGER_NAME);
        ch.qos.logback.classic.Level before = root.getLevel();
        ch.qos.logback.core.read.ListAppender<ch.qos.logback.classic.spi.ILoggingEvent> seen = new ch.qos.logback.core.read.ListAppender<>();
        seen.start();
        root.addAppender(seen);
        try {
            SeamsCli.commandLine().execute("lag", "--bootstrap-server", "127.0.0.1:1", "--group", "g", "--timeout", "1s");
            assertThat(seen.list).as("what a quiet lag logged").allMatch(ev -> ev.getLevel().isGreaterOrEqual(
                    ch.qos.logback.classic.Level.WARN) && (!ev.getLoggerName().startsWith("org.apache.kafka")
                    || ev.getLevel() == ch.qos.logback.classic.Level.ERROR));
            assertThat(root.getLevel()).as("the root level after the command").isEqualTo(before);

            seen.list.clear();
            SeamsCli.commandLine().execute("lag", "--bootstrap-server", "127.0.0.1:1", "--group", "g", "--timeout", "1s", "-v");
            assertThat(seen.list).as("--verbose: the clients' configuration and warnings")
                    .anyMatch(ev -> ev.getLevel() == ch.qos.logback.classic.Level.INFO);
        } finally {
            root.detachAppender(seen);
        }
    }

    @Test
    void aSaslLoginWithoutAJaasConfigurationIsAUsageErrorInOneLine(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        java.nio.file.Path config = java.nio.file.Files.writeString(dir.resolve("sasl.properties"),
                "security.protocol=SASL_PLAINTEXT\nsasl.mechanism=PLAIN\n");
        picocli.CommandLine cli = SeamsCli.commandLine();
        java.io.StringWriter err = new java.io.StringWriter();
        cli.setErr(new java.io.PrintWriter(err));

        int status = cli.execute("lag", "--bootstrap-server", "127.0.0.1:1", "--kafka-config", config.toString(), "--timeout", "1s");

        assertThat(status).isEqualTo(ExitStatus.USAGE);
        assertThat(err.toString().lines().findFirst().orElseThrow()).startsWith("seams lag: a Kafka client cannot start with "
                + "these settings (--kafka-config): ").contains("JAAS");
    }

    @Test
    void aTimeoutOfZeroIsAUsageError() {
        assertThat(SeamsCli.commandLine().setErr(new java.io.PrintWriter(new java.io.StringWriter()))
                .execute("lag", "--bootstrap-server", "127.0.0.1:1", "--timeout", "0s")).isEqualTo(ExitStatus.USAGE);
    }
}
