package dev.seams.stand;

import dev.seams.cli.options.Secrets;
import dev.seams.project.Project;
import dev.seams.sink.SinkCrash;
import dev.seams.sinks.DsSink;
import dev.seams.sinks.RunningSink;
import dev.seams.sinks.SinkUnderTest;
import dev.seams.truth.ClickHouse;
import dev.seams.truth.Groups;
import dev.seams.truth.RunNames;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The sink CLI ({@code seams sink --mode totals}) as its own JVM in a JRE container on the stand's
 * network ({@link JvmContainer}), a fault target of claim B5: it reaches the broker at
 * {@link Stand#kafkaOnNetwork()} and ClickHouse at {@code clickhouse:8123} by their aliases (so a
 * ClickHouse or broker restart changes nothing it uses), can be SIGKILLed at a point of a batch
 * ({@link SinkCrash}: {@code --crash-at}, armed by creating {@link #crashTrigger()}), frozen, or cut
 * off the network. It runs with static membership ({@value #INSTANCE_ID}), so a restart after a kill
 * takes the partitions back at once, and a ClickHouse request timeout of {@link #CLICKHOUSE_TIMEOUT}.
 * Output: {@code target/stand-logs/sink-N.log}.
 */
public final class SinkContainer implements RunningSink {

    /** The sink's static membership id. */
    public static final String INSTANCE_ID = "ds-sink-b5";
    /** {@code --clickhouse-timeout}: a frozen ClickHouse is detected after this and the batch retried. */
    public static final Duration CLICKHOUSE_TIMEOUT = Duration.ofSeconds(5);

    private final JvmContainer process;
    private final Path crashTrigger;
    private final Stand stand;

    /**
     * @param stand the running stand
     * @param crash where the sink stops once {@link #crashTrigger()} exists, or null for none
     */
    public SinkContainer(Stand stand, SinkCrash.Point crash) {
        this(requireDsSink(stand), "target/sink-b5", List.of("--clickhouse-timeout", CLICKHOUSE_TIMEOUT.toSeconds() + "s",
                "--instance-id", INSTANCE_ID, "--for", "60m"), crash);
    }

    /** @return the stand, after checking that the sink under test is ds-sink: this process is ds-sink's (B5's sink faults) */
    private static Stand requireDsSink(Stand stand) {
        SinkUnderTest.requireDsSink("the claim runs ds-sink's process in a container");
        return stand;
    }

    private SinkContainer(Stand stand, String stateDir, List<String> options, SinkCrash.Point crash) {
        this.stand = stand;
        Path state = Project.root().resolve(stateDir);
        this.crashTrigger = state.resolve("crash-trigger");
        this.process = new JvmContainer("sink", Images.fromSystemProperties().image("jre"), stand.network(),
                Project.root().resolve("target/stand-logs")).withStateDir(state)
                .withEnv(Secrets.CLICKHOUSE_ENV, stand.clickhouseTarget().password());
        try {
            Files.deleteIfExists(crashTrigger);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<String> args = new ArrayList<>(List.of("sink", "--bootstrap-servers", stand.kafkaOnNetwork(),
                "--clickhouse", "http://clickhouse:8123", "--clickhouse-user", stand.clickhouseTarget().user(),
                "--clickhouse-database", stand.clickhouseTarget().database(), "--mode", "totals",
                "--group", RunNames.SINK_GROUP));
        args.addAll(options);
        if (crash != null) {
            args.addAll(List.of("--crash-at", crash.cliName(), "--crash-trigger", crashTrigger.toString()));
        }
        process.running("dev.seams.cli.SeamsCli", args);
    }

    /**
     * The sink as it is deployed ({@code seams stand up}, {@code standup/StandUp}): the shipped defaults, dynamic membership,
     * {@code --run-until-stopped} (ends gracefully on SIGTERM).
     *
     * @param stand the running stand
     * @return the sink, not started
     */
    public static SinkContainer deployed(Stand stand) {
        return new SinkContainer(stand, "target/sink-stand", List.of("--run-until-stopped"), null);
    }

    /** Starts a new process and waits (up to 2 min) until the group has assigned it its partitions. */
    public void start() {
        Groups.of(stand.admin()).startHeldByNewMember(RunNames.SINK_GROUP, process::start, Duration.ofMinutes(2));
    }

    /** A new process with the same command and static membership ({@link #start}). */
    @Override
    public void restart() {
        start();
    }

    /** @return {@value DsSink#NAME} */
    @Override
    public String name() {
        return DsSink.NAME;
    }

    /** @return its one group, {@link RunNames#SINK_GROUP} */
    @Override
    public List<String> groups() {
        return List.of(RunNames.SINK_GROUP);
    }

    /** @return the current (or last) start's output so far */
    @Override
    public String output() {
        return process.output();
    }

    /** @return true: ds-sink logs each failed write ({@code nothing committed}) */
    @Override
    public boolean logsRetries() {
        return true;
    }

    @Override
    public ContainerControl process(String why) {
        return process.control();
    }

    @Override
    public java.util.Optional<String> exited() {
        return RunningSink.exited(process.control(), process.output());
    }

    @Override
    public boolean isConnected() {
        return process.isConnected();
    }

    /** @return the file whose appearance arms the crash point; deleted by the sink when it fires */
    public Path crashTrigger() {
        return crashTrigger;
    }

    /** @return the process, for kill, pause and network cut */
    public JvmContainer container() {
        return process;
    }

    /** Stops the process gracefully and removes its member from the group. */
    @Override
    public void close() {
        process.stop();
        Groups.of(stand.admin()).removeAllMembers(RunNames.SINK_GROUP);
    }
}
