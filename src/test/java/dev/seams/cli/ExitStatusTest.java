package dev.seams.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seams.consumer.RunStoppedException;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** Each reason a run stops has its own exit status, distinct from 0, 1 and 2 (docs/sink.md, "Error classes and exit statuses"). */
class ExitStatusTest {

    @Test
    void everyStopHasADistinctStatus() {
        assertThat(ExitStatus.of(RunStoppedException.Stop.UNPROCESSABLE_RECORD)).isEqualTo(3);
        assertThat(ExitStatus.of(RunStoppedException.Stop.FATAL_KAFKA)).isEqualTo(4);
        assertThat(ExitStatus.of(RunStoppedException.Stop.PERMANENT_WRITE)).isEqualTo(5);
        assertThat(Arrays.stream(RunStoppedException.Stop.values()).map(ExitStatus::of).distinct().count())
                .isEqualTo(RunStoppedException.Stop.values().length);
        assertThat(ExitStatus.CRASHED).isEqualTo(137);
        assertThat(InboxCommand.UNPROCESSABLE_EXIT).isEqualTo(ExitStatus.UNPROCESSABLE_RECORD);
    }
}
