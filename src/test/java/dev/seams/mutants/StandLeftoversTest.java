package dev.seams.mutants;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seams.stand.JvmContainer;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The sweep removes only the containers of runs that are gone: a stand a person or another run has up stays. */
class StandLeftoversTest {

    @Test
    void aContainerOfALiveProcessStaysAndOneOfAGoneOrUnknownOwnerGoes() throws Exception {
        assertThat(StandLeftovers.ownerAlive(JvmContainer.labels())).as("this JVM's own").isTrue();
        Process gone = new ProcessBuilder("true").start();
        gone.waitFor();
        assertThat(StandLeftovers.ownerAlive(Map.of(JvmContainer.LABEL, "true", JvmContainer.OWNER_LABEL,
                Long.toString(gone.pid())))).as("a process that ended").isFalse();
        assertThat(StandLeftovers.ownerAlive(Map.of(JvmContainer.LABEL, "true"))).as("no owner label (an older run)").isFalse();
        assertThat(StandLeftovers.ownerAlive(Map.of(JvmContainer.OWNER_LABEL, "not-a-pid"))).isFalse();
    }
}
