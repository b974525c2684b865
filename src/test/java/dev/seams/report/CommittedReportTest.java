package dev.seams.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * The committed {@code reports/guarantees.json} (and {@code reports/mutants.json}) is the evidence of the code beside it: it was
 * produced from the same {@code src/}, {@code containers/} and {@code pom.xml} ({@link Provenance}).
 * Opt-in, so that {@code mvn test} stays usable while the code changes; {@code .ci/run} runs it on
 * its clean clone before anything regenerates the report:
 * {@code mvn test -Dtest=CommittedReportTest -Dseams.check.report=true}.
 */
@EnabledIfSystemProperty(named = "seams.check.report", matches = "true")
class CommittedReportTest {

    @Test
    @SuppressWarnings("unchecked")
    void theCommittedReportWasProducedFromTheCodeBesideIt() {
        Map<String, Object> report = ReportWriter.read(Project.root().resolve("reports/guarantees.json"));
        assertThat(report).as("reports/guarantees.json").isNotEmpty();
        Map<String, Object> source = (Map<String, Object>) report.getOrDefault("source", Map.of());
        Provenance now = Provenance.of(Project.root());
        assertThat(source.get("hashes")).as("hashes of the source the committed report was produced from (generated %s "
                        + "from commit %s) vs this tree: regenerate reports/ with the full suite (mvn verify, then -Pfaults)",
                report.get("generated_at"), source.get("commit"))
                .isEqualTo(now.hashes());
        assertThat(source.get("content_hash")).isEqualTo(now.contentHash());
    }

    /** The committed mutants report ({@code mvn verify -Pmutants}, issue 21) is the evidence of the code beside it too. */
    @Test
    @SuppressWarnings("unchecked")
    void theCommittedMutantsReportWasProducedFromTheCodeBesideIt() {
        Map<String, Object> report = ReportWriter.read(Project.root().resolve("reports/mutants.json"));
        assertThat(report).as("reports/mutants.json").isNotEmpty();
        Map<String, Object> source = (Map<String, Object>) report.getOrDefault("source", Map.of());
        assertThat(source.get("content_hash")).as("the source the committed mutants report was produced from (generated %s "
                        + "from commit %s) vs this tree: regenerate it with mvn verify -Pmutants",
                report.get("generated_at"), source.get("commit"))
                .isEqualTo(Provenance.of(Project.root()).contentHash());
    }
}
