package dev.seams.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The benchmarks' results of this JVM, collected for {@link PerformanceReport}, and the run's
 * size: {@code -Dseams.bench.records} (records per P1/P2 run, default {@value #DEFAULT_RECORDS})
 * and {@code -Dseams.bench.repetitions} (default {@value #DEFAULT_REPETITIONS}), set by the
 * {@code bench} profile of pom.xml. Thread-safe.
 */
public final class Benchmarks {

    /** Records per P1/P2 run unless {@code -Dseams.bench.records} says otherwise (issue 13: N = 100,000). */
    public static final int DEFAULT_RECORDS = 100_000;
    /** Repetitions per figure unless {@code -Dseams.bench.repetitions} says otherwise (issue 13: 5). */
    public static final int DEFAULT_REPETITIONS = 5;

    private static final List<BenchResult> RESULTS = new ArrayList<>();
    private static final Map<String, Object> RUN = new LinkedHashMap<>();

    private Benchmarks() {
    }

    /** Records a benchmark's result (a later result with the same id replaces it). */
    public static synchronized void record(BenchResult result) {
        RESULTS.removeIf(r -> r.id().equals(result.id()));
        RESULTS.add(result);
    }

    /** Records a fact of the run (e.g. the profile, the live versions). */
    public static synchronized void run(String name, Object value) {
        RUN.put(name, value);
    }

    /** @return the results so far, in the order recorded */
    public static synchronized List<BenchResult> results() {
        return List.copyOf(RESULTS);
    }

    /** @return the run's facts so far */
    public static synchronized Map<String, Object> runFacts() {
        return new LinkedHashMap<>(RUN);
    }

    /** @return records per P1/P2 run */
    public static int records() {
        return intProperty("seams.bench.records", DEFAULT_RECORDS);
    }

    /** @return repetitions per figure */
    public static int repetitions() {
        return intProperty("seams.bench.repetitions", DEFAULT_REPETITIONS);
    }

    private static int intProperty(String name, int fallback) {
        String value = System.getProperty(name, "");
        return value.isBlank() || value.startsWith("${") ? fallback : Integer.parseInt(value.trim());
    }
}
