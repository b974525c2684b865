package dev.seams.streams;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Static membership is ds-streams' default (claim B9: the faster one is the default), one stable id per state directory. */
class StaticIdentityTest {

    @TempDir
    Path dir;

    @Test
    void withoutOptionsAnIdIsMadeOncePerStateDirectoryAndKeptAcrossRestarts() throws IOException {
        String first = StaticIdentity.resolve(dir.resolve("a"), "ds-streams", null, false);
        String again = StaticIdentity.resolve(dir.resolve("a"), "ds-streams", null, false);
        String other = StaticIdentity.resolve(dir.resolve("b"), "ds-streams", null, false);

        assertThat(first).matches("ds-streams-[0-9a-f]{8}").isEqualTo(again);
        assertThat(other).as("another instance, its own state directory").isNotEqualTo(first);
        assertThat(StaticIdentity.resolve(dir.resolve("a"), "ds-streams-b", null, false)).as("another application id")
                .startsWith("ds-streams-b-").isNotEqualTo(first);
    }

    @Test
    void anExplicitIdWinsAndDynamicMembershipIsAChoice() throws IOException {
        assertThat(StaticIdentity.resolve(dir, "ds-streams", "ds-streams-pod-0", false)).isEqualTo("ds-streams-pod-0");
        assertThat(StaticIdentity.resolve(dir, "ds-streams", null, true)).isNull();
        assertThatThrownBy(() -> StaticIdentity.resolve(dir, "ds-streams", "x", true))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("exclude each other");
    }
}
