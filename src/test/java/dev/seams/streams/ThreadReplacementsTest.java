package dev.seams.streams;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.seams.consumer.ManualClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse;
import org.junit.jupiter.api.Test;

/** A stream thread that keeps dying is replaced a bounded number of times within a window, then the client shuts down. */
class ThreadReplacementsTest {

    private final ManualClock clock = new ManualClock();
    private final List<String> hooked = new ArrayList<>();
    private final ThreadReplacements handler = new ThreadReplacements(3, Duration.ofMinutes(10), (name, why) -> hooked.add(name), clock);
    private final RuntimeException death = new IllegalStateException("poisoned record");

    @Test
    void replacesThreeTimesThenShutsTheClientDown() {
        assertThat(handler.handle(death)).isEqualTo(StreamThreadExceptionResponse.REPLACE_THREAD);
        assertThat(handler.handle(death)).isEqualTo(StreamThreadExceptionResponse.REPLACE_THREAD);
        assertThat(handler.handle(death)).isEqualTo(StreamThreadExceptionResponse.REPLACE_THREAD);
        assertThat(handler.handle(death)).isEqualTo(StreamThreadExceptionResponse.SHUTDOWN_CLIENT);
        assertThat(hooked).as("the dying thread's name, once per replacement, none for the shutdown")
                .containsExactly(Thread.currentThread().getName(), Thread.currentThread().getName(), Thread.currentThread().getName());
    }

    @Test
    void aStreamThreadsStaticMemberIsTheInstanceIdAndItsIndex() {
        assertThat(StaticMemberRemoval.memberOf("ds-streams-0b1c2d3e-StreamThread-1", "ds-streams-stand")).contains("ds-streams-stand-1");
        assertThat(StaticMemberRemoval.memberOf("app-StreamThread-12", "i")).contains("i-12");
        assertThat(StaticMemberRemoval.memberOf("app-GlobalStreamThread", "i")).isEmpty();
    }

    @Test
    void aFailedRemovalIsLoggedNotThrown() {
        StaticMemberRemoval removal = new StaticMemberRemoval(() -> {
            throw new IllegalStateException("no broker");
        }, "ds-streams", "stand");
        assertThatCode(() -> removal.accept("ds-streams-x-StreamThread-1", death)).doesNotThrowAnyException();
        assertThatCode(() -> removal.accept("not-a-stream-thread", death)).doesNotThrowAnyException();
    }

    @Test
    void aFencedThreadsIdBelongsToAnotherMemberAndIsNotRemoved() {
        List<String> asked = new ArrayList<>();
        StaticMemberRemoval removal = new StaticMemberRemoval(() -> {
            asked.add("admin");
            throw new IllegalStateException("no broker");
        }, "ds-streams", "stand");
        removal.accept("ds-streams-x-StreamThread-1", new RuntimeException("commit failed",
                new org.apache.kafka.common.errors.FencedInstanceIdException("fenced")));
        assertThat(asked).as("no removal attempted for a fenced thread").isEmpty();
        removal.accept("ds-streams-x-StreamThread-1", death);
        assertThat(asked).as("a removal attempted for another death").containsExactly("admin");
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
