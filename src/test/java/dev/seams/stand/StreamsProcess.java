package dev.seams.stand;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The Kafka Streams app ({@code ds-streams}) as its own JVM, so a test can SIGKILL it and restart
 * it with the same state directory (claims G13, G14). It runs the project's classes with the test
 * JVM's java and classpath; its output goes to {@code target/stand-logs/streams-N.log}.
 */
public final class StreamsProcess {

    private static final String RUNNING = "streams state: REBALANCING -> RUNNING";

    private final String bootstrapServers;
    private final Path stateDir;
    private final Path logDir;
    private Process process;
    private Path log;
    private int starts;

    /**
     * @param bootstrapServers the broker as seen from this host
     * @param stateDir         the state directory, kept across restarts
     * @param logDir           where each start's output goes
     */
    public StreamsProcess(String bootstrapServers, Path stateDir, Path logDir) {
        this.bootstrapServers = bootstrapServers;
        this.stateDir = stateDir;
        this.logDir = logDir;
    }

    /**
     * Starts the app and waits (up to 3 min) until it logs {@code REBALANCING -> RUNNING}.
     *
     * @throws IllegalStateException if it is already running, exits early, or never gets to RUNNING
     */
    public synchronized void start() {
        if (process != null && process.isAlive()) {
            throw new IllegalStateException("ds-streams is already running (pid " + process.pid() + ")");
        }
        starts++;
        log = logDir.resolve("streams-" + starts + ".log");
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElse("java"));
        command.add("-Xmx512m");
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add("dev.seams.streams.StreamsApp");
        command.add("--bootstrap-servers");
        command.add(bootstrapServers);
        command.add("--state-dir");
        command.add(stateDir.toString());
        try {
            Files.createDirectories(logDir);
            Files.createDirectories(stateDir);
            process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start ds-streams", e);
        }
        Process started = process;
        Path startLog = log;
        await("ds-streams RUNNING (log " + log + ")").atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(250))
                .until(() -> {
                    if (!started.isAlive()) {
                        throw new IllegalStateException("ds-streams exited with " + started.exitValue() + ", see " + log);
                    }
                    return read(startLog).contains(RUNNING);
                });
    }

    /**
     * Sends SIGKILL (kill -9) and waits for the process to end.
     *
     * @return the exit status the OS reported: 137 (128 + SIGKILL) proves the kill took effect
     */
    public synchronized int kill() {
        if (process == null) {
            throw new IllegalStateException("ds-streams was never started");
        }
        process.destroyForcibly();
        try {
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                throw new IllegalStateException("ds-streams did not die within 60 s of SIGKILL");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        return process.exitValue();
    }

    /** Stops the app gracefully (SIGTERM, the shutdown hook closes Kafka Streams), SIGKILL after 60 s. */
    public synchronized void stop() {
        if (process == null || !process.isAlive()) {
            return;
        }
        process.destroy();
        try {
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** @return whether the process is alive */
    public synchronized boolean isAlive() {
        return process != null && process.isAlive();
    }

    /** @return the current start's output so far */
    public synchronized String logText() {
        return log == null ? "" : read(log);
    }

    private static String read(Path file) {
        try {
            return Files.exists(file) ? new String(Files.readAllBytes(file), StandardCharsets.UTF_8) : "";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
