package dev.seams.stand;

import static org.awaitility.Awaitility.await;

import com.github.dockerjava.api.model.AccessMode;
import com.github.dockerjava.api.model.Bind;
import com.github.dockerjava.api.model.Volume;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.Network;
import org.testcontainers.utility.DockerImageName;

/**
 * A main class of this project (e.g. {@code dev.seams.cli.StreamsCommand}, {@code dev.seams.cli.SeamsCli sink})
 * run as its own JVM in a container of the profile's JRE image (service {@code jre} of
 * {@code containers/images.properties}) on the stand's {@link Network}: it reaches the servers by
 * their aliases ({@code kafka:19092}, {@code clickhouse:8123}, {@code postgres:5432}) and is a fault
 * target as a whole (claim B5; G13/G14 for ds-streams): SIGKILL with exit code 137 as proof, graceful
 * stop, a new start on the same bind-mounted state directory, {@code docker pause}, and a network cut
 * ({@code docker network disconnect}/{@code connect}), which a process on the host cannot suffer.
 *
 * <ul>
 *   <li>Classpath: {@link RuntimeClasspath}, every entry bind-mounted read-only at its own absolute path,
 *       {@code target/classes} packed into a jar; the JVM ({@code java} is the entrypoint, so PID 1) runs with
 *       {@value #HEAP} and its start cache ({@link JvmStartCache}: class-data archive, unpacked native libraries; a restart after kill -9 is up sooner).</li>
 *   <li>Each {@link #start()} creates a new container (same alias, mounts and command) whose output goes to
 *       {@code <logDir>/<name>-<n>.log}; {@link #kill()}, {@link #stop()} and {@link #awaitExit(Duration)}
 *       remove it once its exit code is read. Directories given to {@link #withStateDir(Path)} survive.</li>
 *   <li>The process runs as the owner of the project directory, so what it writes stays deletable here.</li>
 *   <li>Every container carries {@link #labels()} (Ryuk is off; {@code .ci/run} removes the leftovers of runs that are gone).</li>
 *   <li>Docker is driven through Testcontainers (docker-java, {@link ContainerControl}), never a shell.</li>
 * </ul>
 */
public final class JvmContainer implements AutoCloseable {

    /** The label every stand container carries, value {@code true}. */
    public static final String LABEL = "dev.seams.stand";
    /**
     * The label naming the process that started the container (its pid on the Docker host): a sweep of leftovers
     * ({@code .ci/run}, the mutation tier) removes a container only when that process is gone, never a stand a person
     * or another run still has up.
     */
    public static final String OWNER_LABEL = "dev.seams.stand.owner";

    /** @return the labels every stand container carries: {@link #LABEL} and this process as its {@link #OWNER_LABEL} */
    public static Map<String, String> labels() {
        return Map.of(LABEL, "true", OWNER_LABEL, Long.toString(ProcessHandle.current().pid()));
    }
    /** The JVM's heap limit: the machines have 2 cores and the stand runs five servers beside it. */
    public static final String HEAP = "-Xmx384m";
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration LOG_DRAIN = Duration.ofSeconds(10);
    /** The port of the JDWP agent in the container ({@link #withDebugAgent(boolean)}). */
    private static final int DEBUG_PORT = 5005;

    private final String name;
    private final DockerImageName image;
    private final Network network;
    private final Path logDir;
    private final List<Path> stateDirs = new ArrayList<>();
    private List<Path> classpath = List.of();
    private JvmStartCache startCache;
    private String mainClass;
    private List<String> args = List.of();
    private final java.util.Map<String, String> env = new java.util.LinkedHashMap<>();
    // read by Awaitility's poller threads and the query methods, written under this object's lock
    private volatile GenericContainer<?> container;
    private volatile ContainerControl control;
    private volatile ContainerLog log;
    private int starts;
    private boolean debugAgent;

    /**
     * @param name    a short name: the network alias and the log files' prefix, e.g. {@code streams}
     * @param image   a JRE 17+ image with {@code java} on its PATH
     * @param network the stand's network
     * @param logDir  where each start's output goes
     */
    public JvmContainer(String name, DockerImageName image, Network network, Path logDir) {
        this.name = name;
        this.image = image;
        this.network = network;
        this.logDir = logDir;
    }

    /**
     * Bind-mounts a directory read-write at the same absolute path in every container of this process.
     *
     * @param dir created here if missing; kept across {@link #kill()} and {@link #start()}
     * @return this
     */
    public JvmContainer withStateDir(Path dir) {
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + dir, e);
        }
        stateDirs.add(dir.toAbsolutePath());
        return this;
    }

    /**
     * Sets an environment variable of every later start (e.g. a password the process reads from its environment).
     *
     * @return this
     */
    public JvmContainer withEnv(String key, String value) {
        env.put(key, value);
        return this;
    }

    /**
     * Runs every later start with (or without) the JDK's debugger agent (JDWP, {@code suspend=n}: the process starts and
     * runs as without it until a debugger attaches), its port published on the Docker host's loopback interface where
     * the Docker host is this machine. For faults that must strike at an exact point of the program
     * ({@code faults/JvmHalt}). A start with the agent writes no class-data archive (the JDK refuses to dump one beside
     * a JVMTI agent); it uses one written before.
     *
     * @param on whether later starts run with the agent
     * @return this
     */
    public synchronized JvmContainer withDebugAgent(boolean on) {
        this.debugAgent = on;
        return this;
    }

    /**
     * @return where a debugger reaches the JDWP agent of the current start (host and published port)
     * @throws IllegalStateException if the current start runs without the agent ({@link #withDebugAgent(boolean)}) or none runs
     */
    public synchronized InetSocketAddress debugAgent() {
        GenericContainer<?> c = container;
        if (c == null || !c.getExposedPorts().contains(DEBUG_PORT)) {
            throw new IllegalStateException(name + (c == null ? " is not running" : " runs without a debugger agent (withDebugAgent)"));
        }
        return InetSocketAddress.createUnresolved(c.getHost(), c.getMappedPort(DEBUG_PORT));
    }

    /** @return whether the current start runs with the debugger agent ({@link #withDebugAgent(boolean)} at its start) */
    public synchronized boolean runsWithDebugAgent() {
        GenericContainer<?> c = container;
        return c != null && c.getExposedPorts().contains(DEBUG_PORT);
    }

    /**
     * @return this, running {@code java -Xmx384m <AppCDS flags> -cp <RuntimeClasspath> mainClass args...}
     *     ({@link JvmStartCache}: target/classes as a jar, the class-data archive used or written, native libraries unpacked)
     */
    public JvmContainer running(String mainClass, List<String> args) {
        this.startCache = JvmStartCache.of(name, image, RuntimeClasspath.entries());
        this.classpath = startCache.classpath();
        this.mainClass = mainClass;
        this.args = List.copyOf(args);
        return this;
    }

    /** @return the command of the next start: the archive's flags are decided per start (it appears after a graceful exit) */
    private List<String> command() {
        List<String> c = new ArrayList<>(List.of(HEAP));
        if (debugAgent) {
            c.add("-agentlib:jdwp=transport=dt_socket,server=y,suspend=n,address=*:" + DEBUG_PORT);
        }
        c.addAll(startCache.jvmFlags(!debugAgent));
        c.addAll(List.of("-cp", String.join(File.pathSeparator, classpath.stream().map(Path::toString).toList()), mainClass));
        c.addAll(args);
        return c;
    }

    /**
     * Creates and starts a new container without waiting for the process to be ready
     * ({@link #awaitOutput(String, Duration)} does that).
     *
     * @throws IllegalStateException if one is already running or no main class was set
     * @throws org.testcontainers.containers.ContainerLaunchException if Docker cannot start it
     */
    public synchronized void start() {
        if (mainClass == null || isAlive()) {
            throw new IllegalStateException(name + (mainClass == null ? " has no main class" : " is already running"));
        }
        remove();
        starts++;
        log = new ContainerLog(logDir.resolve(name + "-" + starts + ".log"));
        GenericContainer<?> c = new GenericContainer<>(image)
                .withNetwork(network).withNetworkAliases(name)
                .withLabels(labels())
                .withEnv(env)
                .withLogConsumer(log)
                .withStartupCheckStrategy(new JvmLaunch.Launched())
                // binds through docker-java, not withFileSystemBind: for a file Testcontainers first checks that
                // file mounts work by running alpine, which it tries to pull for minutes on a machine without a registry
                .withCreateContainerCmdModifier(cmd -> cmd.withEntrypoint("java").withUser(JvmLaunch.projectOwner())
                        .getHostConfig().withBinds(binds()))
                .withCommand(command().toArray(String[]::new));
        if (debugAgent) {
            // published, but not waited for: a port check's bare connection is a failed JDWP handshake to the agent
            c.withExposedPorts(DEBUG_PORT).waitingFor(new JvmLaunch.NoWait())
                    .withCreateContainerCmdModifier(cmd -> JvmLaunch.loopbackOnly(cmd.getHostConfig(), DEBUG_PORT));
        }
        container = c;
        try {
            c.start();
        } catch (RuntimeException e) {
            remove();
            throw e;
        }
        control = new ContainerControl(c.getContainerId());
    }

    /**
     * Waits until the current start's output contains the text.
     *
     * @throws IllegalStateException if the process exits first (with its exit code and log file)
     * @throws org.awaitility.core.ConditionTimeoutException after the timeout
     */
    public void awaitOutput(String text, Duration timeout) {
        ContainerLog startLog = log;
        ContainerControl started = control;
        await(name + " prints '" + text + "' (log " + startLog.file() + ")").atMost(timeout).pollInterval(Duration.ofMillis(100))
                .until(() -> {
                    if (startLog.text().contains(text)) {
                        return true;
                    }
                    if (!started.isRunning()) {
                        throw new IllegalStateException(name + " exited with " + started.exitCode() + ", see " + startLog.file());
                    }
                    return false;
                });
    }

    /**
     * Waits for the process to end by itself, then removes the container.
     *
     * @return its exit code
     * @throws org.awaitility.core.ConditionTimeoutException if it still runs after the timeout
     */
    public int awaitExit(Duration timeout) {
        await(name + " exits").atMost(timeout).pollInterval(Duration.ofMillis(250)).until(() -> !isAlive());
        return finish(control.exitCode());
    }

    /**
     * Sends SIGKILL (kill -9; a paused container is thawed first) and waits for the container to stop.
     *
     * @return the exit code: 137 (128 + SIGKILL) proves the kill ({@code faults/Sigkill}); throws if none runs
     */
    public synchronized int kill() {
        return finish(running().kill());
    }

    /**
     * Stops the process gracefully: SIGTERM (the JVM runs its shutdown hooks), SIGKILL after 60 s.
     * Idempotent.
     *
     * @return the exit code (143 = 128 + SIGTERM after the JVM's shutdown hooks ran, 137 if it had to be
     *     killed), or -1 if nothing was running
     */
    public synchronized int stop() {
        if (!isAlive()) {
            remove();
            return -1;
        }
        return finish(control.stop(STOP_TIMEOUT));
    }

    /**
     * Halts the process with SIGSTOP (its threads stop where they are; it can then be killed without
     * running again, see {@link ContainerControl#signal}); {@link #resume()} lets it go on.
     */
    public synchronized void suspend() {
        running().signal("STOP");
    }

    /** Lets a process halted by {@link #suspend()} go on (SIGCONT). */
    public synchronized void resume() {
        running().signal("CONT");
    }

    /** Freezes the process ({@code docker pause}); proof: {@link #isPaused()}. */
    public synchronized void pause() {
        running().pause();
    }

    /** Thaws a paused process; does nothing if it is not paused. */
    public synchronized void unpause() {
        running().unpause();
    }

    /**
     * Cuts the process off the stand's network ({@code docker network disconnect}): its connections
     * to the servers hang, nothing reaches either end. Proof: {@link #isConnected()} is false.
     */
    public synchronized void disconnect() {
        running().disconnect(network);
    }

    /** Attaches the process to the stand's network again, under its alias ({@code docker network connect}). */
    public synchronized void reconnect() {
        running().connect(network, name);
    }

    /** @return whether Docker lists the stand's network among the container's networks */
    public boolean isConnected() {
        return networkAddress().isPresent();
    }

    /** @return the container's IP address on the stand's network; empty when cut off or not running */
    public Optional<String> networkAddress() {
        ContainerControl c = control;
        return c == null ? Optional.empty() : c.address(network);
    }

    /** @return whether the container is paused, as Docker reports it */
    public boolean isPaused() {
        ContainerControl c = control;
        return c != null && c.isPaused();
    }

    /** @return whether the process runs (a paused one too) */
    public boolean isAlive() {
        ContainerControl c = control;
        return c != null && c.isRunning();
    }

    /** @return the current (or last) start's output so far */
    public String output() {
        ContainerLog l = log;
        return l == null ? "" : l.text();
    }

    /** @return the current (or last) start's log file, or null before the first start */
    public Path logFile() {
        ContainerLog l = log;
        return l == null ? null : l.file();
    }

    /** @return Docker's operations on the running container (a fault this class lacks); throws if none runs */
    public ContainerControl control() {
        return running();
    }

    /** Stops the process gracefully and removes its container ({@link #stop()}). */
    @Override
    public void close() {
        stop();
    }

    private synchronized int finish(int exitCode) {
        log.awaitEnd(LOG_DRAIN);
        remove();
        startCache.settle(exitCode);
        return exitCode;
    }

    private synchronized void remove() {
        if (container != null) {
            container.stop();
            container = null;
            control = null;
        }
    }

    private ContainerControl running() {
        ContainerControl c = control;
        if (c == null || !c.isRunning()) {
            throw new IllegalStateException(name + " is not running");
        }
        return c;
    }

    private List<Bind> binds() {
        List<Bind> binds = new ArrayList<>();
        classpath.stream().filter(p -> !p.startsWith(startCache.dir()))   // the packed classes are in the cache directory
                .forEach(p -> binds.add(new Bind(p.toString(), new Volume(p.toString()), AccessMode.ro)));
        stateDirs.forEach(p -> binds.add(new Bind(p.toString(), new Volume(p.toString()), AccessMode.rw)));
        binds.add(new Bind(startCache.dir().toString(), new Volume(startCache.dir().toString()), AccessMode.rw));
        return binds;
    }
}
