package dev.seams.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The benchmarks' results of this JVM, collected for {@link PerformanceReport}, and the run's
 * size: {@code -Dseams.bench.records} (records per P1/P2 run, default {@value #DEFAULT_RECORDS})
 * {@code -Dseams.bench.repetitions} (default {@value #DEFAULT_REPETITIONS}) and
 * {@code -Dseams.bench.span-seconds} (the least timed seconds of one contender in one repetition, default
 * {@value #DEFAULT_SPAN_SECONDS}), set by the {@code bench} profile of pom.xml. Thread-safe.
 */
public final class Benchmarks {

    /** Records per P1/P2 run unless {@code -Dseams.bench.records} says otherwise (issue 13: N = 100,000). */
    public static final int DEFAULT_RECORDS = 100_000;
    /** Repetitions per figure unless {@code -Dseams.bench.repetitions} says otherwise (issue 13: 5). */
    public static final int DEFAULT_REPETITIONS = 5;

    /**
     * Least timed seconds of one contender in one repetition unless {@code -Dseams.bench.span-seconds} says otherwise
     * (issue 26: each repetition measured over several seconds, so that this noisy machine's hiccups average out):
     * a contender whose run of {@link #records()} takes less runs again until its timed spans add up to it.
     */
    public static final int DEFAULT_SPAN_SECONDS = 4;

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

    /** @return the least timed nanoseconds of one contender in one repetition ({@link #DEFAULT_SPAN_SECONDS}) */
    public static long minSpanNanos() {
        return intProperty("seams.bench.span-seconds", DEFAULT_SPAN_SECONDS) * 1_000_000_000L;
    }

    private static int intProperty(String name, int fallback) {
        String value = System.getProperty(name, "");
        return value.isBlank() || value.startsWith("${") ? fallback : Integer.parseInt(value.trim());
    }
}
