package dev.seams.check;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Per-key counting against the expected set: a missing key is not hidden by an extra one. */
class KeyCountsTest {

    @Test
    void countsDuplicatesMissingAndUnexpectedPerKey() {
        KeyCounts<Long> counts = KeyCounts.of(List.of(1L, 2L, 3L, 4L), List.of(1L, 1L, 1L, 2L, 3L, 3L, 9L));
        assertThat(counts.count(1L)).isEqualTo(3);
        assertThat(counts.duplicateKeys()).isEqualTo(2);
        assertThat(counts.excess()).isEqualTo(3);
        assertThat(counts.missing()).isEqualTo(1);
        assertThat(counts.unexpected()).isEqualTo(1);
        assertThat(counts.expectedKeys()).isEqualTo(4);
    }

    @Test
    void countMinusDistinctWouldHideALoss() {
        // 4 rows, 3 distinct: count - distinct says 1 duplicate, nothing lost; per key: key 3 twice, key 2 lost, key 7 foreign
        KeyCounts<Long> counts = KeyCounts.of(List.of(1L, 2L, 3L), List.of(1L, 3L, 3L, 7L));
        assertThat(counts.excess()).isEqualTo(1);
        assertThat(counts.missing()).isEqualTo(1);
        assertThat(counts.unexpected()).isEqualTo(1);
    }
}
