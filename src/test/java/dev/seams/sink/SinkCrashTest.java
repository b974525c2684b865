package dev.seams.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SinkCrashTest {

    @Test
    void armedOnlyAtItsPointOnceTheTriggerExists(@TempDir Path dir) throws IOException {
        Path trigger = dir.resolve("crash");
        SinkCrash crash = new SinkCrash(SinkCrash.Point.AFTER_INSERT, trigger);
        assertThat(crash.armed(SinkCrash.Point.AFTER_INSERT)).isFalse();
        crash.maybeCrash(SinkCrash.Point.AFTER_INSERT, () -> "not armed: returns");
        Files.createFile(trigger);
        assertThat(crash.armed(SinkCrash.Point.AFTER_INSERT)).isTrue();
        assertThat(crash.armed(SinkCrash.Point.MID_INSERT)).isFalse();
        assertThat(SinkCrash.OFF.armed(SinkCrash.Point.MID_INSERT)).isFalse();
    }

    @Test
    void pointAndTriggerGoTogether(@TempDir Path dir) {
        assertThatThrownBy(() -> new SinkCrash(SinkCrash.Point.MID_INSERT, null)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new SinkCrash(null, dir)).isInstanceOf(IllegalArgumentException.class);
        assertThat(SinkCrash.Point.fromCliName("mid-insert")).isEqualTo(SinkCrash.Point.MID_INSERT);
        assertThat(SinkCrash.line(SinkCrash.Point.AFTER_INSERT, "batch x")).isEqualTo("sink: crash at after-insert: batch x");
    }
}
