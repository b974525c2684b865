package dev.seams.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The sinks' side-by-side page from reports on disk. */
class SinksMarkdownTest {

    private static Map<String, Object> report(String sink, List<Map<String, Object>> claims) {
        Map<String, Object> r = new LinkedHashMap<>();
        if (sink != null) {
            r.put("sink", sink);
        }
        r.put("profile", "offline");
        r.put("generated_at", "2026-12-06T12:00:00Z");
        r.put("source", Map.of("commit", "0123456789abcdef0123"));
        r.put("verdicts", Map.of("PASS", 1, "NOT_RUN", claims.size() - 1));
        r.put("claims", claims);
        return r;
    }

    @Test
    void eachSinkIsAColumnAndEachEntryARowWithTheVerdictAndItsReason() {
        Map<String, Map<String, Object>> reports = new LinkedHashMap<>();
        reports.put("reports/guarantees.json", report(null, List.of(
                Map.of("id", "G1", "title", "Baseline parity", "verdict", "PASS"),
                Map.of("id", "G11", "title", "DLQ routing", "verdict", "PASS"))));
        reports.put("reports/sinks/kafka-engine/guarantees.json", report("kafka-engine", List.of(
                Map.of("id", "G1", "title", "Baseline parity", "verdict", "PASS"),
                Map.of("id", "G11", "title", "DLQ routing", "verdict", "NOT_RUN", "reason", "kafka-engine: no dead-letter | queue"))));
        String md = SinksMarkdown.render(reports, ClaimCatalog.load());
        assertThat(md).contains("| `ds-sink` | `reports/guarantees.json` | `offline` | `0123456789ab` |")
                .contains("| entry | title | `ds-sink` | `kafka-engine` |")
                .contains("| G1 | Baseline parity | PASS | PASS |")
                .contains("| G11 | DLQ routing | PASS | **NOT_RUN**: kafka-engine: no dead-letter \\| queue |");
        assertThat(md.indexOf("| G1 |")).isLessThan(md.indexOf("| G11 |"));
    }

    @Test
    void nothingIsWrittenWithoutAnotherSinksReport(@TempDir Path root) throws Exception {
        Files.createDirectories(root.resolve("reports"));
        Files.writeString(root.resolve("reports/guarantees.json"), "{\"claims\":[]}");
        assertThat(SinksMarkdown.write(root)).isFalse();
        Files.createDirectories(root.resolve("reports/sinks/kafka-engine"));
        Files.writeString(root.resolve("reports/sinks/kafka-engine/guarantees.json"), "{\"sink\":\"kafka-engine\",\"claims\":[]}");
        assertThat(SinksMarkdown.write(root)).isTrue();
        assertThat(root.resolve("reports/sinks.md")).content().contains("`kafka-engine`");
    }
}
