package dev.seams.it;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.seams.faults.Sigkill;
import dev.seams.fixture.Pipeline;
import dev.seams.fixture.StandContext;
import dev.seams.project.Project;
import dev.seams.sink.ClickHouseTarget;
import dev.seams.stand.Images;
import dev.seams.stand.JvmContainer;
import dev.seams.stand.Stand;
import dev.seams.truth.Pg;
import dev.seams.truth.RunNames;
import dev.seams.truth.StreamsLogs;
import dev.seams.truth.Topics;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.testcontainers.containers.Network;
import org.testcontainers.utility.DockerImageName;

/**
 * Scratch proof of {@link JvmContainer} (the project's processes as fault targets of claim B5, and of
 * G13/G14 once {@code StreamsProcess} moves onto it): ds-streams in a JRE container on the stand's
 * network, killed, restarted on the same state directory, cut off the broker, paused, stopped; and one
 * sink run in a container. No claim: plain asserts, and the figures printed as {@code measured name = value}
 * lines. The host ds-streams is stopped for the test (one instance in the group) and started again after.
 * It takes about 5 minutes (each start of ds-streams waits out the previous member's 45 s session), so it
 * runs only when asked for: {@code -Dit.test=JvmContainerIT}.
 */
@EnabledIfSystemProperty(named = "seams.it.test", matches = ".*JvmContainerIT.*",
        disabledReason = "scratch proof of stand/JvmContainer (~5 min): run it with -Dit.test=JvmContainerIT")
class JvmContainerIT {

    private static final String RUNNING = "streams state: REBALANCING -> RUNNING";
    private static final Pattern INSERTED = Pattern.compile("sink: inserted=(\\d+)");
    private static final int BATCH = 30;
    private static final Duration CUT = Duration.ofSeconds(30);

    private final Map<String, Object> measured = new LinkedHashMap<>();
    private Stand stand;
    private Topics topics;
    private DockerImageName jre;
    private Network network;
    private Path logDir;
    private JvmContainer streams;
    private long seed = 7100;

    @BeforeEach
    void standUp() {
        stand = StandContext.running();
        topics = stand.topics();
        jre = Images.fromSystemProperties().image("jre");
        network = stand.network();
        logDir = Project.root().resolve("target/stand-logs");
    }

    @AfterEach
    void restoreHostStreams() {
        if (stand == null) {   // the @BeforeEach found no stand of its own (an external one): nothing was started
            return;
        }
        if (streams != null) {
            streams.close();
        }
        if (!stand.streams().isAlive()) {
            stand.streams().start();
        }
        measured.forEach((name, value) -> System.out.println("measured " + name + " = " + value));
    }

    /** ds-streams moves from the host JVM into a container: one instance in the group, a fresh state directory. */
    @Test
    void streamsInAContainerSurvivesEveryFault() throws IOException {
        stand.streams().stop();
        Path stateDir = Files.createTempDirectory(Files.createDirectories(Project.root().resolve("target")), "streams-state-container-");
        streams = new JvmContainer("streams-container", jre, network, logDir).withStateDir(stateDir)
                .running("dev.seams.cli.StreamsCommand", List.of("--bootstrap-servers", stand.kafkaOnNetwork(), "--state-dir", stateDir.toString()));
        measured.put("jre_image", jre.asCanonicalNameString());
        measured.put("first_start_to_running_s", startAndTime());
        long totalsBefore = topics.totalEndOffset(RunNames.CUSTOMER_TOTALS);
        settleAfterSeeding();
        long totalsAfter = topics.totalEndOffset(RunNames.CUSTOMER_TOTALS);
        measured.put("customer_totals_end_offset_advance", totalsAfter - totalsBefore);
        assertTrue(totalsAfter > totalsBefore, "customer.totals advanced: " + totalsBefore + " -> " + totalsAfter);

        killAndRestart();
        networkCut();
        pauseAndThaw();
        gracefulStopAndRestart();
    }

    @Test
    void sinkInAContainerReachesKafkaAndClickHouseByAlias() {
        ClickHouseTarget ch = stand.clickhouseTarget();
        settleAfterSeeding();
        try (JvmContainer sink = new JvmContainer("sink-container", jre, network, logDir)
                .running("dev.seams.cli.SeamsCli", List.of("sink", "--bootstrap-servers", stand.kafkaOnNetwork(),
                        "--clickhouse", "http://clickhouse:8123", "--clickhouse-user", ch.user(),
                        "--clickhouse-password", ch.password(), "--clickhouse-database", ch.database(),
                        "--group", "ds-sink-container-it", "--from-start", "--until-idle", "5s"))) {
            long t0 = System.nanoTime();
            sink.start();
            int exit = sink.awaitExit(Duration.ofMinutes(3));
            measured.put("sink_run_s", seconds(t0));
            measured.put("sink_exit", exit);
            String summary = sink.output().lines().filter(l -> l.startsWith("sink:")).findFirst().orElse("");
            measured.put("sink_summary", summary);
            assertEquals(0, exit, "sink exit code, see " + sink.logFile());
            Matcher m = INSERTED.matcher(summary);
            assertTrue(m.find() && Long.parseLong(m.group(1)) > 0, "the sink inserted customer.totals records into ClickHouse");
        }
    }

    private void killAndRestart() {
        int exit = streams.kill();
        measured.put("kill_exit", exit);
        Sigkill.require("ds-streams container", exit);
        assertFalse(streams.isAlive(), "killed container still alive");
        long lag = seedAndAwaitLag();
        measured.put("lag_while_killed", lag);
        assertEquals(BATCH, lag, "ds-streams lag with the process dead");

        measured.put("restart_after_kill_to_running_s", startAndTime());
        measured.put("task_corrupted_after_kill", StreamsLogs.taskCorrupted(streams.output()));
        long t0 = System.nanoTime();
        Pipeline.awaitStreamsMatchesPg(stand);
        measured.put("restart_after_kill_running_to_caught_up_s", seconds(t0));
    }

    private void networkCut() {
        int logAtCut = streams.output().length();
        measured.put("ip_before_cut", streams.networkAddress().orElse("none"));
        streams.disconnect();
        long cut = System.nanoTime();
        assertFalse(streams.isConnected(), "the container still lists the stand's network");
        long lag = seedAndAwaitLag();
        await("ds-streams stays alive and behind for 30 s without the network (B5's cut)").during(CUT)
                .atMost(CUT.multipliedBy(3)).pollInterval(Duration.ofSeconds(1))
                .until(() -> streams.isAlive() && topics.lag(Pipeline.STREAMS_GROUP, RunNames.ORDERS_EVENTS) >= BATCH);
        measured.put("lag_during_cut", lag);
        measured.put("cut_seconds", seconds(cut));
        streams.reconnect();
        long healed = System.nanoTime();
        assertTrue(streams.isConnected(), "the container is back on the stand's network");
        measured.put("ip_after_reconnect", streams.networkAddress().orElse("none"));
        await("ds-streams lag 0 after reconnect").atMost(Duration.ofMinutes(5)).pollInterval(Duration.ofMillis(500))
                .until(() -> topics.lag(Pipeline.STREAMS_GROUP, RunNames.ORDERS_EVENTS) == 0);
        measured.put("reconnect_to_lag0_s", seconds(healed));
        Pipeline.awaitStreamsMatchesPg(stand);
        String during = streams.output().substring(logAtCut);
        measured.put("alive_after_cut_without_restart", streams.isAlive());
        measured.put("state_transitions_around_cut", during.lines().filter(l -> l.startsWith("streams state:")).toList());
        measured.put("warn_error_lines_around_cut", during.lines().filter(l -> l.contains(" WARN ") || l.contains(" ERROR ")).count());
        measured.put("first_warn_around_cut", during.lines().filter(l -> l.contains(" WARN ") || l.contains(" ERROR ")).findFirst().orElse(""));
        assertTrue(streams.isAlive(), "ds-streams survived the cut");
    }

    private void pauseAndThaw() {
        streams.pause();
        assertTrue(streams.isPaused(), "Docker reports the container paused");
        long lag = seedAndAwaitLag();
        measured.put("lag_while_paused", lag);
        streams.unpause();
        long thawed = System.nanoTime();
        assertFalse(streams.isPaused(), "Docker reports the container running again");
        Pipeline.awaitStreamsMatchesPg(stand);
        measured.put("unpause_to_caught_up_s", seconds(thawed));
    }

    private void gracefulStopAndRestart() {
        int exit = streams.stop();
        measured.put("graceful_stop_exit", exit);
        assertTrue(streams.output().contains("shutdown requested"), "the JVM ran its shutdown hook");
        measured.put("restart_after_stop_to_running_s", startAndTime());
        Pipeline.awaitStreamsMatchesPg(stand);
    }

    /** Starts the container and waits for RUNNING; @return seconds from start to RUNNING. */
    private double startAndTime() {
        long t0 = System.nanoTime();
        streams.start();
        streams.awaitOutput(RUNNING, Duration.ofMinutes(3));
        return seconds(t0);
    }

    private void settleAfterSeeding() {
        Pg.of(stand).seed(BATCH, 5, seed++);
        Pipeline.awaitStreamsMatchesPg(stand);
    }

    /** Seeds {@value #BATCH} orders, waits until Debezium published them; @return ds-streams' lag then. */
    private long seedAndAwaitLag() {
        long end = topics.totalEndOffset(RunNames.ORDERS_EVENTS);
        Pg.of(stand).seed(BATCH, 5, seed++);
        Pipeline.awaitOrdersEvents(stand, end + BATCH);
        return topics.lag(Pipeline.STREAMS_GROUP, RunNames.ORDERS_EVENTS);
    }

    private static double seconds(long startNanos) {
        return Math.round((System.nanoTime() - startNanos) / 1e8) / 10.0;
    }
}
