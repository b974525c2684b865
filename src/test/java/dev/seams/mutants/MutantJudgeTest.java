package dev.seams.mutants;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seams.report.Gate;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * What counts as a kill (issue 36 §1): a red entry not red in the control, never ENVIRONMENT, never in a build that timed
 * out; each kill credited to the check that fired — the entry's own or the shared settle precondition.
 */
class MutantJudgeTest {

    private static final Gate BASELINE = Gate.of(Map.of("claims", List.of(
            Map.of("id", "G4", "verdict", "PASS", "tier", "default"),
            Map.of("id", "G9", "verdict", "PASS", "tier", "default"),
            Map.of("id", "B6", "verdict", "PASS", "tier", "default"),
            Map.of("id", "B12", "verdict", "PASS", "tier", "default"))), "baseline.json");

    private static final Map<String, Object> RUN = Map.of("claims", List.of(
            Map.of("id", "G4", "verdict", "FAIL", "reason", "raw_totals_engine = ReplacingMergeTree, expected MergeTree"),
            Map.of("id", "G9", "verdict", "FAIL", "reason", "the pipeline settled wrong: 1 differing keys of 1"),
            Map.of("id", "B17[existing rows]", "verdict", "FAIL", "reason", "the pipeline settled wrong: 5 differing keys",
                    "failures", List.of("the pipeline settled wrong: 5 differing keys",
                            "existing_orders_without_snapshot_read = 115, expected 0 (every order PG held at registration)")),
            Map.of("id", "B6", "verdict", "ENVIRONMENT", "reason", "the stand did not start: streams exited with 1"),
            Map.of("id", "B12", "verdict", "FAIL", "reason", "anomaly lost = 7000")));

    @Test
    void aRedEntryIsAKillUnlessItIsEnvironmentOrRedInTheControl() {
        MutantJudge.Judged judged = MutantJudge.judge(RUN, BASELINE, Set.of("B12"), false);

        assertThat(judged.kills()).containsOnlyKeys("G4", "G9", "B17[existing rows]");
        assertThat(judged.credits()).as("credited to the check that fired").containsEntry("G4", "G4")
                .containsEntry("G9", MutantRun.SETTLE_PRECONDITION)
                .containsEntry("B17[existing rows]", "B17[existing rows]");
        assertThat(judged.notCounted()).containsOnlyKeys("B6", "B12");
        assertThat(judged.notCounted().get("B6")).startsWith("ENVIRONMENT: B6: PASS in the baseline, ENVIRONMENT now");
        assertThat(judged.notCounted().get("B12")).startsWith("red in the unmutated control build too: ");
    }

    @Test
    void aBuildThatTimedOutKillsNothing() {
        MutantJudge.Judged judged = MutantJudge.judge(RUN, BASELINE, Set.of(), true);

        assertThat(judged.kills()).isEmpty();
        assertThat(judged.notCounted()).containsOnlyKeys("G4", "G9", "B17[existing rows]", "B6", "B12");
    }

    @Test
    void aKillIsCreditedToTheSettleOnlyWhenEveryFailureIsTheSettles() {
        assertThat(MutantJudge.credit("G4", List.of("raw_totals_engine = ReplacingMergeTree, expected MergeTree"))).isEqualTo("G4");
        assertThat(MutantJudge.credit("G1", List.of("Condition with alias 'customer.totals matches PG per customer' didn't "
                + "complete within 2 minutes"))).isEqualTo(MutantRun.SETTLE_PRECONDITION);
        assertThat(MutantJudge.credit("B12", List.of())).as("a proof that vanished (UNVERIFIED) is the entry's own").isEqualTo("B12");
    }

    @Test
    void aMutantRedOnlyByEnvironmentIsAnErrorNotAKill() {
        Mutant m = MutantCatalog.load().select("ddl-raw-twin-deduplicating").get(0);
        MutantRun.Build environmentOnly = new MutantRun.Build("FreshnessIT", 1, 40.0, Path.of("build-1.log"), Map.of(),
                List.of(), 1, Map.of("B6", "ENVIRONMENT: B6: PASS in the baseline, ENVIRONMENT now (streams exited with 1)"), Map.of());

        assertThat(environmentOnly.killed()).isFalse();
        MutantRun.Result r = new MutantRun.Result(m, "ERROR", "", "", List.of(environmentOnly), 40.0);
        assertThat(r.killerEntries()).isEmpty();
        assertThat(r.notCounted()).containsOnlyKeys("B6");
    }

    @Test
    void aBuildWhoseStandFailedAndThatKilledNothingRunsOnceMoreATimeoutOrAKillDoesNot() {
        Map<String, String> environment = Map.of("B8", "ENVIRONMENT: B8: the stand did not start (port is already allocated)");
        Path log = Path.of("build-1.log");
        assertThat(MutantRun.standFailed(new MutantRun.Build("ReconciliationIT", 1, 57.5, log, Map.of(), List.of(), 1, environment, Map.of())))
                .isTrue();
        assertThat(MutantRun.standFailed(new MutantRun.Build("ReconciliationIT", 1, 57.5, log, Map.of("B8[x]", "FAIL"), List.of(), 2,
                environment, Map.of()))).as("a kill stands").isFalse();
        assertThat(MutantRun.standFailed(new MutantRun.Build("ReconciliationIT", -1, 1800, log, Map.of(), List.of(), 1, environment,
                Map.of()))).as("a timeout is not retried").isFalse();
        assertThat(MutantRun.standFailed(new MutantRun.Build("ReconciliationIT", 1, 57.5, log, Map.of(), List.of(), 1,
                Map.of("B8", "red in the control too"), Map.of()))).isFalse();
    }

    @Test
    void aRedEntryWithOnlyTimeoutsAndExceptionsIsCaughtNotKilledAndEveryFailureIsKept() {
        Gate baseline = Gate.of(Map.of("claims", List.of(Map.of("id", "B12", "verdict", "PASS", "tier", "faults"),
                Map.of("id", "B14[slot dropped]", "verdict", "PASS", "tier", "faults"),
                Map.of("id", "B14[graceful stop]", "verdict", "PASS", "tier", "faults"))), "baseline.json");
        String timeout = "timed out: Condition with alias 'progress reaches 30%' didn't complete within 2 minutes";
        String npe = "threw NullPointerException at SlotFaultIT.b14SlotDropped(SlotFaultIT.java:120): Cannot invoke \"Object.equals(Object)\"";
        Map<String, Object> run = Map.of("claims", List.of(
                Map.of("id", "B12", "verdict", "FAIL", "reason", timeout, "failures", List.of(timeout)),
                Map.of("id", "B14[slot dropped]", "verdict", "FAIL", "reason", npe, "failures", List.of(npe)),
                Map.of("id", "B14[graceful stop]", "verdict", "FAIL", "reason", timeout,
                        "failures", List.of(timeout, "orders_lost = 3, expected 0 (every order written while stopped)"))));

        MutantJudge.Judged judged = MutantJudge.judge(run, baseline, Set.of(), false);

        assertThat(judged.kills()).as("a check fired beside the timeout").containsOnlyKeys("B14[graceful stop]");
        assertThat(judged.notCounted()).containsOnlyKeys("B12", "B14[slot dropped]");
        assertThat(judged.notCounted().get("B12")).startsWith(MutantJudge.CAUGHT_ONLY + "B12: PASS in the baseline, FAIL now (timed out:");
        assertThat(judged.failures().get("B14[graceful stop]")).hasSize(2);
        MutantRun.Build build = new MutantRun.Build("SlotFaultIT", 1, 60, Path.of("b.log"), Map.of(), List.of(), 3,
                judged.notCounted(), Map.of(), judged.failures());
        assertThat(build.killed()).isFalse();
        assertThat(build.caught()).isTrue();
        assertThat(MutantJudge.credit("B6", List.of("Condition with alias 'every order visible' didn't complete within 26 seconds")))
                .as("a timeout of an older report").isNull();
    }
}
