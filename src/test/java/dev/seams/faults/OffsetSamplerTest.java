package dev.seams.faults;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class OffsetSamplerTest {

    /** Partition 0 holds data records at offsets 0..9 and a transaction marker at 10. */
    private static final Map<Integer, NavigableSet<Long>> DATA = Map.of(0, new TreeSet<>(List.of(0L, 1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L)));

    @Test
    void aCommitPastAMarkerOnlyIsNotAheadOfStorage() {
        OffsetSampler.Result r = OffsetSampler.judge(List.of(new OffsetSampler.Sample(Map.of(0, 11L), Map.of(0, 9L))), DATA);
        assertThat(r.violations()).isZero();
        assertThat(r.judged()).isEqualTo(1);
    }

    @Test
    void aCommitPastAStoredRecordIsAViolation() {
        OffsetSampler.Result r = OffsetSampler.judge(List.of(new OffsetSampler.Sample(Map.of(0, 8L), Map.of(0, 5L))), DATA);
        assertThat(r.violations()).isEqualTo(1);
        assertThat(r.examples()).containsExactly("p0: committed 8 (last data 7) > stored 5");
    }

    @Test
    void aReadingWithoutStorageIsJudgedAgainstTheNextOne() {
        OffsetSampler.Result r = OffsetSampler.judge(List.of(
                new OffsetSampler.Sample(Map.of(0, 8L), null),       // ClickHouse frozen: offsets read, storage not
                new OffsetSampler.Sample(Map.of(0, 8L), Map.of(0, 6L)),
                new OffsetSampler.Sample(Map.of(0, 3L), null)), DATA); // never answered again: not judged
        assertThat(r.judged()).isEqualTo(2);
        assertThat(r.violations()).isEqualTo(2);
        assertThat(r.samples()).isEqualTo(3);
    }

    @Test
    void aPositionSeenAheadBySeveralSamplesCountsOnce() {
        OffsetSampler.Result r = OffsetSampler.judge(List.of(
                new OffsetSampler.Sample(Map.of(0, 8L), Map.of(0, 5L)),   // 6 and 7 committed, not stored
                new OffsetSampler.Sample(Map.of(0, 8L), Map.of(0, 5L)),   // the same two again
                new OffsetSampler.Sample(Map.of(0, 10L), Map.of(0, 6L)),  // 7, 8 and 9: two new
                new OffsetSampler.Sample(Map.of(0, 10L), Map.of(0, 9L))), DATA);
        assertThat(r.violations()).isEqualTo(3);
        assertThat(r.positionsAhead()).isEqualTo(4);
    }
}
