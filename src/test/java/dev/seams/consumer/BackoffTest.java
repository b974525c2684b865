package dev.seams.consumer;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The retry backoff is exponential and bounded: 200 ms doubling to a 5 s cap, back to 200 ms after a success. */
class BackoffTest {

    @Test
    void doublesUpToTheCapAndResets() {
        Backoff backoff = new Backoff();
        List<Long> waits = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            waits.add(backoff.step());
        }

        assertThat(waits).containsExactly(200L, 400L, 800L, 1600L, 3200L, 5000L, 5000L, 5000L);
        assertThat(backoff.attempt()).isEqualTo(8);
        backoff.reset();
        assertThat(backoff.nextMs()).isEqualTo(Backoff.FIRST_MS);
        assertThat(backoff.attempt()).isZero();
    }
}
