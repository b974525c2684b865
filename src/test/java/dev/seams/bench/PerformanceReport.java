package dev.seams.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.seams.project.Project;
import dev.seams.report.Provenance;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;

/**
 * Writes {@code reports/performance.json} and {@code reports/performance.md} at the end of a
 * {@code -Pbench} run (issue 13 §3; README "Tiers"), from the {@link Benchmarks}
 * recorded in this JVM; a JVM that ran no benchmark writes nothing, and the claims report
 * ({@code reports/guarantees.*}) is never touched. Registered as a JUnit Platform
 * {@link LauncherSessionListener} (META-INF/services), beside the claims' {@code ReportWriter}.
 *
 * <p>The committed report is the output of a full run: a run restricted to some classes
 * ({@code -Dit.test=…}) or of another size ({@code -Dseams.bench.records},
 * {@code -Dseams.bench.repetitions}, {@code -Dseams.bench.span-seconds} other than 100,000, 5 and 4) writes to
 * {@code target/bench-report/} instead. The {@code source} object is the same {@link Provenance}
 * the claims report carries.
 */
public final class PerformanceReport implements LauncherSessionListener {

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private long openedNanos;

    @Override
    public void launcherSessionOpened(LauncherSession session) {
        openedNanos = System.nanoTime();
    }

    @Override
    public void launcherSessionClosed(LauncherSession session) {
        List<BenchResult> results = Benchmarks.results();
        if (results.isEmpty()) {
            return;
        }
        double seconds = (System.nanoTime() - openedNanos) / 1e9;
        write(dir(), Benchmarks.runFacts(), results, seconds, Instant.now(), Provenance.of(Project.root()));
    }

    /** @return {@code reports/} for a full-size run of every benchmark, else {@code target/bench-report/} */
    public static Path dir() {
        String filter = System.getProperty("seams.it.test", "");
        boolean partial = (!filter.isBlank() && !filter.startsWith("${"))
                || Benchmarks.records() != Benchmarks.DEFAULT_RECORDS
                || Benchmarks.repetitions() != Benchmarks.DEFAULT_REPETITIONS
                || Benchmarks.minSpanNanos() != Benchmarks.DEFAULT_SPAN_SECONDS * 1_000_000_000L;
        return Project.root().resolve(partial ? "target/bench-report" : "reports");
    }

    /**
     * Writes both files.
     *
     * @param dir      target directory (created if missing)
     * @param run      facts of the run (profile, versions, stand start seconds, …)
     * @param results  the benchmarks, in the order they ran (the report sorts them by id)
     * @param seconds  the run's wall time
     * @param finished when it ended
     * @param source   what it ran
     * @throws UncheckedIOException if a file cannot be written
     */
    static void write(Path dir, Map<String, Object> run, List<BenchResult> results, double seconds, Instant finished,
                      Provenance source) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("generated_at", finished.truncatedTo(ChronoUnit.SECONDS).toString());
        json.putAll(run);
        json.put("bench_seconds", Spread.round(seconds, 1));
        json.put("records", Benchmarks.records());
        json.put("repetitions", Benchmarks.repetitions());
        json.put("span_seconds", Benchmarks.minSpanNanos() / 1_000_000_000L);
        json.put("cores", Runtime.getRuntime().availableProcessors());
        json.put("source", source.toJson());
        json.put("benchmarks", results.stream().sorted((a, b) -> a.id().compareTo(b.id())).map(BenchResult::toJson).toList());
        try {
            Files.createDirectories(dir);
            @SuppressWarnings("unchecked")
            Map<String, Object> plain = JSON.convertValue(json, Map.class);
            Files.writeString(dir.resolve("performance.json"), JSON.writeValueAsString(plain) + "\n");
            Files.writeString(dir.resolve("performance.md"), PerformanceMarkdown.render(plain));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the performance report to " + dir, e);
        }
    }
}
