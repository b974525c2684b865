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
}
