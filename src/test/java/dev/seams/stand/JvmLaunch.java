package dev.seams.stand;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.model.ExposedPort;
import com.github.dockerjava.api.model.HostConfig;
import com.github.dockerjava.api.model.PortBinding;
import com.github.dockerjava.api.model.Ports;
import dev.seams.project.Project;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.startupcheck.StartupCheckStrategy;
import org.testcontainers.containers.wait.strategy.AbstractWaitStrategy;

/**
 * How Docker launches a {@link JvmContainer}: as the project directory's owner, its debugger's port on the loopback
 * interface only, and counted as started once launched (whether its JVM got ready is
 * {@link JvmContainer#awaitOutput}'s call).
 */
final class JvmLaunch {

    private JvmLaunch() {
    }

    /**
     * @return {@code uid:gid} of the project directory: the process runs as its owner, so what it writes stays deletable
     * @throws UncheckedIOException if the directory's owner cannot be read
     */
    static String projectOwner() {
        try {
            Path root = Project.root();
            return Files.getAttribute(root, "unix:uid") + ":" + Files.getAttribute(root, "unix:gid");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the owner of the project directory", e);
        }
    }

    /**
     * Publishes a debugger's port on the loopback interface only when the Docker host is this machine (a JDWP agent
     * runs whatever code it is sent); on a remote Docker host it stays published where Testcontainers reaches it.
     *
     * @param host the container's host configuration
     * @param port the debugger's port in the container
     */
    static void loopbackOnly(HostConfig host, int port) {
        String dockerHost = DockerClientFactory.instance().dockerHostIpAddress();
        boolean local;
        try {
            local = InetAddress.getByName(dockerHost).isLoopbackAddress();
        } catch (UnknownHostException e) {
            local = false;
        }
        if (local) {
            host.withPortBindings(new PortBinding(Ports.Binding.bindIp("127.0.0.1"), ExposedPort.tcp(port)));
        }
    }

    /** A container counts as started once Docker launched it; whether its JVM got ready is awaitOutput's call. */
    static final class Launched extends StartupCheckStrategy {
        @Override
        public StartupStatus checkStartupState(DockerClient dockerClient, String containerId) {
            return StartupStatus.SUCCESSFUL;
        }
    }

    /** No wait on published ports: the process's readiness is awaitOutput's call. */
    static final class NoWait extends AbstractWaitStrategy {
        @Override
        protected void waitUntilReady() {
        }
    }
}
