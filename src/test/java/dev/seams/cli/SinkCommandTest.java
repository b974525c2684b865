package dev.seams.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seams.cli.options.Secrets;
import dev.seams.consumer.RunWindow;
import dev.seams.sink.Batching;
import dev.seams.sink.ClickHouseTarget;
import dev.seams.sink.CustomerRange;
import dev.seams.sink.SinkOptions;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code seams sink}'s flags: docs/sink.md's, the defaults (no customer range, 30 s ClickHouse
 * timeout), the run windows, static membership, where the password comes from, the fault-injection
 * section of {@code --help}, and exit status 2 for an invalid value.
 */
class SinkCommandTest {

    @TempDir
    Path dir;

    private static SinkCommand parse(Map<String, String> env, String... args) {
        SinkCommand command = new SinkCommand();
        command.env = env;
        new CommandLine(command).parseArgs(args);
        return command;
    }

    private static SinkCommand parse(String... args) {
        return parse(Map.of(), args);
    }

    @Test
    void theSinkCommandParsesTheReadmeFlags() {
        SinkCommand command = parse("--bootstrap-servers", "localhost:9092", "--until-idle", "5s",
                "--dlq-topic", "x.dlq", "--max-value-bytes", "1024");

        assertThat(command.options().window()).isEqualTo(new RunWindow(null, Duration.ofSeconds(5), false));
        assertThat(parse("--bootstrap-servers", "b:1", "--for", "15s").options().window())
                .isEqualTo(new RunWindow(Duration.ofSeconds(15), null, false));
        assertThat(command.dlqTopic).isEqualTo("x.dlq");
        assertThat(command.maxValueBytes).isEqualTo(1024);
    }

    @Test
    void defaultsHaveNoCustomerRangeAnIdleWindowAndAThirtySecondTimeout() {
        SinkOptions options = parse("--bootstrap-servers", "b:1").options();

        assertThat(options.rejects().customers()).isNull();
        assertThat(options.window()).isEqualTo(new RunWindow(null, Duration.ofSeconds(5), false));
        assertThat(options.clickhouse()).isEqualTo(new ClickHouseTarget("http://localhost:8123", "default", "", "default",
                Duration.ofSeconds(30)));
        assertThat(options.faults().dup()).isFalse();
        assertThat(options.faults().offsetAsVersion()).isFalse();
        assertThat(options.faults().skipValidation()).isFalse();
        assertThat(options.membership().instanceId()).isNull();
    }

    @Test
    void theTopicAndBatchingFlagsReachTheOptions() {
        SinkOptions defaults = parse("--bootstrap-servers", "b:1").options();
        SinkOptions batched = parse("--bootstrap-servers", "b:1", "--topic", "scratch", "--batch-rows", "50000").options();
        SinkOptions waited = parse("--bootstrap-servers", "b:1", "--batch-rows", "10", "--batch-wait", "250ms").options();

        assertThat(defaults.source().topic()).isEqualTo("customer.totals");
        assertThat(defaults.batching()).isEqualTo(Batching.PER_POLL);
        assertThat(batched.source().topic()).isEqualTo("scratch");
        assertThat(batched.batching()).isEqualTo(new Batching(50_000, Batching.DEFAULT_WAIT));
        assertThat(waited.batching()).isEqualTo(new Batching(10, Duration.ofMillis(250)));
    }

    @Test
    void theCommitIntervalDefaultsToTheOptionsDefaultAndZeroCommitsEachBatch() {
        assertThat(parse("--bootstrap-servers", "b:1").options().commitInterval()).isEqualTo(SinkOptions.DEFAULT_COMMIT_INTERVAL);
        assertThat(parse("--bootstrap-servers", "b:1", "--commit-interval", "0s").options().commitInterval()).isZero();
        assertThat(parse("--bootstrap-servers", "b:1", "--commit-interval", "250ms").options().commitInterval())
                .isEqualTo(Duration.ofMillis(250));
    }

    @Test
    void theNewFlagsReachTheOptions() {
        SinkOptions options = parse("--bootstrap-servers", "b:1", "--until-caught-up", "--instance-id", "sink-1",
                "--session-timeout", "10s", "--clickhouse-timeout", "10s", "--customers", "1..5", "--dup").options();

        assertThat(options.window()).isEqualTo(new RunWindow(null, null, true));
        assertThat(options.membership().instanceId()).isEqualTo("sink-1");
        assertThat(options.membership().sessionTimeout()).isEqualTo(Duration.ofSeconds(10));
        assertThat(options.clickhouse().timeout()).isEqualTo(Duration.ofSeconds(10));
        assertThat(options.rejects().customers()).isEqualTo(new CustomerRange(1, 5));
        assertThat(options.faults().dup()).isTrue();
    }

    @Test
    void thePasswordComesFromTheOptionAFileOrTheEnvironment() throws Exception {
        Path file = Files.writeString(dir.resolve("ch.pw"), "from-file\n", StandardCharsets.UTF_8);
        Map<String, String> env = Map.of(Secrets.CLICKHOUSE_ENV, "from-env");

        assertThat(parse(env, "--bootstrap-servers", "b:1").options().clickhouse().password()).isEqualTo("from-env");
        assertThat(parse(env, "--bootstrap-servers", "b:1", "--clickhouse-password-file", file.toString())
                .options().clickhouse().password()).isEqualTo("from-file");
        assertThat(parse(env, "--bootstrap-servers", "b:1", "--clickhouse-password", "from-argv")
                .options().clickhouse().password()).isEqualTo("from-argv");
        assertThat(parse("--bootstrap-servers", "b:1").options().clickhouse().password()).isEmpty();
    }

    @Test
    void helpMarksTheFaultInjectionOptions() {
        String help = new CommandLine(new SinkCommand()).getUsageMessage();

        assertThat(help).contains("Fault injection (TEST ONLY: never in production):");
        assertThat(help.indexOf("      --dup")).as("--dup is listed under the fault-injection heading")
                .isGreaterThan(help.indexOf("Fault injection"));
        assertThat(help).contains("Exit status: 0 clean run").contains("5 permanent write error");
    }

    @Test
    void anInvalidValueExitsWithTheUsageStatus() {
        StringWriter err = new StringWriter();
        CommandLine cli = SeamsCli.commandLine();
        cli.setErr(new PrintWriter(err));

        int status = cli.execute("sink", "--bootstrap-servers", "b:1", "--customers", "five");

        assertThat(status).isEqualTo(ExitStatus.USAGE);
        assertThat(err.toString()).contains("customer range must look like 1..5, got 'five'");
    }

    @Test
    void crashPointIsTestOnlyAndOffByDefault(@TempDir Path dir) {
        assertThat(parse("--bootstrap-servers", "b:1").faults.crash()).isEqualTo(dev.seams.sink.SinkCrash.OFF);
        Path trigger = dir.resolve("crash");
        assertThat(parse("--bootstrap-servers", "b:1", "--crash-at", "after-insert", "--crash-trigger", trigger.toString())
                .faults.crash()).isEqualTo(new dev.seams.sink.SinkCrash(dev.seams.sink.SinkCrash.Point.AFTER_INSERT, trigger));
    }

    @Test
    void runUntilStoppedIsTheDeployedWindowAndExcludesTheOthers() {
        assertThat(parse("--bootstrap-servers", "b:1", "--run-until-stopped").options().window())
                .isEqualTo(RunWindow.UNTIL_STOPPED);
        assertThat(RunWindow.UNTIL_STOPPED.untilStopped()).isTrue();

        CommandLine cli = SeamsCli.commandLine();
        StringWriter err = new StringWriter();
        cli.setErr(new PrintWriter(err));
        int status = cli.execute("sink", "--bootstrap-servers", "b:1", "--run-until-stopped", "--for", "15s");

        assertThat(status).isEqualTo(ExitStatus.USAGE);
        assertThat(err.toString()).contains("at most one of --for, --until-idle, --until-caught-up and --run-until-stopped");
    }

    @Test
    void theKafkaConfigFileReachesTheOptionsAndAConflictIsAUsageError() throws Exception {
        Path config = Files.writeString(dir.resolve("client.properties"), "security.protocol=SSL\n");
        Path conflicting = Files.writeString(dir.resolve("auto.properties"), "enable.auto.commit=true\n");

        SinkOptions options = parse("--bootstrap-servers", "b:1", "--kafka-config", config.toString()).options();

        assertThat(options.source().kafkaConfig().properties()).isEqualTo(Map.of("security.protocol", "SSL"));
        assertThat(parse("--bootstrap-servers", "b:1").options().source().kafkaConfig()).isEqualTo(dev.seams.kafka.KafkaClientConfig.NONE);
        CommandLine cli = SeamsCli.commandLine();
        StringWriter err = new StringWriter();
        cli.setErr(new PrintWriter(err));
        assertThat(cli.execute("sink", "--bootstrap-servers", "127.0.0.1:1", "--kafka-config", conflicting.toString()))
                .as("refused before any client starts").isEqualTo(ExitStatus.USAGE);
        assertThat(err.toString()).contains("--kafka-config sets enable.auto.commit, which seams sets itself to false");
    }
}
