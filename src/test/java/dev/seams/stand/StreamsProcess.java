package dev.seams.stand;

import dev.seams.project.Project;
import dev.seams.truth.Groups;
import dev.seams.truth.RunNames;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.testcontainers.containers.Network;
import org.testcontainers.utility.DockerImageName;

/**
 * The Kafka Streams app ({@code ds-streams}) as its own JVM in a JRE container on the stand's network
 * ({@link JvmContainer}), so a test can SIGKILL it and restart it with the same state directory
 * (claims G13, G14, B9), and freeze it or cut it off the broker (B5, {@link #container()}). Its output goes
 * to {@code target/stand-logs/streams-N.log}.
 *
 * <p>Membership (claim B9): the stand runs it with static membership under {@value #STAND_INSTANCE_ID}
 * ({@code --instance-id}; the group's member is {@value #STAND_INSTANCE_ID}{@code -1}, Kafka Streams appends
 * the thread index), so a process killed and started again takes its tasks back at once instead of waiting
 * out the killed member's session ({@code session.timeout.ms}, Kafka's default 45 s). {@link #membership}
 * switches to dynamic membership (or another id) for the next start. A graceful {@link #stop()} also removes
 * the departed member from the group (Kafka Streams' close does not leave it), so the next start, or an
 * application reset, finds the group empty.
 */
public final class StreamsProcess {

    /** The stand's static membership id of ds-streams ({@code --instance-id}). */
    public static final String STAND_INSTANCE_ID = "ds-streams-stand";

    /** What the app prints when Kafka Streams starts: its JVM is up and its clients are built (StreamsApp's state listener). */
    public static final String STARTING = "streams state: CREATED -> REBALANCING";
    /** What the app prints when it has joined its group and restored its tasks (StreamsApp's state listener). */
    public static final String RUNNING = "streams state: REBALANCING -> RUNNING";
    private static final String MAIN_CLASS = "dev.seams.cli.StreamsCommand";

    private final JvmContainer process;
    private final Path stateDir;
    private final Stand stand;
    private String instanceId = STAND_INSTANCE_ID;
    private boolean productDefault;

    /**
     * @param jre      the profile's JRE image (service {@code jre} of {@code containers/images.properties})
     * @param network  the stand's network, where the brokers are {@link Stand#kafkaOnNetwork()}
     * @param stateDir the state directory, kept across restarts (bind-mounted at the same path)
     * @param logDir   where each start's output goes
     * @param stand    the stand, whose admin client removes a stopped process's member from the group
     */
    public StreamsProcess(DockerImageName jre, Network network, Path stateDir, Path logDir, Stand stand) {
        this.process = new JvmContainer("streams", jre, network, logDir).withStateDir(stateDir);
        this.stateDir = stateDir;
        this.stand = stand;
        command();
    }

    /**
     * As the constructor, after removing whatever an earlier run left in the state directory (the stand's ds-streams
     * starts from the empty state a new deployment has).
     *
     * @throws UncheckedIOException if the directory cannot be emptied
     */
    static StreamsProcess withEmptyState(DockerImageName jre, Network network, Path stateDir, Path logDir, Stand stand) {
        Project.deleteTree(stateDir);
        return new StreamsProcess(jre, network, stateDir, logDir, stand);
    }

    /**
     * Sets the membership of the next {@link #start()} (the state directory stays the same).
     *
     * @param id the static membership id ({@code --instance-id}), or null for dynamic membership
     * @return this
     * @throws IllegalStateException if the app is running
     */
    public synchronized StreamsProcess membership(String id) {
        if (isAlive()) {
            throw new IllegalStateException("ds-streams is running: stop or kill it before changing its membership");
        }
        this.instanceId = id;
        this.productDefault = false;
        command();
        return this;
    }

    /**
     * Sets the next {@link #start()} to run with no membership option at all: {@code seams streams}' own default (claim
     * B9: static, its id kept in the state directory, {@code streams/StaticIdentity}). {@link #instanceId()} is then null.
     *
     * @return this
     * @throws IllegalStateException if the app is running
     */
    public synchronized StreamsProcess productDefaultMembership() {
        membership(null);
        this.productDefault = true;
        command();
        return this;
    }

    /** @return the state directory, kept across restarts */
    public Path stateDir() {
        return stateDir;
    }

    /** @return the static membership id the app runs (or will run) with, or null for dynamic membership */
    public synchronized String instanceId() {
        return instanceId;
    }

    private void command() {
        List<String> args = new ArrayList<>(List.of("--bootstrap-servers", stand.kafkaOnNetwork(), "--state-dir", stateDir.toString()));
        if (!productDefault) {
            args.addAll(instanceId != null ? List.of("--instance-id", instanceId) : List.of("--dynamic-membership"));
        }
        process.running(MAIN_CLASS, args);
    }

    /**
     * Starts the app without waiting for it ({@link #awaitRunning()} does).
     *
     * @throws IllegalStateException if it is already running
     */
    public synchronized void launch() {
        process.start();
    }

    /**
     * Waits (up to 3 min) until the current start logged {@code REBALANCING -> RUNNING}.
     *
     * @throws IllegalStateException if it exits first
     */
    public void awaitRunning() {
        process.awaitOutput(RUNNING, Duration.ofMinutes(3));
    }

    /**
     * Starts the app and waits (up to 3 min) until it logs {@code REBALANCING -> RUNNING}.
     *
     * @throws IllegalStateException if it is already running or exits early
     */
    public void start() {
        launch();
        awaitRunning();
    }

    /** @return the exit status after SIGKILL: 137 proves the kill took effect (a static member stays in the group) */
    public int kill() {
        return process.kill();
    }

    /**
     * Stops the app gracefully (its shutdown hook closes Kafka Streams, committing its work) and removes its
     * member from the group: Kafka Streams' close does not leave the group (its consumers keep
     * {@code internal.leave.group.on.close=false}, and a static member never leaves on close), so without it
     * the next start would wait out the departed member's session. Idempotent.
     */
    public synchronized void stop() {
        process.stop();
        Groups.of(stand.admin()).removeAllMembers(RunNames.STREAMS_GROUP);
    }

    /**
     * Ends the app without a graceful close and removes its container: for the stand's own shutdown,
     * when nothing runs after it (no group membership to clean up, no 30 s close to wait for). Idempotent.
     */
    public synchronized void discard() {
        try {
            if (process.isAlive()) {
                process.kill();
            }
        } finally {
            process.stop();   // removes a container that exited by itself meanwhile, or nothing (idempotent)
        }
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
