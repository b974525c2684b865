package dev.seams.stand;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.testcontainers.containers.Network;
import org.testcontainers.utility.DockerImageName;

/**
 * The Kafka Streams app ({@code ds-streams}) as its own JVM in a JRE container on the stand's network
 * ({@link JvmContainer}), so a test can SIGKILL it and restart it with the same state directory
 * (claims G13, G14), and freeze it or cut it off the broker (B5, {@link #container()}). Its output goes
 * to {@code target/stand-logs/streams-N.log}.
 */
public final class StreamsProcess {

    private static final String RUNNING = "streams state: REBALANCING -> RUNNING";

    private final JvmContainer process;

    /**
     * @param jre      the profile's JRE image (service {@code jre} of {@code containers/images.properties})
     * @param network  the stand's network, where the broker is {@value Stand#KAFKA_ON_NETWORK}
     * @param stateDir the state directory, kept across restarts (bind-mounted at the same path)
     * @param logDir   where each start's output goes
     */
    public StreamsProcess(DockerImageName jre, Network network, Path stateDir, Path logDir) {
        this.process = new JvmContainer("streams", jre, network, logDir).withStateDir(stateDir)
                .running("dev.seams.streams.StreamsApp",
                        List.of("--bootstrap-servers", Stand.KAFKA_ON_NETWORK, "--state-dir", stateDir.toString()));
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

    /** @return its container, for the faults a host process cannot suffer: pause, network cut (B5) */
    public JvmContainer container() {
        return process;
    }
}
