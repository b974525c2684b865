package dev.seams.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.seams.project.Project;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * The committed reports were produced from a clean checkout of HEAD or of an ancestor of HEAD
 * ({@link ReportProvenance}; README "Verdicts and the report"): {@code reports/guarantees.json} and
 * {@code reports/mutants.json} always; {@code reports/performance.json}, {@code reports/candidate/guarantees.json} and
 * the other sinks' reports ({@code reports/sinks/kafka-engine/}, {@code reports/sinks/image-seams-ds-sink-dev/}) where
 * committed. Writes how far each is behind HEAD to {@code target/report-provenance.txt}, which {@code .ci/run}
 * prints. Opt-in, so that {@code mvn test} stays usable while the code changes; {@code .ci/run} runs it on its clean
 * clone before anything regenerates a report. It also holds a new committed {@code guarantees.json} to every PASS of
 * the one it replaced, unless {@code reports/waivers.tsv} says why one is given up:
 * {@code mvn test -Dtest=CommittedReportTest -Dseams.check.report=true}.
 */
@EnabledIfSystemProperty(named = "seams.check.report", matches = "true")
class CommittedReportTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String WAIVERS = Gate.WAIVERS;
    private static final List<String> REQUIRED = List.of("reports/guarantees.json", "reports/mutants.json");
    private static final List<String> WHERE_COMMITTED = List.of("reports/performance.json", "reports/candidate/guarantees.json",
            "reports/sinks/kafka-engine/guarantees.json", "reports/sinks/image-seams-ds-sink-dev/guarantees.json");

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

    /**
     * A new committed {@code reports/guarantees.json} keeps every PASS of the one it replaces (issue 36 §2): the
     * previous version is the file as it was before the last commit that changed it. An entry that PASSed there and
     * is worse, absent or NOT_RUN now fails, unless {@code reports/waivers.tsv} names it with its reason.
     */
    @Test
    @SuppressWarnings("unchecked")
    void theCommittedReportKeepsEveryPassOfTheOneItReplacedOrAWaiverSaysWhy() throws IOException {
        Path root = Project.root();
        Git.Result last = Git.run(root, "log", "-n", "1", "--format=%H", "--", "reports/guarantees.json");
        Assumptions.assumeTrue(last.ok() && !last.output().isEmpty(), "reports/guarantees.json was never committed");
        Git.Result before = Git.run(root, "show", last.output() + "^:reports/guarantees.json");
        Assumptions.assumeTrue(before.ok(), "reports/guarantees.json replaced no earlier report");
        Map<String, Object> previous = JSON.readValue(before.output(), Map.class);
        Map<String, Object> current = ReportWriter.read(root.resolve("reports/guarantees.json"));
        Map<String, String> waivers = Gate.waivers(root.resolve(WAIVERS));
        List<String> unwaived = Gate.of(previous, last.output() + "^:reports/guarantees.json").lostPasses(current).stream()
                .filter(r -> !waivers.containsKey(r.id())).map(Gate.Regression::line).toList();
        assertThat(unwaived).as("entries that PASSed in the report %s replaced and do not PASS in it, without a line "
                + "'<id><TAB><reason>' in %s", last.output(), WAIVERS).isEmpty();
    }
}
