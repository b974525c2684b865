package dev.seams.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The progress-based fault schedule on a hand-driven load: where each shot fires and what it records. */
class FaultScheduleTest {

    @Test
    void runWaitsForEachPointAndRecordsTheProgressAtTheShot() {
        AtomicInteger reads = new AtomicInteger();
        // a load that advances by 1 % at each reading of its progress
        List<FaultSchedule.Shot<Integer>> shots = FaultSchedule.atProgress(() -> reads.incrementAndGet() / 100.0, 0.1, 0.5, 0.9)
                .pollEvery(Duration.ofMillis(1)).run(target -> reads.get());
        assertThat(shots).extracting(FaultSchedule.Shot::number).containsExactly(1, 2, 3);
        assertThat(shots).extracting(FaultSchedule.Shot::label).containsExactly("@10%", "@50%", "@90%");
        for (FaultSchedule.Shot<Integer> shot : shots) {
            assertThat(shot.progress()).isGreaterThan(shot.target());
            assertThat(shot.result() / 100.0).isEqualTo(shot.progress());
        }
    }

    @Test
    void driveInjectsAtOnceAndAShotAtTheEndIsNotMidLoad() {
        AtomicInteger done = new AtomicInteger();
        List<FaultSchedule.Shot<String>> shots = FaultSchedule.atProgress(() -> done.get() / 10.0, 0.2, 0.6)
                .drive(target -> {
                    done.set(target < 0.5 ? 3 : 10);
                    return "to " + done.get();
                });
        assertThat(shots).extracting(FaultSchedule.Shot::progress).containsExactly(0.0, 0.3);
        assertThat(shots).extracting(FaultSchedule.Shot::result).containsExactly("to 3", "to 10");
        assertThat(shots).allMatch(FaultSchedule.Shot::midLoad);
        assertThat(new FaultSchedule.Shot<>(1, 0.9, 1.0, "late").midLoad()).isFalse();
    }

    @Test
    void aLoadThatEndedShortOfAPointEndsTheScheduleAtOnceWithTheShotsSoFar() {
        AtomicInteger done = new AtomicInteger(2);
        long t0 = System.nanoTime();
        List<FaultSchedule.Shot<String>> shots = FaultSchedule.atProgress(() -> done.get() / 10.0, 0.2, 0.6)
                .within(java.time.Duration.ofMinutes(2)).endedWhen(() -> done.get() >= 4).run(target -> {
                    done.set(4);   // the load's driver ends at 40 %
                    return "at " + target;
                });
        assertThat(shots).extracting(FaultSchedule.Shot::result).containsExactly("at 0.2");
        assertThat((System.nanoTime() - t0) / 1e9).as("no wait for 60 % to run out").isLessThan(30);
    }

    @Test
    void aShotMoreThanFivePointsFromItsTargetIsOffItsPoint() {
        assertThat(new FaultSchedule.Shot<>(1, 0.5, 0.55, "edge").offPoint()).as("5 points past").isNull();
        assertThat(new FaultSchedule.Shot<>(1, 0.5, 0.45, "edge").onPoint()).as("5 points before").isTrue();
        FaultSchedule.Shot<String> late = new FaultSchedule.Shot<>(2, 0.5, 0.588, "late");
        assertThat(late.onPoint()).isFalse();
        assertThat(late.offPoint()).isEqualTo("landed at 58.8% of the load, outside ±5 points of its point 50%");
        assertThat(new FaultSchedule.Shot<>(3, 0.9, 1.0, "end").offPoint()).contains("landed at 100%");
    }

    @Test
    void pointsMustAscendInsideTheLoad() {
        assertThatThrownBy(() -> FaultSchedule.atProgress(() -> 0, 0.5, 0.1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> FaultSchedule.atProgress(() -> 0, 1.0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> FaultSchedule.atProgress(() -> 0)).isInstanceOf(IllegalArgumentException.class);
        assertThat(FaultSchedule.percent(0.497)).isEqualTo("49.7%");
        assertThat(FaultSchedule.percent(0.55)).as("0.55 * 100 is not 55.0 in binary").isEqualTo("55%");
    }
}
