package dev.seams.stand;

import static org.awaitility.Awaitility.await;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.async.ResultCallback;
import com.github.dockerjava.api.command.ExecCreateCmdResponse;
import com.github.dockerjava.api.command.InspectContainerResponse;
import com.github.dockerjava.api.exception.NotFoundException;
import com.github.dockerjava.api.model.ContainerNetwork;
import com.github.dockerjava.api.model.Frame;
import com.github.dockerjava.api.model.Statistics;
import com.github.dockerjava.api.model.StreamType;
import dev.seams.truth.Futures;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.Network;

/**
 * Docker's own operations on one container, by id, as the faults of claim B5 need them, each with what
 * proves it took effect: SIGKILL → exit code 137; stop → the exit code; pause → Docker reports it
 * paused; network disconnect → the network is gone from the container's network settings. Through
 * Testcontainers' {@link DockerClientFactory} (docker-java), never a shell.
 */
public final class ContainerControl {

    private final DockerClient docker = DockerClientFactory.instance().client();
    private final String id;

    /** @param containerId the container's id */
    public ContainerControl(String containerId) {
        this.id = containerId;
    }

    /** @return the container's id, as {@code docker exec} and the other commands of the engine take it */
    public String id() {
        return id;
    }

    /**
     * The container's CPU time so far: Docker's stats, {@code cpu_stats.cpu_usage.total_usage} (all its
     * processes, user + system). Docker samples a container about once a second and answers a
     * one-reading request after about two seconds: the value is that of the moment the call returns,
     * give or take a second (issue 13 P1's CPU accounting).
     *
     * @return CPU time, nanoseconds
     * @throws IllegalStateException if Docker gives no reading within 30 s (e.g. the container is not running)
     */
    public long cpuNanos() {
        CompletableFuture<Statistics> reading = new CompletableFuture<>();
        try (ResultCallback.Adapter<Statistics> callback = docker.statsCmd(id).withNoStream(true).exec(new ResultCallback.Adapter<>() {
            @Override
            public void onNext(Statistics statistics) {
                reading.complete(statistics);
            }

            @Override
            public void onError(Throwable error) {
                reading.completeExceptionally(error);
            }
        })) {
            Statistics s = Futures.get(reading, Duration.ofSeconds(30), "CPU reading of container " + id);
            if (s.getCpuStats() == null || s.getCpuStats().getCpuUsage() == null || s.getCpuStats().getCpuUsage().getTotalUsage() == null) {
                throw new IllegalStateException("Docker's stats of container " + id + " carry no CPU usage: " + s);
            }
            return s.getCpuStats().getCpuUsage().getTotalUsage();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Sends SIGKILL to the container's PID 1 (a paused container is thawed first, as Docker refuses to
     * kill it) and waits (up to 1 min) until it stopped.
     *
     * @return the exit code: 137 (128 + SIGKILL) proves the kill ({@code faults/Sigkill})
     */
    public int kill() {
        unpause();
        docker.killContainerCmd(id).withSignal("KILL").exec();
        await("container " + id + " stopped after SIGKILL").atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofMillis(100))
                .until(() -> !isRunning());
        return exitCode();
    }

    /**
     * {@code docker stop}: SIGTERM, SIGKILL after the timeout; returns when the container stopped.
     *
     * @param timeout how long PID 1 may take to exit after SIGTERM, whole seconds
     * @return the exit code: 143 (128 + SIGTERM) for a JVM that ran its shutdown hooks, 137 if killed
     */
    public int stop(Duration timeout) {
        unpause();
        docker.stopContainerCmd(id).withTimeout((int) timeout.toSeconds()).exec();
        return exitCode();
    }

    /**
     * Sends a signal to the container's PID 1 (e.g. {@code INT}: PostgreSQL's fast shutdown) and waits
     * (up to the timeout) until the container stopped by itself.
     *
     * @return the exit code
     * @throws org.awaitility.core.ConditionTimeoutException if it still runs after the timeout
     */
    public int stopWith(String signal, Duration timeout) {
        unpause();
        docker.killContainerCmd(id).withSignal(signal).exec();
        await("container " + id + " stopped after SIG" + signal).atMost(timeout).pollInterval(Duration.ofMillis(100))
                .until(() -> !isRunning());
        return exitCode();
    }

    /**
     * Starts the stopped container again ({@code docker start}): the same container, its files and
     * its (fixed) port bindings; returns at once — the caller waits for what the service needs.
     */
    public void start() {
        docker.startContainerCmd(id).exec();
    }

    /**
     * Sends a signal to the container's PID 1 ({@code docker kill --signal}). From the daemon, outside the
     * container's PID namespace, {@code SIGSTOP} and {@code SIGKILL} reach PID 1 although it installed no
     * handler for them: {@code STOP} halts every thread of the process, and a stopped process still dies of
     * {@code KILL} — unlike {@code docker pause}, which Docker must undo (letting the process run) before it
     * accepts a kill.
     *
     * @param signal e.g. {@code STOP}, {@code CONT}
     */
    public void signal(String signal) {
        docker.killContainerCmd(id).withSignal(signal).exec();
    }

    /** Freezes every process of the container ({@code docker pause}); proof: {@link #isPaused()}. */
    public void pause() {
        docker.pauseContainerCmd(id).exec();
    }

    /** Thaws the container if it is paused. */
    public void unpause() {
        if (isPaused()) {
            docker.unpauseContainerCmd(id).exec();
        }
    }

    /**
     * Cuts the container off a network ({@code docker network disconnect}): its interface on it goes,
     * open connections hang (nothing is sent to either end). Proof: {@link #address(Network)} is empty.
     */
    public void disconnect(Network network) {
        docker.disconnectFromNetworkCmd().withNetworkId(network.getId()).withContainerId(id).exec();
    }

    /** Attaches the container to a network again under its alias ({@code docker network connect}). */
    public void connect(Network network, String alias) {
        docker.connectToNetworkCmd().withNetworkId(network.getId()).withContainerId(id)
                .withContainerNetwork(new ContainerNetwork().withAliases(alias)).exec();
    }

    /**
     * @return the container's IP address on the network as Docker reports it; empty when it is not
     *     attached (or the container is gone). A reconnected container may get another address.
     */
    public Optional<String> address(Network network) {
        InspectContainerResponse info = inspect();
        return info == null ? Optional.empty() : info.getNetworkSettings().getNetworks().values().stream()
                .filter(n -> network.getId().equals(n.getNetworkID())).map(ContainerNetwork::getIpAddress).findFirst();
    }

    /**
     * Reads a file inside the running container ({@code docker exec cat PATH}), e.g. {@code /proc/1/status}.
     *
     * @return its bytes
     * @throws IllegalStateException if {@code cat} fails, or does not finish within 30 s
     */
    public byte[] readFile(String path) {
        return exec("cat", path);
    }

    /**
     * Runs a command inside the running container ({@code docker exec}), e.g. a shell line that adds a line to
     * {@code pg_hba.conf} (claim B18).
     *
     * @param command the command and its arguments
     * @return its standard output
     * @throws IllegalStateException if it exits other than 0, or does not finish within 30 s
     */
    public byte[] exec(String... command) {
        String what = String.join(" ", command);
        ExecCreateCmdResponse exec = docker.execCreateCmd(id).withCmd(command).withAttachStdout(true).withAttachStderr(true).exec();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        try (ResultCallback.Adapter<Frame> done = docker.execStartCmd(exec.getId()).exec(new ResultCallback.Adapter<>() {
            @Override
            public void onNext(Frame frame) {
                (frame.getStreamType() == StreamType.STDOUT ? out : err).writeBytes(frame.getPayload());
            }
        })) {
            if (!done.awaitCompletion(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException(what + " in container " + id + " did not finish within 30 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running " + what + " in container " + id, e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        // the output's end can reach us before Docker records the exit status
        Long exit = await(what + " in container " + id + " has an exit status").atMost(Duration.ofSeconds(5))
                .pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(20))
                .until(() -> docker.inspectExecCmd(exec.getId()).exec(), r -> !Boolean.TRUE.equals(r.isRunning())).getExitCodeLong();
        if (exit == null || exit != 0) {
            throw new IllegalStateException(what + " in container " + id + " exited with " + exit + ": "
                    + err.toString(StandardCharsets.UTF_8).strip());
        }
        return out.toByteArray();
    }

    /** @return whether the container runs (a paused one too) */
    public boolean isRunning() {
        InspectContainerResponse info = inspect();
        return info != null && Boolean.TRUE.equals(info.getState().getRunning());
    }

    /**
     * @return the process id of the container's PID 1 on the Docker host (0 when it does not run): what {@code nsenter}
     *     enters to reach the container's namespaces
     */
    public long pid() {
        InspectContainerResponse info = inspect();
        return info == null || info.getState().getPidLong() == null ? 0 : info.getState().getPidLong();
    }

    /** @return whether Docker reports the container paused */
    public boolean isPaused() {
        InspectContainerResponse info = inspect();
        return info != null && Boolean.TRUE.equals(info.getState().getPaused());
    }

    /** @return the exit code of the stopped container (0 while it runs), or -1 if it is gone */
    public int exitCode() {
        InspectContainerResponse info = inspect();
        return info == null ? -1 : info.getState().getExitCodeLong().intValue();
    }

    private InspectContainerResponse inspect() {
        try {
            return docker.inspectContainerCmd(id).exec();
        } catch (NotFoundException e) {
            return null;
        }
    }
}
