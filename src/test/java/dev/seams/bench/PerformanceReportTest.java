package dev.seams.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.seams.project.Project;
import dev.seams.report.Provenance;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PerformanceReportTest {

    @Test
    void aSpreadIsTheMedianWithMinAndMax() {
        assertThat(Spread.of(List.of(0.9, 0.7, 0.8, 1.2, 0.75))).extracting(Spread::median, Spread::min, Spread::max)
                .containsExactly(0.8, 0.7, 1.2);
        assertThat(Spread.of(List.of(1.0, 2.0)).median()).isEqualTo(1.5);
        assertThat(Percentiles.of(new double[] {5, 1, 3, 2, 4})).extracting(Percentiles::p50, Percentiles::p99, Percentiles::max)
                .containsExactly(3.0, 5.0, 5.0);
    }

    @Test
    @SuppressWarnings("unchecked")
    void bothFilesCarryGoalRatiosFiguresAndSource(@TempDir Path dir) throws Exception {
        BenchResult p1 = new BenchResult("P1", "Sink vs direct insert", "sink ≥ 0.8 × direct", 0.8);
        p1.ratio("sink_vs_direct", Spread.of(List.of(0.85, 0.9, 0.79)));
        p1.figure("direct_rows_per_s", Spread.of(List.of(100_000.0, 90_000.0, 110_000.0)), 0);
        p1.table("profile", List.of("method", "samples"), List.of(List.of("a.b", 3)));
        p1.chart("p1.svg", "rows/s");
        BenchResult p4 = new BenchResult("P4", "Per-hop latency", "explains B6", null);
        p4.figure("hop_1_p50_ms", 480L);
        Provenance source = new Provenance("abc", Map.of("src", "def"), "0123", false);

        PerformanceReport.write(dir, Map.of("profile", "offline"), List.of(p4, p1), 61.25, Instant.parse("2026-11-30T03:00:00Z"), source);

        Map<String, Object> json = new ObjectMapper().readValue(dir.resolve("performance.json").toFile(), Map.class);
        List<Map<String, Object>> benchmarks = (List<Map<String, Object>>) json.get("benchmarks");
        assertThat(benchmarks).extracting(b -> b.get("id")).containsExactly("P1", "P4");
        assertThat(benchmarks.get(0)).containsEntry("goal_met", true).containsEntry("headline", "sink_vs_direct");
        assertThat(benchmarks.get(1).get("goal_met")).isNull();
        assertThat((Map<String, Object>) json.get("source")).containsEntry("content_hash", "abc");
        String md = Files.readString(dir.resolve("performance.md"));
        assertThat(md).contains("| P1 | Sink vs direct insert | sink ≥ 0.8 × direct | sink_vs_direct 0.85 (0.79–0.9) | **yes** |")
                .contains("![rows/s](p1.svg)").contains("| direct_rows_per_s | 100000 (90000–110000)")
                .contains("commit `0123`");
    }

    /**
     * The committed report holds only what its own run measured (issue 36): every ratio and spread figure is the
     * median, min and max of its per-repetition values, one value per repetition of the run, the headline is its
     * ratio's median and "goal met" follows from it; no figure is a path of the machine that ran it (a relative one
     * under the project is, e.g. {@code target/bench/p1-sink.jfr}). Its source commit is checked by CommittedReportTest.
     */
    @Test
    @SuppressWarnings("unchecked")
    void theCommittedReportHoldsOnlyMeasuredFigures() throws Exception {
        Path committed = Project.root().resolve("reports/performance.json");
        assumeTrue(Files.exists(committed), "no committed performance report");
        Map<String, Object> json = new ObjectMapper().readValue(committed.toFile(), Map.class);
        int repetitions = ((Number) json.get("repetitions")).intValue();
        for (Map<String, Object> b : (List<Map<String, Object>>) json.get("benchmarks")) {
            Map<String, Object> ratios = (Map<String, Object>) b.get("ratios");
            ratios.forEach((name, spread) -> assertMeasured(b.get("id") + " ratio " + name, (Map<String, Object>) spread, repetitions));
            ((Map<String, Object>) b.get("figures")).forEach((name, value) -> {
                if (value instanceof Map<?, ?> m && m.containsKey("values")) {
                    assertMeasured(b.get("id") + " figure " + name, (Map<String, Object>) value, repetitions);
                }
                assertThat(String.valueOf(value)).as(b.get("id") + " figure " + name + " names no path of the machine")
                        .doesNotStartWith("/").doesNotContain(":\\");
            });
            if (b.get("headline") != null) {
                double median = ((Number) ((Map<String, Object>) ratios.get(b.get("headline"))).get("median")).doubleValue();
                assertThat(b.get("goal_met")).as(b.get("id") + " goal met from its headline's median")
                        .isEqualTo(median >= ((Number) b.get("goal_ratio")).doubleValue());
            }
        }
    }

    @SuppressWarnings("unchecked")
    private static void assertMeasured(String what, Map<String, Object> spread, int repetitions) {
        List<Double> values = ((List<Number>) spread.get("values")).stream().map(Number::doubleValue).toList();
        assertThat(values).as(what + ": one value per repetition").hasSize(repetitions);
        Spread recomputed = Spread.of(values);
        double tolerance = 1e-3 * Math.max(1, Math.abs(recomputed.median()));
        assertThat(((Number) spread.get("median")).doubleValue()).as(what + " median").isCloseTo(recomputed.median(),
                offset(tolerance));
        assertThat(((Number) spread.get("min")).doubleValue()).as(what + " min").isEqualTo(recomputed.min());
        assertThat(((Number) spread.get("max")).doubleValue()).as(what + " max").isEqualTo(recomputed.max());
    }
}
