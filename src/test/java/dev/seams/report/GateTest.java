package dev.seams.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The regression gate's rule (issue 21): an entry that PASSed in the baseline and does not PASS now, among those that ran. */
class GateTest {

    private static final Gate GATE = Gate.of(Map.of("source", Map.of("commit", "2af64c2f1467f81a"), "claims", List.of(
            Map.of("id", "G13", "verdict", "PASS"),
            Map.of("id", "G14[kill -9 @10%]", "verdict", "PASS"),
            Map.of("id", "G6[optimize_on_insert=1]", "verdict", "UNVERIFIED"),
            Map.of("id", "B5[broker-kill]", "verdict", "PASS"))), "baseline.json");

    @Test
    void anEntryThatPassedAndNoLongerPassesIsARegressionWhateverItsVerdict() {
        assertThat(GATE.judge("G13", Verdict.UNVERIFIED, "ds-streams idle").line())
                .isEqualTo("G13: PASS in the baseline, UNVERIFIED now (ds-streams idle)");
        assertThat(GATE.judge("G13", Verdict.FAIL, null).after()).isEqualTo("FAIL");
        assertThat(GATE.judge("G13", Verdict.ENVIRONMENT, "stand down").after()).isEqualTo("ENVIRONMENT");
        assertThat(GATE.judge("G13", Verdict.PASS, null)).isNull();
    }

    @Test
    void anEntryTheBaselineDidNotPassOrDidNotHaveIsNotJudged() {
        assertThat(GATE.judge("G6[optimize_on_insert=1]", Verdict.UNVERIFIED, "no such setting")).isNull();
        assertThat(GATE.judge("B13", Verdict.FAIL, "new")).isNull();
    }

    @Test
    void aReportIsJudgedOnTheEntriesThatRanOnly() {
        Map<String, Object> run = Map.of("claims", List.of(
                Map.of("id", "G13", "verdict", "PASS"),
                Map.of("id", "G14[kill -9 @10%]", "verdict", "UNVERIFIED", "reason", "no transaction open"),
                Map.of("id", "B5[broker-kill]", "verdict", "NOT_RUN", "reason", "the faults tier did not run")));
        assertThat(GATE.regressions(run)).extracting(Gate.Regression::line)
                .containsExactly("G14[kill -9 @10%]: PASS in the baseline, UNVERIFIED now (no transaction open)");
        assertThat(GATE.describe()).isEqualTo("baseline.json (2af64c2)");
    }

    @Test
    void aPartThatPassedAndVanishedWhileItsClaimRanIsARegression() {
        Gate gate = Gate.of(Map.of("claims", List.of(
                Map.of("id", "B12", "verdict", "PASS"),
                Map.of("id", "B12[join and leave @55%]", "verdict", "PASS", "part_of", "B12"),
                Map.of("id", "B12[join and leave @5%]", "verdict", "PASS", "part_of", "B12"),
                Map.of("id", "B5[broker-kill@10%]", "verdict", "PASS", "part_of", "B5[broker-kill]"))), "baseline.json");
        Map<String, Object> run = Map.of("claims", List.of(
                Map.of("id", "B12", "verdict", "PASS"),
                Map.of("id", "B12[join and leave @5%]", "verdict", "PASS", "part_of", "B12"),
                Map.of("id", "B12[join and leave @65%]", "verdict", "PASS", "part_of", "B12")));
        assertThat(gate.regressions(run)).extracting(Gate.Regression::line).as("renamed or dropped, not the parts of a claim that did not run")
                .containsExactly("B12[join and leave @55%]: PASS in the baseline, MISSING now (its claim B12 ran and did not produce it)");
        assertThat(gate.vanishedParts("B12", List.of("B12[join and leave @5%]", "B12[join and leave @55%]"))).isEmpty();
    }

    @Test
    void aWaivedEntryIsNoRegressionAndTheRestStillAre(@TempDir Path dir) throws Exception {
        Gate gate = Gate.of(Map.of("claims", List.of(
                Map.of("id", "G11", "verdict", "PASS", "tier", "default"),
                Map.of("id", "G11[three-decimals]", "verdict", "PASS", "part_of", "G11", "tier", "default"),
                Map.of("id", "G11[tombstone]", "verdict", "PASS", "part_of", "G11", "tier", "default"))), "baseline.json");
        Path file = dir.resolve("waivers.tsv");
        Files.writeString(file, "# comment\nG11[three-decimals]\tno longer a bad record since B15\n");
        Gate waived = gate.withWaivers(Waivers.parse(file));
        Map<String, Object> run = Map.of("claims", List.of(Map.of("id", "G11", "verdict", "PASS", "tier", "default"),
                Map.of("id", "G11[comma-decimal]", "verdict", "PASS", "part_of", "G11", "tier", "default")));

        assertThat(waived.wholeRun(run, List.of("default"))).extracting(Gate.Regression::id).containsExactly("G11[tombstone]");
        assertThat(gate.wholeRun(run, List.of("default"))).extracting(Gate.Regression::id)
                .containsExactlyInAnyOrder("G11[three-decimals]", "G11[tombstone]");
        Files.writeString(file, "G11[tombstone]\n");
        assertThatThrownBy(() -> Waivers.parse(file)).hasMessageContaining("a waiver names the entry and its reason");
    }

    @Test
    void aWholeTierRunFailsOnAVanishedEntryANotRunEntryAndARenamedVariant() {
        Gate gate = Gate.of(Map.of("claims", List.of(
                Map.of("id", "G1", "verdict", "PASS", "tier", "default"),
                Map.of("id", "G2", "verdict", "PASS", "tier", "default"),
                Map.of("id", "B3[connect-kill]", "verdict", "PASS", "tier", "default"),
                Map.of("id", "B9[static]", "verdict", "PASS", "tier", "default"),
                Map.of("id", "B9[static]@1", "verdict", "PASS", "tier", "default", "part_of", "B9[static]"),
                Map.of("id", "G6[optimize_on_insert=1]", "verdict", "UNVERIFIED", "tier", "default"),
                Map.of("id", "B5[broker-kill]", "verdict", "PASS", "tier", "faults"))), "baseline.json");
        Map<String, Object> run = Map.of("claims", List.of(
                Map.of("id", "G1", "verdict", "PASS", "tier", "default"),
                Map.of("id", "B3[connect-restart]", "verdict", "PASS", "tier", "default"),
                Map.of("id", "B9[static]", "verdict", "NOT_RUN", "tier", "default", "reason", "disabled"),
                Map.of("id", "B5[broker-kill]", "verdict", "NOT_RUN", "tier", "faults", "reason", "the faults tier did not run")));

        assertThat(gate.missing(run, List.of("default"))).extracting(Gate.Regression::line).containsExactly(
                "G2: PASS in the baseline, MISSING now (the default tier ran whole and did not produce it)",
                "B3[connect-kill]: PASS in the baseline, MISSING now (the default tier ran whole and did not produce it)",
                "B9[static]: PASS in the baseline, MISSING now (the default tier ran whole and produced it as NOT_RUN: disabled)",
                "B9[static]@1: PASS in the baseline, MISSING now (the default tier ran whole and did not produce it)");
        assertThat(gate.missing(run, List.of("faults"))).extracting(Gate.Regression::id).as("the tier that ran is judged")
                .containsExactly("B5[broker-kill]");
        assertThat(gate.regressions(run)).as("a restricted run is judged on what ran: the NOT_RUN entries are not")
                .isEmpty();
    }

    @Test
    void aMovedEntryAndItsPartsAreOwedByTheirNewTierOnly(@TempDir Path dir) throws Exception {
        Gate gate = Gate.of(Map.of("claims", List.of(
                Map.of("id", "G14", "verdict", "PASS", "tier", "default"),
                Map.of("id", "G14[3 kills under load]", "verdict", "PASS", "tier", "default"),
                Map.of("id", "G14[kill -9 @10%]", "verdict", "PASS", "tier", "default", "part_of", "G14[3 kills under load]"),
                Map.of("id", "B5[broker-kill]", "verdict", "PASS", "tier", "faults"))), "baseline.json");
        Path file = dir.resolve("tier-moves.tsv");
        Files.writeString(file, "# comment\nG14[3 kills under load]\tfaults\tthe default tier's budget\n");
        Gate moved = gate.withMoves(Gate.moves(file));
        Map<String, Object> defaultRun = Map.of("claims", List.of(Map.of("id", "G14", "verdict", "PASS", "tier", "default")));
        Map<String, Object> faultRun = Map.of("claims", List.of(
                Map.of("id", "G14", "verdict", "PASS", "tier", "default"),
                Map.of("id", "G14[3 kills under load]", "verdict", "PASS", "tier", "faults"),
                Map.of("id", "B5[broker-kill]", "verdict", "PASS", "tier", "faults")));

        assertThat(moved.missing(defaultRun, List.of("default"))).as("no longer owed by the default tier").isEmpty();
        assertThat(gate.missing(defaultRun, List.of("default"))).extracting(Gate.Regression::id)
                .containsExactly("G14[3 kills under load]", "G14[kill -9 @10%]");
        assertThat(moved.missing(faultRun, List.of("faults"))).extracting(Gate.Regression::line).as("owed by the faults tier, parts too")
                .containsExactly("G14[kill -9 @10%]: PASS in the baseline, MISSING now (the faults tier ran whole and did not produce it)");
        Files.writeString(file, "G14[3 kills under load]\tfaults\n");
        assertThatThrownBy(() -> Gate.moves(file)).hasMessageContaining("a move names the entry, its tier now and the reason");
        Files.writeString(file, "G14[3 kills under load]\tfault\ta typo\n");
        assertThatThrownBy(() -> Gate.moves(file)).hasMessageContaining("moved to the tier 'fault', which no run writes");
    }

    @Test
    void aNewCommittedReportLosesEveryPassItDoesNotKeepWhateverItsTier() {
        Gate previous = Gate.of(Map.of("claims", List.of(
                Map.of("id", "G1", "verdict", "PASS", "tier", "default"),
                Map.of("id", "G2", "verdict", "PASS", "tier", "default"),
                Map.of("id", "B5[broker-kill]", "verdict", "PASS", "tier", "faults"))), "previous");
        Map<String, Object> next = Map.of("claims", List.of(
                Map.of("id", "G1", "verdict", "PASS", "tier", "default"),
                Map.of("id", "G2", "verdict", "UNVERIFIED", "tier", "default", "reason", "no lag"),
                Map.of("id", "B5[broker-kill]", "verdict", "NOT_RUN", "tier", "faults")));

        assertThat(previous.lostPasses(next)).extracting(Gate.Regression::id).containsExactly("G2", "B5[broker-kill]");
    }

    @Test
    void aWholeTierRunThatLacksAnEntryOfTheBaselinesTierFailsWhateverItsVerdictThereAndWhateverTheCount() {
        Gate gate = Gate.of(Map.of("claims", List.of(
                Map.of("id", "G1", "verdict", "PASS", "tier", "default"),
                Map.of("id", "G6[optimize_on_insert=1]", "verdict", "UNVERIFIED", "tier", "default"),
                Map.of("id", "B18", "verdict", "NOT_RUN", "tier", "default"),
                Map.of("id", "B5[broker-kill]", "verdict", "UNVERIFIED", "tier", "faults"))), "baseline.json");
        List<Map<String, Object>> lost = List.of(Map.of("id", "G1", "verdict", "PASS", "tier", "default"),
                Map.of("id", "G6[optimize_on_insert=0]", "verdict", "PASS", "tier", "default"));
        List<Map<String, Object>> vanished = List.of(Map.of("id", "G1", "verdict", "PASS", "tier", "default"));

        Gate.Comparison renamed = gate.compare(lost, "default", true);
        Gate.Comparison whole = gate.compare(vanished, "default", true);

        assertThat(renamed.failures()).as("as many entries as the baseline's tier: a new one does not make up for the one that "
                + "vanished").containsExactly("the default tier: 2 entries in the baseline, 2 now; vanished (not produced, or "
                + "NOT_RUN), besides any MISSING above: G6[optimize_on_insert=1]");
        assertThat(whole.failures()).containsExactly("the default tier: 2 entries in the baseline, 1 now; vanished (not produced, "
                + "or NOT_RUN), besides any MISSING above: G6[optimize_on_insert=1]");
        assertThat(whole.regressions()).as("no PASS was lost: only the count tells").isEmpty();
        assertThat(List.of(whole.produced(), whole.baselineEntries(), whole.owedPasses(), whole.passingNow())).containsExactly(1L, 2L, 1L, 1L);
        assertThat(gate.compare(vanished, "default", false).failures()).as("a restricted run owes no count").isEmpty();
        assertThat(gate.withWaivers(Map.of("G6[optimize_on_insert=1]", "retired")).compare(vanished, "default", true).failures())
                .as("a waived entry is not owed").isEmpty();
    }

    @Test
    void aVanishedPassIsNamedOnceAsMissingNotAgainInTheCount() {
        Gate gate = Gate.of(Map.of("claims", List.of(Map.of("id", "G1", "verdict", "PASS", "tier", "default"),
                Map.of("id", "G2", "verdict", "PASS", "tier", "default"))), "baseline.json");
        Gate.Comparison c = gate.compare(List.of(Map.of("id", "G1", "verdict", "PASS", "tier", "default")), "default", true);
        assertThat(c.failures()).containsExactly("G2: PASS in the baseline, MISSING now (the default tier ran whole and did not produce it)");
        assertThat(c.passingNow()).isEqualTo(1L);
        assertThat(c.owedPasses()).isEqualTo(2L);
    }
}
