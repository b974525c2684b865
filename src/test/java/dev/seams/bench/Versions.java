package dev.seams.bench;

import java.util.Map;
import java.util.NavigableMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * When each customer's version was first seen somewhere (a topic, a table), for P4: a version
 * seen covers every lower one (ds-streams' cache may collapse two changes of a customer into one
 * snapshot; a poll of a table may see two inserts at once). Thread-safe.
 */
final class Versions {

    private final Map<Integer, NavigableMap<Long, Long>> seen = new ConcurrentHashMap<>();

    /** Notes that the customer's version was seen at this time (ms); an older or equal version changes nothing. */
    void seen(int customerId, long version, long millis) {
        NavigableMap<Long, Long> versions = seen.computeIfAbsent(customerId, k -> new ConcurrentSkipListMap<>());
        if (versions.isEmpty() || versions.lastKey() < version) {
            versions.put(version, millis);
        }
    }

    /** @return when a version of the customer of at least this one was first seen (ms), or null */
    Long firstAtLeast(int customerId, long version) {
        NavigableMap<Long, Long> versions = seen.get(customerId);
        Map.Entry<Long, Long> e = versions == null ? null : versions.ceilingEntry(version);
        return e == null ? null : e.getValue();
    }
}
