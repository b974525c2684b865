package dev.seams.lag;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/**
 * The lag table's figures in every case {@link LagProbe} documents (G12): a partition the group never committed, a lag
 * of control markers only, a gap too large to read, a group with no offsets at all.
 */
class LagProbeTest {

    private static final TopicPartition P0 = new TopicPartition("customer.totals", 0);
    private static final TopicPartition P1 = new TopicPartition("customer.totals", 1);
    private static final TopicPartition P2 = new TopicPartition("customer.totals", 2);
    private static final Map<TopicPartition, Long> LOG_END = Map.of(P0, 7L, P1, 40L, P2, 50_100L);
    private static final Map<TopicPartition, Long> LAST_STABLE = Map.of(P0, 7L, P1, 40L, P2, 50_100L);
    private static final Map<TopicPartition, Long> LOG_START = Map.of(P0, 0L, P1, 0L, P2, 0L);

    /** P0 committed behind its commit marker, P1 never committed, P2 committed far behind. */
    private static Map<TopicPartition, OffsetAndMetadata> committed() {
        Map<TopicPartition, OffsetAndMetadata> committed = new HashMap<>();
        committed.put(P0, new OffsetAndMetadata(6));
        committed.put(P1, null);
        committed.put(P2, new OffsetAndMetadata(100));
        return committed;
    }

    @Test
    void aPartitionTheGroupNeverCommittedCountsItsWholeLogAsBehindAndItsDataRecordsAreRead() {
        Map<TopicPartition, Long> read = LagProbe.gapsToRead(committed(), LOG_START, LOG_END, 10_000);
        assertThat(read).as("the never-committed partition is read from offset 0, the far one not at all")
                .containsOnly(Map.entry(P0, 6L), Map.entry(P1, 0L));

        List<PartitionLag> rows = LagProbe.rows("ds-sink", committed(), LOG_START, LOG_END, LAST_STABLE, read, Map.of(P1, 30L));

        PartitionLag never = rows.get(1);
        assertThat(List.of(never.committed(), never.logEnd(), never.lag(), never.lagToLastStable(), never.dataRecordsBehind()))
                .containsExactly(-1L, 40L, 40L, 40L, 30L);
        assertThat(never.onlyMarkersBehind()).as("30 data records behind, not markers").isFalse();
        assertThat(LagProbe.format(rows, Map.of()).lines().skip(2).findFirst().orElseThrow().trim().split("\\s+"))
                .as("kafka-consumer-groups' '-' for no committed offset, the whole log as lag")
                .containsExactly("ds-sink", "customer.totals", "1", "-", "40", "40", "-", "-", "-", "40", "40", "30");
    }

    @Test
    void aLagOfControlMarkersOnlyIsToldFromDataBehind() {
        Map<TopicPartition, Long> read = LagProbe.gapsToRead(committed(), LOG_START, LOG_END, 10_000);
        PartitionLag markers = LagProbe.rows("ds-sink", committed(), LOG_START, LOG_END, LAST_STABLE, read, Map.of()).get(0);

        assertThat(List.of(markers.committed(), markers.lag(), markers.lagToLastStable(), markers.dataRecordsBehind()))
                .containsExactly(6L, 1L, 1L, 0L);
        assertThat(markers.onlyMarkersBehind()).isTrue();
        PartitionLag caughtUp = new PartitionLag("ds-sink", "customer.totals", 0, 7, 7, 7, 0);
        assertThat(caughtUp.onlyMarkersBehind()).as("no lag at all is not a lag of markers").isFalse();
    }

    @Test
    void aGapLargerThanTheProbeReadsIsUnknownNeverZero() {
        Map<TopicPartition, Long> read = LagProbe.gapsToRead(committed(), LOG_START, LOG_END, 39);
        assertThat(read).as("the never-committed partition's 40 offsets are over the bound too").containsOnlyKeys(P0);

        List<PartitionLag> rows = LagProbe.rows("ds-sink", committed(), LOG_START, LOG_END, LAST_STABLE, read, Map.of());

        assertThat(rows).extracting(PartitionLag::dataRecordsBehind).containsExactly(0L, PartitionLag.UNKNOWN, PartitionLag.UNKNOWN);
        assertThat(rows).extracting(PartitionLag::lag).containsExactly(1L, 40L, 50_000L);
        assertThat(rows.subList(1, 3)).noneMatch(PartitionLag::onlyMarkersBehind);
    }

    @Test
    void aGroupWithNoOffsetsHasNoRowsAndOnATopicEveryPartitionIsWhollyBehind() {
        assertThat(LagProbe.rows("nosuchgroup", Map.of(), LOG_START, LOG_END, LAST_STABLE, Map.of(), Map.of())).isEmpty();

        Map<TopicPartition, OffsetAndMetadata> none = new HashMap<>();   // describe(group, topic): each partition, none committed
        LOG_END.keySet().forEach(tp -> none.put(tp, null));
        Map<TopicPartition, Long> read = LagProbe.gapsToRead(none, LOG_START, LOG_END, LagProbe.READ_ALL);
        List<PartitionLag> rows = LagProbe.rows("nosuchgroup", none, LOG_START, LOG_END, LAST_STABLE, read, Map.of(P0, 5L, P1, 30L, P2, 40_000L));

        assertThat(rows).extracting(PartitionLag::committed).containsOnly(-1L);
        assertThat(rows).extracting(PartitionLag::lag).containsExactly(7L, 40L, 50_100L);
        assertThat(rows).extracting(PartitionLag::dataRecordsBehind).containsExactly(5L, 30L, 40_000L);
    }

    @Test
    void aNeverCommittedPartitionWhoseLogStartMovedCountsWhatIsLeftAndAnEmptiedOneIsNotBehind() {
        Map<TopicPartition, OffsetAndMetadata> none = new HashMap<>();
        none.put(P0, null);
        none.put(P1, null);
        Map<TopicPartition, Long> start = Map.of(P0, 7L, P1, 10L);   // P0 emptied by retention, P1 its first 10 offsets gone
        Map<TopicPartition, Long> end = Map.of(P0, 7L, P1, 40L);
        Map<TopicPartition, Long> read = LagProbe.gapsToRead(none, start, end, 30);
        assertThat(read).as("the 30 offsets left of P1 are within the bound").containsOnly(Map.entry(P0, 7L), Map.entry(P1, 10L));

        List<PartitionLag> rows = LagProbe.rows("ds-sink", none, start, end, end, read, Map.of(P1, 25L));

        assertThat(rows).extracting(PartitionLag::lag).containsExactly(0L, 30L);
        assertThat(rows).extracting(PartitionLag::dataRecordsBehind).containsExactly(0L, 25L);
        assertThat(rows).noneMatch(PartitionLag::onlyMarkersBehind);
        PartitionLag below = new PartitionLag("ds-sink", "customer.totals", 1, 5, 40, 40, 25, 10);
        assertThat(below.lag()).as("a committed offset below the log start: kafka-consumer-groups' lag").isEqualTo(35L);
    }
}
