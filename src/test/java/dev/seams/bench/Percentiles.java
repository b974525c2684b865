package dev.seams.bench;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Latency percentiles of one sample (nearest rank), milliseconds.
 *
 * @param p50 the median
 * @param p99 the 99th percentile
 * @param max the largest
 * @param n   the sample's size
 */
record Percentiles(double p50, double p99, double max, int n) {

    /** @param values at least one latency, ms */
    static Percentiles of(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return new Percentiles(rank(sorted, 0.50), rank(sorted, 0.99), sorted[sorted.length - 1], sorted.length);
    }

    private static double rank(double[] sorted, double p) {
        return sorted[Math.max(0, (int) Math.ceil(p * sorted.length) - 1)];
    }

    /** @return p50, p99 and max in whole ms, for a chart or a table */
    Map<String, Long> marks() {
        Map<String, Long> marks = new LinkedHashMap<>();
        marks.put("p50", Math.round(p50));
        marks.put("p99", Math.round(p99));
        marks.put("max", Math.round(max));
        return marks;
    }
}
