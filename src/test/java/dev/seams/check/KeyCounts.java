package dev.seams.check;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * Occurrences of keys (order ids in a topic, rows of a ledger) counted per key against the
 * expected key set — from PostgreSQL or from broker offsets — never as {@code count() - uniqExact()}
 * (docs/claims.md "Name the anomaly"): a key that should not be there is told from a key that is there
 * twice, and a missing key is not hidden by an extra one.
 *
 * @param <K> the key type
 */
public final class KeyCounts<K> {

    private final Set<K> expected;
    private final Map<K, Long> counts;

    private KeyCounts(Set<K> expected, Map<K, Long> counts) {
        this.expected = expected;
        this.counts = counts;
    }

    /**
     * @param expected the keys that must each occur exactly once
     * @param seen     every occurrence, in any order
     * @return the counts
     */
    public static <K> KeyCounts<K> of(Collection<K> expected, Iterable<K> seen) {
        Map<K, Long> counts = new HashMap<>();
        seen.forEach(k -> counts.merge(k, 1L, Long::sum));
        return new KeyCounts<>(Set.copyOf(expected), counts);
    }

    /** @return how often the key occurred */
    public long count(K key) {
        return counts.getOrDefault(key, 0L);
    }

    /** @return expected keys that occurred more than once */
    public long duplicateKeys() {
        return expected.stream().filter(k -> count(k) > 1).count();
    }

    /** @return occurrences of expected keys beyond their first (the extra deliveries or rows) */
    public long excess() {
        return expected.stream().mapToLong(k -> Math.max(0, count(k) - 1)).sum();
    }

    /** @return expected keys that never occurred */
    public long missing() {
        return expected.stream().filter(k -> count(k) == 0).count();
    }

    /** @return occurrences of keys outside the expected set */
    public long unexpected() {
        return counts.entrySet().stream().filter(en -> !expected.contains(en.getKey())).mapToLong(Map.Entry::getValue).sum();
    }

    /** @return the number of expected keys */
    public int expectedKeys() {
        return expected.size();
    }
}
