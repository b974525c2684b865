package dev.seams.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link GateCheck}: a tier run's verdict reaches the build's gate execution, and only that build's. */
class GateCheckFilesTest {

    @TempDir
    Path root;

    @Test
    void theVerdictsOfThisBuildAreReadAndThoseOfAnEarlierBuildAreNot() {
        Map<String, Object> report = Map.of("gate", Map.of("baseline", "/tmp/b.json", "baseline_commit", "2af64c2",
                "regressions", List.of("G2: PASS in the baseline, MISSING now (the default tier ran whole and did not produce it)")));
        GateCheck.write(root, "faults", Instant.parse("2026-12-03T05:00:00Z"), Map.of("gate", Map.of("regressions", List.of("old"))));
        GateCheck.write(root, "default", Instant.parse("2026-12-03T06:00:10Z"), report);

        List<GateCheck.Verdict> verdicts = GateCheck.read(root, Instant.parse("2026-12-03T06:00:00Z"));

        assertThat(verdicts).extracting(GateCheck.Verdict::tier).containsExactly("default");
        assertThat(verdicts.get(0).regressions()).containsExactly(
                "G2: PASS in the baseline, MISSING now (the default tier ran whole and did not produce it)");
        assertThat(verdicts.get(0).baseline()).isEqualTo("/tmp/b.json (commit 2af64c2)");
    }
}
