package dev.seams.mutants;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.seams.report.Provenance;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A report of the same source is a tier's unmutated control (issue 36 §1): its red entries count for no mutant; a report
 * of another source, or without the tier's run, is refused by name.
 */
class MutantControlsTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void aReportOfThisSourceIsTheControlOfEveryTierItRan(@TempDir Path root) throws Exception {
        MutantRun.Settings settings = settings(root);
        Path report = write(root, "control.json", Provenance.of(root).contentHash(), List.of("default", "faults"));

        MutantControls.Control control = MutantControls.fromReport("default", report, settings);

        assertThat(control.red()).as("FAIL, regressed against the baseline, ENVIRONMENT; not PASS, not another tier's")
                .containsOnlyKeys("G4", "G9", "B6");
        assertThat(control.red().get("G9")).contains("PASS in the baseline");
        assertThat(control.selector()).startsWith(MutantControls.Control.FROM_REPORT);
        assertThat(control.broken()).as("an ENVIRONMENT entry makes it no comparison, as a control build's would").contains("B6");
        assertThat(MutantControls.fromReport("faults", report, settings).red()).containsOnlyKeys("B5[broker-kill]");
    }

    @Test
    void aReportOfAnotherSourceOrWithoutTheTierIsRefused(@TempDir Path root) throws Exception {
        MutantRun.Settings settings = settings(root);
        Path other = write(root, "other.json", "0".repeat(64), List.of("default"));
        Path defaultOnly = write(root, "default-only.json", Provenance.of(root).contentHash(), List.of("default"));

        assertThatThrownBy(() -> MutantControls.fromReport("default", other, settings))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("not of this tree");
        assertThatThrownBy(() -> MutantControls.fromReport("faults", defaultOnly, settings))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("holds no run of the faults tier");
    }

    private static MutantRun.Settings settings(Path root) throws Exception {
        Files.createDirectories(root.resolve("src"));
        Files.writeString(root.resolve("src/A.java"), "class A {}");
        Files.writeString(root.resolve("pom.xml"), "<project/>");
        Path baseline = root.resolve("baseline.json");
        JSON.writeValue(baseline.toFile(), Map.of("claims", List.of(
                Map.of("id", "G1", "verdict", "PASS", "tier", "default"),
                Map.of("id", "G9", "verdict", "PASS", "tier", "default"),
                Map.of("id", "B6", "verdict", "PASS", "tier", "default"),
                Map.of("id", "B5[broker-kill]", "verdict", "PASS", "tier", "faults"))));
        return new MutantRun.Settings(root, root.resolve("work"), baseline, "offline", "mvn", false, Duration.ofMinutes(1));
    }

    private static Path write(Path root, String name, String hash, List<String> tiers) throws Exception {
        Path report = root.resolve(name);
        JSON.writeValue(report.toFile(), Map.of(
                "source", Map.of("content_hash", hash, "commit", "abc"),
                "runs", tiers.stream().map(t -> Map.of("tier", t)).toList(),
                "claims", List.of(
                        Map.of("id", "G1", "verdict", "PASS", "tier", "default"),
                        Map.of("id", "G4", "verdict", "FAIL", "tier", "default", "reason", "engine"),
                        Map.of("id", "G9", "verdict", "UNVERIFIED", "tier", "default", "reason", "no proof"),
                        Map.of("id", "B6", "verdict", "ENVIRONMENT", "tier", "default", "reason", "stand"),
                        Map.of("id", "B5[broker-kill]", "verdict", "FAIL", "tier", "faults", "reason", "lost"))));
        return report;
    }
}
