package dev.seams.truth;

import java.util.regex.Pattern;

/**
 * What a ds-streams process's log says about its state stores (claims B9 and G14: whether a restart found its local
 * state corrupted, and what it had to restore).
 */
public final class StreamsLogs {

    /** Kafka Streams' line at the end of each changelog partition's restore ({@code StoreChangelogReader}). */
    private static final Pattern RESTORED =
            Pattern.compile("Finished restoring changelog \\S+ to store \\S+ with a total number of (\\d+) records");

    private StreamsLogs() {
    }

    /**
     * @param streamsLog one ds-streams process's log
     * @return the changelog records it restored into its state stores, summed over its changelog partitions; 0 if it
     *     restored none
     */
    public static long restoredRecords(String streamsLog) {
        return RESTORED.matcher(streamsLog).results().mapToLong(m -> Long.parseLong(m.group(1))).sum();
    }

    /**
     * @param streamsLog one ds-streams process's log
     * @return whether Kafka Streams logged a {@code TaskCorruptedException}: after kill -9 under exactly-once its local
     *     checkpoint did not match the changelogs, so it wiped the tasks' state and restored it (claim G14)
     */
    public static boolean taskCorrupted(String streamsLog) {
        return streamsLog.contains("TaskCorruptedException");
    }
}
