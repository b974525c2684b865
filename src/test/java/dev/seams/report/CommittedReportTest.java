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
 * ({@link ReportProvenance}; docs/gate.md "Where the committed report comes from"): {@code reports/guarantees.json} and
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
        // what the gate of this run will not count (docs/gate.md "The regression gate"): shown in CI's log, not only in the report
        List<Waivers.Waiver> inForce = Waivers.newerThan(Waivers.read(root, WAIVERS), root, Waivers.reportChange(root, REQUIRED.get(0), 0));
        lines.add(inForce.isEmpty() ? WAIVERS + ": no waiver in force for the gate"
                : WAIVERS + ": in force for the gate, never counted as a regression: " + String.join("; ",
                        inForce.stream().map(Waivers.Waiver::line).toList()));
        Files.createDirectories(root.resolve("target"));
        Files.writeString(root.resolve("target/report-provenance.txt"), String.join("\n", lines) + "\n");
    }

    /**
     * A new committed {@code reports/guarantees.json} keeps every PASS of the one it replaces (docs/gate.md "The
     * regression gate"): the previous version is the file as it was before the last commit that changed it. An entry that PASSed
     * there and is worse, absent or NOT_RUN now fails, unless {@code reports/waivers.tsv} names it with its reason in a
     * line added after that previous version. A waiver as old as that previous version or older has lapsed (it served a
     * change of the report before this one, and the report it served no longer holds its entry): the line fails until it
     * is deleted, or committed again with a reason ({@link Waivers}).
     */
    @Test
    @SuppressWarnings("unchecked")
    void theCommittedReportKeepsEveryPassOfTheOneItReplacedOrAWaiverSaysWhy() throws IOException {
        Path root = Project.root();
        String last = Waivers.reportChange(root, "reports/guarantees.json", 0);
        Assumptions.assumeTrue(last != null, "reports/guarantees.json was never committed");
        Git.Result before = Git.run(root, "show", last + "^:reports/guarantees.json");
        Assumptions.assumeTrue(before.ok(), "reports/guarantees.json replaced no earlier report");
        Map<String, Object> previous = JSON.readValue(before.output(), Map.class);
        Map<String, Object> current = ReportWriter.read(root.resolve("reports/guarantees.json"));
        List<Waivers.Waiver> waivers = Waivers.read(root, WAIVERS);
        List<Waivers.Waiver> inForce = Waivers.newerThan(waivers, root, Waivers.reportChange(root, "reports/guarantees.json", 1));
        assertThat(waivers.stream().filter(w -> !inForce.contains(w)).map(Waivers.Waiver::line).toList())
                .as("lapsed waivers in %s: older than the report %s replaced, so they served an earlier change of the report; "
                        + "delete each line, or commit it again with the reason it still holds", WAIVERS, last).isEmpty();
        Map<String, String> waived = Waivers.byId(inForce);
        List<String> unwaived = Gate.of(previous, last + "^:reports/guarantees.json").lostPasses(current).stream()
                .filter(r -> !waived.containsKey(r.id())).map(Gate.Regression::line).toList();
        assertThat(unwaived).as("entries that PASSed in the report %s replaced and do not PASS in it, without a line "
                + "'<id><TAB><reason>' in %s", last, WAIVERS).isEmpty();
    }
}
