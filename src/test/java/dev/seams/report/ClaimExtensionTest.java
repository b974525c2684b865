package dev.seams.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import dev.seams.sinks.SinkUnderTest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Events;

/**
 * The verdict rules applied by the real {@link ClaimExtension} to sample claim tests run through
 * JUnit's engine (not by surefire: nested classes are not discovered on their own): the JUnit
 * outcome follows the verdict, and the evidence names the test and the parameter set.
 */
class ClaimExtensionTest {

    static class Samples {

        @Test
        @Claim(id = "G1", title = "a body that passes but misses a stated figure")
        void missesAFigure(ClaimEvidence e) {
            e.check("sink_inserted", 50L).isEqualTo(51L, "records inserted vs changelog");
        }

        @Test
        @Claim(id = "G2", title = "every figure met", exercises = "sink/Sink")
        void meetsEveryFigure(ClaimEvidence e) {
            e.check("final_sum", "1.50").isEqualTo("1.5", "FINAL vs PG");
        }

        @Test
        @Claim(id = "G13", title = "a fault that did not take effect")
        void faultNotObserved(ClaimEvidence e) {
            throw new FaultNotObservedException("ds-streams exited with 0, not 137");
        }

        @Test
        @Claim(id = "G11", title = "a claim that cannot apply to the sink under test")
        void notApplicable(ClaimEvidence e) {
            throw new NotApplicableException("kafka-engine: no dead-letter queue");
        }

        @Test
        @Claim(id = "B8", title = "an undeclared anomaly")
        void undeclaredAnomaly(ClaimEvidence e) {
            e.anomaly(Anomaly.LOST, 1);
        }

        @ParameterizedTest(name = "n={0}")
        @ValueSource(ints = {51, 400})
        @Claim(id = "G3", title = "a parameter set per entry")
        void parameterised(int n, ClaimEvidence e) {
            e.check("n", n).isEqualTo(n, "the parameter");
        }
    }

    static class FailingCleanUp {

        @AfterEach
        void restartFails() {
            throw new IllegalStateException("ds-streams did not start again");
        }

        @Test
        @Claim(id = "G14", title = "a clean-up that fails after a passing body")
        void passes(ClaimEvidence e) {
            e.check("lag", 0).isZero("lag");
        }
    }

    static class Gated {

        @Test
        @Claim(id = "G13", title = "a proof that vanished")
        void proofVanished(ClaimEvidence e) {
            throw new FaultNotObservedException("ds-streams idle at the kill");
        }

        @Test
        @Claim(id = "G6", title = "an entry the baseline did not pass either", variant = "optimize_on_insert=1")
        void unverifiedBefore(ClaimEvidence e) {
            e.unverified("no such setting");
        }

        @Test
        @Claim(id = "G14", title = "a part whose proof vanished")
        void partVanished(ClaimEvidence e) {
            e.check("lag", 0).isZero("lag");
            e.part("kill -9 @10%").unverified("no transaction open at the kill");
        }

        @Test
        @Claim(id = "G2", title = "still passing")
        void stillPasses(ClaimEvidence e) {
            e.check("final_sum", "1.50").isEqualTo("1.5", "FINAL vs PG");
        }
    }

    @Test
    void againstABaselineAnEntryThatPassedThereFailsWhenItNoLongerPasses(@TempDir Path dir) throws Exception {
        Path baseline = dir.resolve("guarantees.json");
        Files.writeString(baseline, """
                {"source": {"commit": "2af64c2f1467"}, "sink": "SINK", "claims": [
                  {"id": "G13", "verdict": "PASS"}, {"id": "G6[optimize_on_insert=1]", "verdict": "UNVERIFIED"},
                  {"id": "G14", "verdict": "PASS"}, {"id": "G14[kill -9 @10%]", "verdict": "PASS"}, {"id": "G2", "verdict": "PASS"}]}
                """.replace("SINK", SinkUnderTest.configured().name()));   // the run's sink: a baseline of another is refused
        System.setProperty(Gate.PROPERTY, baseline.toString());
        try {
            Events events = EngineTestKit.engine("junit-jupiter").selectors(selectClass(Gated.class)).execute().testEvents();
            assertThat(events.failed().count()).as("G13 and G14's part were PASS in the baseline").isEqualTo(2);
            assertThat(events.aborted().count()).as("G6[optimize_on_insert=1] was not PASS there: still only skipped").isEqualTo(1);
            assertThat(events.succeeded().count()).isEqualTo(1);
            List<String> messages = events.failed().stream().map(ev -> ev.getPayload(TestExecutionResult.class)
                    .flatMap(TestExecutionResult::getThrowable).map(Throwable::getMessage).orElse("")).toList();
            assertThat(messages)
                    .anySatisfy(m -> assertThat(m).contains("G13: PASS in the baseline, UNVERIFIED now").contains("2af64c2"))
                    .anySatisfy(m -> assertThat(m).contains("G14[kill -9 @10%]: PASS in the baseline, UNVERIFIED now"));
        } finally {
            System.clearProperty(Gate.PROPERTY);
        }
    }

    @Test
    void aBaselineOfAnotherSinkIsRefusedByName(@TempDir Path dir) throws Exception {
        Path baseline = dir.resolve("guarantees.json");
        Files.writeString(baseline, "{\"sink\": \"someone-elses-sink\", \"claims\": []}");
        System.setProperty(Gate.PROPERTY, baseline.toString());
        try {
            assertThatThrownBy(Gate::configured).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("is a report of the sink someone-elses-sink")
                    .hasMessageContaining("this run's sink under test is " + SinkUnderTest.configured().name());
        } finally {
            System.clearProperty(Gate.PROPERTY);
        }
    }

    @Test
    void aBaselineOfAnotherConnectorConfigurationIsRefusedByName(@TempDir Path dir) throws Exception {
        Path baseline = dir.resolve("guarantees.json");
        Files.writeString(baseline, ("{\"sink\": \"SINK\", \"connector\": {\"name\": \"debezium-tutorial\"}, \"claims\": []}")
                .replace("SINK", SinkUnderTest.configured().name()));
        System.setProperty(Gate.PROPERTY, baseline.toString());
        try {
            assertThatThrownBy(Gate::configured).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("is a report of the connector configuration debezium-tutorial, this run's is shipped")
                    .hasMessageContaining("a copy of reports/guarantees.json");
        } finally {
            System.clearProperty(Gate.PROPERTY);
        }
    }

    @Test
    void failFastLeavesTheClaimsAfterTheFirstRedOneUnrun() {
        Events events = runFailingFast(Samples.class);
        assertThat(events.failed().count()).as("G1 and B8 both fail alone: only the first of them runs").isEqualTo(1);
        assertThat(events.skipped().count()).as("every test after it is skipped").isPositive();
    }

    /** @return the test events of the sample class run with {@value ClaimExtension#FAIL_FAST}=true */
    private static Events runFailingFast(Class<?> samples) {
        System.setProperty(ClaimExtension.FAIL_FAST, "true");
        ClaimExtension.resetFailFast();
        try {
            return EngineTestKit.engine("junit-jupiter").selectors(selectClass(samples)).execute().testEvents();
        } finally {
            System.clearProperty(ClaimExtension.FAIL_FAST);
            ClaimExtension.resetFailFast();
        }
    }

    @Test
    void aTierOutOfTimeStartsNoClaimAndRecordsEachNotRunWithTheReason() {
        java.util.concurrent.atomic.AtomicLong now = new java.util.concurrent.atomic.AtomicLong();
        TierClock clock = new TierClock(now::get, 10, 0);
        clock.started("an earlier claim");
        now.set(11_000_000_000L);
        TierClock jvm = TierClock.jvm();
        TierClock.use(clock);
        try {
            Events events = EngineTestKit.engine("junit-jupiter").selectors(selectClass(Samples.class)).execute().testEvents();
            assertThat(events.started().count()).as("no claim starts").isZero();
            assertThat(events.skipped().count()).as("G1, G2, G13, G11, B8 and G3's two invocations").isEqualTo(7);
        } finally {
            TierClock.use(jvm);
        }
        Map<String, ClaimEvidence> claims = Evidence.claims().stream().filter(c -> c.test().startsWith("Samples#"))
                .filter(c -> c.outcome() != null && c.outcome().verdict() == Verdict.NOT_RUN && c.outcome().reason().contains("10 s"))
                .collect(Collectors.toMap(ClaimEvidence::id, c -> c, (a, b) -> b));
        assertThat(claims).containsKeys("G1", "G2", "B8", "G3[n=51]", "G3[n=400]");
        assertThat(claims.get("G1").outcome().reason()).isEqualTo("the tier's claims ran out of their 10 s (-D"
                + TierClock.BUDGET_PROPERTY + ")");
        assertThat(clock.stop().orElseThrow().get("not_run")).asList().hasSize(7);
    }

    @org.junit.jupiter.api.TestMethodOrder(org.junit.jupiter.api.MethodOrderer.OrderAnnotation.class)
    static class TimeoutFirst {

        @Test
        @org.junit.jupiter.api.Order(1)
        @Claim(id = "B9", title = "a wait that ran out")
        void timesOut(ClaimEvidence e) {
            throw new org.awaitility.core.ConditionTimeoutException("ds-streams recovered within 3 minutes");
        }

        @Test
        @org.junit.jupiter.api.Order(2)
        @Claim(id = "G1", title = "a check that fires")
        void checkFires(ClaimEvidence e) {
            e.check("sink_inserted", 50L).isEqualTo(51L, "records inserted vs changelog");
        }

        @Test
        @org.junit.jupiter.api.Order(3)
        @Claim(id = "G2", title = "after the check that fired")
        void after(ClaimEvidence e) {
        }
    }

    @Test
    void failFastGoesOnPastARedOfATimeoutAndStopsAtTheFirstCheckThatFired() {
        Events events = runFailingFast(TimeoutFirst.class);
        assertThat(events.failed().count()).as("B9 (timed out) and G1 (its check fired) both run").isEqualTo(2);
        assertThat(events.skipped().count()).as("G2, after the check that fired").isEqualTo(1);
    }

    private static Map<String, ClaimEvidence> run(Class<?> samples) {
        Events events = EngineTestKit.engine("junit-jupiter").selectors(selectClass(samples)).execute().testEvents();
        assertThat(events.started().count()).isPositive();
        return Evidence.claims().stream().filter(c -> c.test().startsWith(samples.getSimpleName() + "#"))
                .collect(Collectors.toMap(ClaimEvidence::id, c -> c, (a, b) -> b));
    }

    @Test
    void theJUnitOutcomeFollowsTheVerdict() {
        Events events = EngineTestKit.engine("junit-jupiter").selectors(selectClass(Samples.class)).execute().testEvents();
        assertThat(events.failed().count()).as("G1 (missed figure) and B8 (anomaly) fail").isEqualTo(2);
        assertThat(events.aborted().count()).as("G13 (fault not observed) and G11 (not applicable) are aborted, not failed")
                .isEqualTo(2);
        assertThat(events.succeeded().count()).as("G2 and both G3 parameter sets").isEqualTo(3);
    }

    @Test
    void eachEntryGetsTheVerdictOfItsEvidence() {
        Map<String, ClaimEvidence> claims = run(Samples.class);
        assertThat(claims.get("G1").outcome().verdict()).isEqualTo(Verdict.FAIL);
        assertThat(claims.get("G2").outcome().verdict()).isEqualTo(Verdict.PASS);
        assertThat(claims.get("G2").exercises()).containsExactly("sink/Sink");
        assertThat(claims.get("G2").test()).isEqualTo("Samples#meetsEveryFigure");
        assertThat(claims.get("G13").outcome().verdict()).isEqualTo(Verdict.UNVERIFIED);
        assertThat(claims.get("G13").outcome().reason()).contains("exited with 0, not 137");
        assertThat(claims.get("B8").outcome().verdict()).isEqualTo(Verdict.FAIL);
        assertThat(claims.get("G11").outcome().verdict()).isEqualTo(Verdict.NOT_RUN);
        assertThat(claims.get("G11").outcome().reason()).isEqualTo("kafka-engine: no dead-letter queue");
        assertThat(claims).containsKeys("G3[n=51]", "G3[n=400]");
        assertThat(claims.get("G3[n=400]").outcome().verdict()).isEqualTo(Verdict.PASS);
    }

    @Test
    void aFailingCleanUpFailsTheClaimThatRanBeforeIt() {
        ClaimEvidence g14 = run(FailingCleanUp.class).get("G14");
        assertThat(g14.outcome().verdict()).isEqualTo(Verdict.FAIL);
        assertThat(g14.outcome().reason()).startsWith("threw IllegalStateException at ClaimExtensionTest$FailingCleanUp.restartFails(")
                .endsWith("): ds-streams did not start again");
    }
}
