package dev.seams.bench;

import dev.seams.report.BarChart;
import dev.seams.stand.Stand;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** What every benchmark shares: the run's facts in the report header, rates and ratios, chart files. */
final class BenchRun {

    private BenchRun() {
    }

    /** Records the stand's profile, live versions and start time for the report header. */
    static void facts(Stand stand) {
        Benchmarks.run("profile", stand.profile());
        Benchmarks.run("versions", stand.versions());
        Benchmarks.run("stand_start_seconds", Spread.round(stand.startSeconds(), 1));
    }

    /**
     * @return milliseconds this JVM's JIT compilers have spent so far ({@code CompilationMXBean}, summed over its
     *     compiler threads): the difference across a timed span is the compiling done within it, which a contender
     *     in its steady state no longer pays (issue 26: P1's spread; docs/findings.md 2026-12-06)
     */
    static long jitMillis() {
        return java.lang.management.ManagementFactory.getCompilationMXBean().getTotalCompilationTime();
    }

    /** @return rows per second for this many rows in this many nanoseconds */
    static double rate(long rows, long nanos) {
        return rows / (nanos / 1e9);
    }

    /** One timed run of a contender: its timed nanoseconds (the set-up before it, e.g. a truncate, untimed). */
    @FunctionalInterface
    interface TimedRun {
        long nanos() throws Exception;
    }

    /**
     * A contender's repetition over a span of several seconds (issue 26): the first run's timed nanoseconds are
     * given, and further runs follow until the timed nanoseconds add up to {@link Benchmarks#minSpanNanos()}.
     *
     * @param rows  rows each run moves
     * @param first the first run's timed nanoseconds (run by the caller, e.g. under {@link CpuAccount})
     * @param more  one more run
     * @return the runs' rate, rows per second of timed span, and how many runs it took
     * @throws Exception what a run throws
     */
    static Repetition repeated(long rows, long first, TimedRun more) throws Exception {
        return repeated(rows, first, more, Benchmarks.minSpanNanos());
    }

    /** As {@link #repeated(long, long, TimedRun)}, until this many timed nanoseconds. */
    static Repetition repeated(long rows, long first, TimedRun more, long minSpanNanos) throws Exception {
        long nanos = first;
        int runs = 1;
        while (nanos < minSpanNanos) {
            nanos += more.nanos();
            runs++;
        }
        return new Repetition(runs, nanos, rate(rows * runs, nanos));
    }

    /**
     * One contender's repetition.
     *
     * @param runs       runs of {@link Benchmarks#records()} in it
     * @param nanos      their timed nanoseconds together
     * @param rowsPerSec rows per second over them
     */
    record Repetition(int runs, long nanos, double rowsPerSec) {
    }

    /** @return the ratio a/b per repetition */
    static List<Double> ratios(List<Double> a, List<Double> b) {
        return java.util.stream.IntStream.range(0, a.size()).mapToObj(i -> a.get(i) / b.get(i)).toList();
    }

    /**
     * Writes a chart of one figure per repetition and contender into the report's directory.
     *
     * @param file   the chart's file name, e.g. {@code p1-throughput.svg}
     * @param series contender → its value per repetition
     * @return the file name
     */
    static String perRepetitionChart(String file, String title, String axis, Map<String, List<Double>> series,
                                     Map<String, Double> lines) {
        Map<String, Map<String, ? extends Number>> bars = new LinkedHashMap<>();
        series.forEach((name, values) -> {
            Map<String, Double> byRep = new LinkedHashMap<>();
            for (int i = 0; i < values.size(); i++) {
                byRep.put("rep " + (i + 1), values.get(i));
            }
            bars.put(name, byRep);
        });
        BarChart.write(chartPath(file), title, axis, bars, lines);
        return file;
    }

    /** Writes a grouped bar chart (series → category → value) into the report's directory; returns the file name. */
    static String barChart(String file, String title, String axis, Map<String, Map<String, ? extends Number>> bars) {
        BarChart.write(chartPath(file), title, axis, bars, Map.of());
        return file;
    }

    /** @return where a chart of this run goes (beside the report) */
    static Path chartPath(String file) {
        return PerformanceReport.dir().resolve(file);
    }
}
