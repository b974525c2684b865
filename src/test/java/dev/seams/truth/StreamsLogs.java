package dev.seams.truth;

import java.util.regex.Pattern;

/** What a ds-streams process's log says about its state stores (claim B9: what a restart had to restore). */
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
}
