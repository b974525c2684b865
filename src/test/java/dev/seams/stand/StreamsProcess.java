package dev.seams.stand;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * The Kafka Streams app ({@code ds-streams}) as its own JVM ({@link JvmProcess}), so a test can
 * SIGKILL it and restart it with the same state directory (claims G13, G14). Its output goes to
 * {@code target/stand-logs/streams-N.log}.
 */
public final class StreamsProcess {

    private static final String RUNNING = "streams state: REBALANCING -> RUNNING";

    private final JvmProcess process;

    /**
     * @param bootstrapServers the broker as seen from this host
     * @param stateDir         the state directory, kept across restarts
     * @param logDir           where each start's output goes
     */
    public StreamsProcess(String bootstrapServers, Path stateDir, Path logDir) {
        try {
            Files.createDirectories(stateDir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        this.process = new JvmProcess("streams", "dev.seams.streams.StreamsApp",
                List.of("--bootstrap-servers", bootstrapServers, "--state-dir", stateDir.toString()), logDir);
    }

    /**
     * Starts the app and waits (up to 3 min) until it logs {@code REBALANCING -> RUNNING}.
     *
     * @throws IllegalStateException if it is already running or exits early
     */
    public void start() {
        process.start();
        process.awaitOutput(RUNNING, Duration.ofMinutes(3));
    }

    /** @return the exit status after SIGKILL: 137 proves the kill took effect */
    public int kill() {
        return process.kill();
    }

    /** Stops the app gracefully (its shutdown hook closes Kafka Streams). */
    public void stop() {
        process.stop();
    }

    /** @return whether the process is alive */
    public boolean isAlive() {
        return process.isAlive();
    }

    /** @return the current start's output so far */
    public String logText() {
        return process.output();
    }
}
