package dev.seams.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * The committed reports were produced from a clean checkout of HEAD or of an ancestor of HEAD
 * ({@link ReportProvenance}; README "Verdicts and the report"): {@code reports/guarantees.json} and
 * {@code reports/mutants.json} always, {@code reports/performance.json} and {@code reports/candidate/guarantees.json}
 * where committed. Writes how far each is behind HEAD to {@code target/report-provenance.txt}, which {@code .ci/run}
 * prints. Opt-in, so that {@code mvn test} stays usable while the code changes; {@code .ci/run} runs it on its clean
 * clone before anything regenerates a report:
 * {@code mvn test -Dtest=CommittedReportTest -Dseams.check.report=true}.
 */
@EnabledIfSystemProperty(named = "seams.check.report", matches = "true")
class CommittedReportTest {

    private static final List<String> REQUIRED = List.of("reports/guarantees.json", "reports/mutants.json");
    private static final List<String> WHERE_COMMITTED = List.of("reports/performance.json", "reports/candidate/guarantees.json");

    @Test
    @SuppressWarnings("unchecked")
    void everyCommittedReportWasProducedFromACleanCommitOfThisBranch() throws IOException {
        Path root = Project.root();
        List<String> lines = new ArrayList<>();
        List<String> reports = new ArrayList<>(REQUIRED);
        WHERE_COMMITTED.stream().filter(r -> Files.exists(root.resolve(r))).forEach(reports::add);
        for (String name : reports) {
            Map<String, Object> report = ReportWriter.read(root.resolve(name));
            assertThat(report).as("%s: missing or empty", name).isNotEmpty();
            ReportProvenance.Behind behind = ReportProvenance.verify(root, name,
                    (Map<String, Object>) report.getOrDefault("source", Map.of()));
            lines.add(behind.line());
        }
        Files.createDirectories(root.resolve("target"));
        Files.writeString(root.resolve("target/report-provenance.txt"), String.join("\n", lines) + "\n");
    }
}
