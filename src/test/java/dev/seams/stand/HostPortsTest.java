package dev.seams.stand;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The stand's fixed host ports stay out of the range Docker picks its random ones from. */
class HostPortsTest {

    @Test
    void portsComeFromBelowTheEphemeralRangeAndNeverTwice() {
        int low = HostPorts.ephemeralLow();
        Set<Integer> seen = new HashSet<>();
        for (int i = 0; i < 50; i++) {
            int port = HostPorts.free();
            if (low - HostPorts.LOWEST >= 1_000) {
                assertThat(port).isBetween(HostPorts.LOWEST, low - 1);
            }
            assertThat(seen.add(port)).as("port %d handed out twice", port).isTrue();
        }
    }

    @Test
    void everyPublishedPortListensOnTheStandsAddressOnlyAndKeepsItsHostPort() {
        com.github.dockerjava.api.command.CreateContainerCmd cmd = new org.testcontainers.shaded.com.github.dockerjava.core.command.CreateContainerCmdImpl(
                command -> null, null, "stand/postgres");
        cmd.withExposedPorts(com.github.dockerjava.api.model.ExposedPort.tcp(5432), com.github.dockerjava.api.model.ExposedPort.tcp(9092));
        cmd.getHostConfig().withPublishAllPorts(true);
        HostPorts.fix(cmd, 5432, 20_001);
        String before = System.getProperty(HostPorts.LISTEN_PROPERTY);
        try {
            System.clearProperty(HostPorts.LISTEN_PROPERTY);
            HostPorts.listen(cmd);
        } finally {
            if (before != null) {
                System.setProperty(HostPorts.LISTEN_PROPERTY, before);
            }
        }
        java.util.Map<com.github.dockerjava.api.model.ExposedPort, com.github.dockerjava.api.model.Ports.Binding[]> bindings =
                cmd.getHostConfig().getPortBindings().getBindings();
        assertThat(bindings).hasSize(2);
        assertThat(bindings.get(com.github.dockerjava.api.model.ExposedPort.tcp(5432)))
                .containsExactly(new com.github.dockerjava.api.model.Ports.Binding("127.0.0.1", "20001"));
        assertThat(bindings.get(com.github.dockerjava.api.model.ExposedPort.tcp(9092)))
                .containsExactly(com.github.dockerjava.api.model.Ports.Binding.bindIp("127.0.0.1"));
        assertThat(cmd.getHostConfig().getPublishAllPorts()).isFalse();
    }
}
