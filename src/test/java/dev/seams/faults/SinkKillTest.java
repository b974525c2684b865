package dev.seams.faults;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seams.consumer.Batches.OffsetRange;
import dev.seams.truth.RunNames;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/** The after-insert kill's proof reads the crashed batch's offsets from the sink's crash line (claim B5). */
class SinkKillTest {

    @Test
    void theCrashedBatchsRangesAreReadFromTheCrashLine() {
        String topic = RunNames.CUSTOMER_TOTALS;   // the run's name: prefixed when the build runs for an external stand
        Map<Integer, OffsetRange> ranges = SinkKill.batchRanges("sink: crash at after-insert: batch " + topic + "-0@12..57, "
                + topic + "-2@3..9 inserted (52 rows), offsets not committed");

        assertThat(ranges).containsExactly(Map.entry(0, new OffsetRange(12, 57)), Map.entry(2, new OffsetRange(3, 9)));
    }

    @Test
    void aLineNamingNoBatchGivesNoRange() {
        assertThat(SinkKill.batchRanges("sink: crash at mid-insert: insert of 10 rows into raw_totals: 5 of 10 bytes sent")).isEmpty();
    }

    @Test
    void onlyTheBatchsOffsetsAtOrBeyondTheCommittedOnesCount() {
        Map<Integer, OffsetRange> batch = Map.of(0, new OffsetRange(12, 57), 2, new OffsetRange(3, 9));

        assertThat(SinkKill.uncommittedPartOf(batch, Map.of(new TopicPartition(RunNames.CUSTOMER_TOTALS, 0), 20L)))
                .containsExactly(Map.entry(0, new OffsetRange(20, 57)), Map.entry(2, new OffsetRange(3, 9)));
    }
}
