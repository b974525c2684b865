package dev.seams.stand;

import com.github.dockerjava.api.command.CreateContainerCmd;
import com.github.dockerjava.api.model.ExposedPort;
import com.github.dockerjava.api.model.Ports;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;

/**
 * Host ports chosen by the stand instead of Docker (claim B5): a container stopped (or killed) and started
 * again by a fault keeps its host port, so the test's clients ({@link Stand#clickhouseTarget()},
 * {@link Stand#pg()}, {@link Stand#bootstrapServers()}, and a broker's advertised host listener) stay valid.
 */
final class HostPorts {

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
        ports.bind(ExposedPort.tcp(containerPort), Ports.Binding.bindPort(free()));
        cmd.getHostConfig().withPortBindings(ports);
    }

    /**
     * @return a port no process of this host listens on now
     * @throws UncheckedIOException if none can be had
     */
    static int free() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free host port", e);
        }
    }
}
