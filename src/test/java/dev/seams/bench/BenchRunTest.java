package dev.seams.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/** A contender's repetition is timed over at least the least span ({@link Benchmarks#minSpanNanos()}; issue 26). */
class BenchRunTest {

    @Test
    void aShortRunIsRepeatedUntilItsTimedSpansAddUpToTheLeastSpan() throws Exception {
        long second = 1_000_000_000L;
        int[] more = {0};
        BenchRun.Repetition r = BenchRun.repeated(100_000, 3 * second / 2, () -> {
            more[0]++;
            return second;
        }, 4 * second);

        assertThat(more[0]).as("1.5 s, then 1 s runs until at least 4 s").isEqualTo(3);
        assertThat(r.runs()).isEqualTo(4);
        assertThat(r.nanos()).isEqualTo(9 * second / 2);
        assertThat(r.rowsPerSec()).isCloseTo(400_000 / 4.5, within(1e-6));
    }

    @Test
    void aRunLongerThanTheLeastSpanIsNotRepeated() throws Exception {
        BenchRun.Repetition r = BenchRun.repeated(100_000, 5_000_000_000L, () -> {
            throw new AssertionError("not run again");
        }, 4_000_000_000L);

        assertThat(r.runs()).isEqualTo(1);
        assertThat(r.rowsPerSec()).isCloseTo(20_000, within(1e-6));
    }
}
