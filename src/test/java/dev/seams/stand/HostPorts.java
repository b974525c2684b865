package dev.seams.stand;

import com.github.dockerjava.api.command.CreateContainerCmd;
import com.github.dockerjava.api.model.ExposedPort;
import com.github.dockerjava.api.model.Ports;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Host ports chosen by the stand instead of Docker (claim B5): a container stopped (or killed) and started
 * again by a fault keeps its host port, so the test's clients ({@link Stand#clickhouseTarget()},
 * {@link Stand#pg()}, {@link Stand#bootstrapServers()}, and a broker's advertised host listener) stay valid.
 */
public final class HostPorts {

    private HostPorts() {
    }

    /**
     * Binds the container's port to a free host port chosen now, instead of Docker's random one. The
     * other exposed ports stay published at random (Testcontainers' own bindings are kept).
     *
     * @param cmd           the container's create command (a {@code withCreateContainerCmdModifier} hook)
     * @param containerPort the port inside the container, e.g. 9092
     */
    static void fix(CreateContainerCmd cmd, int containerPort) {
        fix(cmd, containerPort, free());
    }

    /**
     * Binds the container's port to the given host port ({@link #free()}, chosen before the container is created, e.g.
     * for a listener that advertises it); the other exposed ports stay as they are.
     *
     * @param cmd           the container's create command
     * @param containerPort the port inside the container
     * @param hostPort      the host port
     */
    static void fix(CreateContainerCmd cmd, int containerPort, int hostPort) {
        Ports ports = new Ports();
        Ports given = cmd.getHostConfig().getPortBindings();
        if (given != null) {   // Testcontainers' own (random) bindings of the other exposed ports stay
            given.getBindings().forEach((exposed, bindings) -> {
                if (exposed.getPort() != containerPort && bindings != null) {
                    for (Ports.Binding b : bindings) {
                        ports.bind(exposed, b);
                    }
                }
            });
        }
        ports.bind(ExposedPort.tcp(containerPort), Ports.Binding.bindPort(hostPort));
        cmd.getHostConfig().withPortBindings(ports);
    }

    /** The system property naming the host address the stand's ports are published on ({@link #listenAddress()}). */
    public static final String LISTEN_PROPERTY = "seams.stand.listen";
    /** Loopback: a stand's servers (test passwords, Kafka in PLAINTEXT, Connect's REST API without authentication) reach no network. */
    public static final String LOOPBACK = "127.0.0.1";

    /** @return the host address the stand publishes its ports on: {@value #LISTEN_PROPERTY}, {@value #LOOPBACK} by default */
    public static String listenAddress() {
        String address = System.getProperty(LISTEN_PROPERTY, "").strip();
        return address.isEmpty() ? LOOPBACK : address;
    }

    /**
     * Publishes every exposed port of the container on {@link #listenAddress()} only, each on the host port it already
     * has ({@link #fix}) or a random one: Docker would publish it on every address of the host (0.0.0.0 and [::]). The
     * last modifier of a container's create command.
     *
     * @param cmd the container's create command
     */
    public static void listen(CreateContainerCmd cmd) {
        String address = listenAddress();
        Ports given = cmd.getHostConfig().getPortBindings();
        Ports ports = new Ports();
        java.util.Set<ExposedPort> bound = new java.util.HashSet<>();
        if (given != null) {
            given.getBindings().forEach((exposed, bindings) -> {
                if (bindings != null) {
                    for (Ports.Binding b : bindings) {
                        ports.bind(exposed, new Ports.Binding(address, b.getHostPortSpec()));
                        bound.add(exposed);
                    }
                }
            });
        }
        if (cmd.getExposedPorts() != null) {
            for (ExposedPort exposed : cmd.getExposedPorts()) {
                if (!bound.contains(exposed)) {
                    ports.bind(exposed, Ports.Binding.bindIp(address));
                }
            }
        }
        cmd.getHostConfig().withPortBindings(ports).withPublishAllPorts(false);
    }

    /** Ports handed out by this JVM: two stands' containers started in parallel never get the same one. */
    private static final Set<Integer> HANDED_OUT = ConcurrentHashMap.newKeySet();
    /** The lowest port {@link #free} hands out. */
    static final int LOWEST = 20_000;

    /**
     * A port below the kernel's ephemeral range ({@code /proc/sys/net/ipv4/ip_local_port_range}, 32768–60999 by
     * default): Docker publishes a container's random host ports from that range, and so does a {@code new
     * ServerSocket(0)}, so a port chosen there can be taken by another container of the same stand, started in
     * parallel, before this one binds it ("Bind for 0.0.0.0:32783 failed: port is already allocated", a mutant's stand
     * of 2026-12-06). Below the range only a process that binds a fixed port competes; such a port is skipped.
     *
     * @return a port no process of this host listens on now and this JVM has not handed out before
     * @throws UncheckedIOException if none can be had
     */
    static int free() {
        int high = ephemeralLow() - 1;
        if (high - LOWEST < 1_000) {   // a kernel whose ephemeral range starts low: Docker's random pick it is
            try (ServerSocket socket = new ServerSocket(0)) {
                return socket.getLocalPort();
            } catch (IOException e) {
                throw new UncheckedIOException("no free host port", e);
            }
        }
        int span = high - LOWEST + 1;
        int start = ThreadLocalRandom.current().nextInt(span);
        for (int i = 0; i < span; i++) {
            int port = LOWEST + (start + i) % span;
            if (!HANDED_OUT.add(port)) {
                continue;
            }
            try (ServerSocket socket = new ServerSocket(port)) {
                return port;
            } catch (IOException inUse) {
                // bound by some process: the next one
            }
        }
        throw new UncheckedIOException(new IOException("no free host port in " + LOWEST + ".." + high));
    }

    /** @return the first port of the kernel's ephemeral range, 32768 where it cannot be read */
    static int ephemeralLow() {
        try {
            String range;   // a /proc file reports size 0: read it as a stream, not by its size
            try (java.io.InputStream in = Files.newInputStream(Path.of("/proc/sys/net/ipv4/ip_local_port_range"))) {
                range = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.US_ASCII).strip();
            }
            return Integer.parseInt(range.split("\\s+")[0]);
        } catch (IOException | RuntimeException e) {
            return 32_768;
        }
    }
}
