package dev.seams.inbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class CrashSwitchTest {

    @Test
    void offNeverFires() {
        for (CrashPoint point : CrashPoint.values()) {
            assertThat(CrashSwitch.OFF.firesAt(point, 1)).isFalse();
        }
        assertThat(CrashSwitch.OFF.armedFor(0)).isFalse();
        CrashSwitch.OFF.maybeCrash(CrashPoint.AFTER_DB_COMMIT, 1, "still alive");
    }

    @ParameterizedTest
    @EnumSource(CrashPoint.class)
    void firesOnlyAtItsPointOfItsPoll(CrashPoint point) {
        CrashSwitch crash = new CrashSwitch(point, 3);

        assertThat(crash.armedFor(3)).isTrue();
        assertThat(crash.armedFor(2)).isFalse();
        assertThat(crash.armedFor(4)).isFalse();
        for (CrashPoint other : CrashPoint.values()) {
            assertThat(crash.firesAt(other, 3)).as(other.cliName()).isEqualTo(other == point);
            assertThat(crash.firesAt(other, 2)).isFalse();
        }
        for (CrashPoint other : CrashPoint.values()) {
            if (other != point) {
                crash.maybeCrash(other, 3, "not this point");
            }
        }
        crash.maybeCrash(point, 2, "not this poll");
    }

    @Test
    void rejectsInconsistentSettings() {
        assertThatThrownBy(() -> new CrashSwitch(CrashPoint.AFTER_DB_COMMIT, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new CrashSwitch(null, 5)).isInstanceOf(IllegalArgumentException.class);
        assertThat(new CrashSwitch(null, 0)).isEqualTo(CrashSwitch.OFF);
    }

    @Test
    void pointsRoundTripTheirNamesAndTheLineNamesThePoint() {
        for (CrashPoint point : CrashPoint.values()) {
            assertThat(CrashPoint.fromCliName(point.cliName())).isEqualTo(point);
        }
        assertThatThrownBy(() -> CrashPoint.fromCliName("before-poll")).isInstanceOf(IllegalArgumentException.class);
        assertThat(CrashSwitch.line(CrashPoint.AFTER_DB_COMMIT, "poll=5 txid=12"))
                .isEqualTo("inbox: crash at after-db-commit: poll=5 txid=12");
    }
}
