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

    @Test
    void aGatedWholeBuildFailsForEveryTierItOwesThatLeftNoVerdict() {
        GateCheck.write(root, "faults", Instant.parse("2026-12-03T06:00:10Z"), Map.of("gate", Map.of("regressions", List.of())));
        List<GateCheck.Verdict> verdicts = GateCheck.read(root, Instant.parse("2026-12-03T06:00:00Z"));

        assertThat(GateCheck.failures(verdicts, List.of("faults", "faults-cluster"))).as("the cluster execution's selector "
                + "matched no claim test").containsExactly("the faults-cluster tier ran whole against a baseline and left no "
                + "verdict in target/gate: no claim test of it ran (its selector matched none, or its JVM ended before the report)");
        assertThat(GateCheck.failures(verdicts, List.of("faults"))).isEmpty();
        assertThat(GateCheck.failures(List.of(), List.of("default"))).hasSize(1);
    }

    @Test
    void aTierVerdictWithARegressionOrAShortCountFailsTheBuild() {
        GateCheck.write(root, "default", Instant.parse("2026-12-03T06:00:10Z"), Map.of("gate", Map.of("baseline", "b.json",
                "baseline_commit", "2af64c2", "entries_produced", 73, "baseline_entries", 74, "regressions",
                List.of("the default tier: 74 entries in the baseline, 73 now (not produced, or NOT_RUN, besides any MISSING above: G6[x])"))));
        List<GateCheck.Verdict> verdicts = GateCheck.read(root, Instant.parse("2026-12-03T06:00:00Z"));

        assertThat(GateCheck.failures(verdicts, List.of("default"))).containsExactly("the default tier against b.json (commit "
                + "2af64c2): the default tier: 74 entries in the baseline, 73 now (not produced, or NOT_RUN, besides any MISSING above: G6[x])");
    }

    @Test
    void aTierThatStoppedInThisBuildIsReadAndOneOfAnEarlierBuildIsNot() throws Exception {
        GateCheck.writeStop(root, "faults", Map.of("reason", "old", "not_run", List.of("B5")));
        java.nio.file.Files.setLastModifiedTime(GateCheck.dir(root).resolve("faults.stopped"),
                java.nio.file.attribute.FileTime.from(Instant.parse("2026-12-03T05:00:00Z")));
        GateCheck.writeStop(root, "default", Map.of("reason", "the tier's claims ran out of their 900 s", "not_run", List.of("B9", "G12")));

        assertThat(GateCheck.stops(root, Instant.parse("2026-12-03T06:00:00Z"))).containsExactly("the default tier stopped "
                + "before its end: the tier's claims ran out of their 900 s; 2 claims not started (NOT_RUN)");
        assertThat(GateCheck.read(root, Instant.parse("2026-12-03T06:00:00Z"))).as("a stop is no gate verdict").isEmpty();
    }
}
