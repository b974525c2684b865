package dev.seams.faults;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The after-insert kill's proof reads the crashed batch's offsets from the sink's crash line (claim B5). */
class SinkKillTest {

    @Test
    void theCrashedBatchsRangesAreReadFromTheCrashLine() {
        Map<Integer, long[]> ranges = SinkKill.batchRanges("sink: crash at after-insert: batch customer.totals-0@12..57, "
                + "customer.totals-2@3..9 inserted (52 rows), offsets not committed");

        assertThat(ranges).containsOnlyKeys(0, 2);
        assertThat(ranges.get(0)).containsExactly(12, 57);
        assertThat(ranges.get(2)).containsExactly(3, 9);
    }

    @Test
    void aLineNamingNoBatchGivesNoRange() {
        assertThat(SinkKill.batchRanges("sink: crash at mid-insert: insert of 10 rows into raw_totals: 5 of 10 bytes sent")).isEmpty();
    }
}
