package dev.seams.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

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
}
