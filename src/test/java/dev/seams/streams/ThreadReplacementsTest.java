package dev.seams.streams;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.seams.sink.ManualClock;
import java.time.Duration;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse;
import org.junit.jupiter.api.Test;

/** A stream thread that keeps dying is replaced a bounded number of times within a window, then the client shuts down. */
class ThreadReplacementsTest {

    private final ManualClock clock = new ManualClock();
    private final ThreadReplacements handler = new ThreadReplacements(3, Duration.ofMinutes(10), clock);
    private final RuntimeException death = new IllegalStateException("poisoned record");

    @Test
    void replacesThreeTimesThenShutsTheClientDown() {
        assertThat(handler.handle(death)).isEqualTo(StreamThreadExceptionResponse.REPLACE_THREAD);
        assertThat(handler.handle(death)).isEqualTo(StreamThreadExceptionResponse.REPLACE_THREAD);
        assertThat(handler.handle(death)).isEqualTo(StreamThreadExceptionResponse.REPLACE_THREAD);
        assertThat(handler.handle(death)).isEqualTo(StreamThreadExceptionResponse.SHUTDOWN_CLIENT);
    }

    @Test
    void deathsOlderThanTheWindowNoLongerCount() {
        handler.handle(death);
        handler.handle(death);
        handler.handle(death);
        clock.advance(Duration.ofMinutes(10));

        assertThat(handler.handle(death)).isEqualTo(StreamThreadExceptionResponse.REPLACE_THREAD);
    }

    @Test
    void refusesABudgetThatMakesNoSense() {
        assertThatThrownBy(() -> new ThreadReplacements(-1, Duration.ofMinutes(1))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new ThreadReplacements(3, Duration.ZERO)).isInstanceOf(IllegalArgumentException.class);
    }
}
