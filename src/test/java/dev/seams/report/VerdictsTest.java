package dev.seams.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Each rule of the verdict engine, on evidence recorded directly (no JUnit run). */
class VerdictsTest {

    private static ClaimEvidence evidence() {
        return new ClaimEvidence("G1", "Baseline parity", "SampleIT#g1", List.of());
    }

    @Test
    void everyExpectationMetAndNoAnomalyIsAPass() {
        ClaimEvidence e = evidence();
        e.check("final_sum", "1112.08").isEqualTo("1112.080", "FINAL vs PG");
        e.check("lag", 0L).isZero("lag at rest");
        assertThat(Verdicts.decide(e, null).verdict()).isEqualTo(Verdict.PASS);
    }

    @Test
    void aMissedExpectationFailsAClaimWhoseBodyPassed() {
        ClaimEvidence e = evidence();
        e.check("sink_inserted", 50L).isEqualTo(51L, "records inserted vs changelog records");
        Verdicts.Outcome o = Verdicts.decide(e, null);
        assertThat(o.verdict()).isEqualTo(Verdict.FAIL);
        assertThat(o.reason()).isEqualTo("sink_inserted = 50, expected 51 (records inserted vs changelog records)");
    }

    @Test
    void anUndeclaredAnomalyFails() {
        ClaimEvidence e = evidence();
        e.anomaly(Anomaly.DUPLICATE, 2);
        Verdicts.Outcome o = Verdicts.decide(e, null);
        assertThat(o.verdict()).isEqualTo(Verdict.FAIL);
        assertThat(o.failures()).containsExactly("anomaly duplicate = 2");
    }

    @Test
    void aNegativeControlThatShowsItsAnomalyPasses() {
        ClaimEvidence e = evidence();
        e.negativeControl("raw_twin_duplicate_rows", 40, Anomaly.DUPLICATE, "the raw twin shows the replay");
        assertThat(Verdicts.decide(e, null).verdict()).isEqualTo(Verdict.PASS);
    }

    @Test
    void aNegativeControlThatShowsNothingIsUnverified() {
        ClaimEvidence e = evidence();
        e.negativeControl("redelivered_events", 0, Anomaly.DUPLICATE, "Debezium re-sent events after the kill");
        Verdicts.Outcome o = Verdicts.decide(e, null);
        assertThat(o.verdict()).isEqualTo(Verdict.UNVERIFIED);
        assertThat(o.reason()).startsWith("negative control showed no duplicate: redelivered_events = 0");
    }

    @Test
    void aClaimThatCannotApplyToWhatIsUnderTestIsNotRunWithItsReasonEvenWithAMissedCheckBeforeIt() {
        ClaimEvidence e = evidence();
        e.check("dlq_records", 0L).isEqualTo(3L, "bad records in the DLQ");
        Verdicts.Outcome o = Verdicts.decide(e, new IllegalStateException("drain failed",
                new NotApplicableException("kafka-engine: no dead-letter queue")));
        assertThat(o.verdict()).isEqualTo(Verdict.NOT_RUN);
        assertThat(o.reason()).isEqualTo("kafka-engine: no dead-letter queue");
        assertThat(o.failures()).isEmpty();
    }

    @Test
    void aFaultThatDidNotTakeEffectIsUnverifiedWithItsReason() {
        Verdicts.Outcome o = Verdicts.decide(evidence(), new FaultNotObservedException("ds-streams exited with 0, not 137"));
        assertThat(o.verdict()).isEqualTo(Verdict.UNVERIFIED);
        assertThat(o.reason()).isEqualTo("ds-streams exited with 0, not 137");
    }

    @Test
    void aDeclaredMissingFeatureIsUnverified() {
        ClaimEvidence e = evidence();
        e.unverified("setting optimize_on_insert absent on 18.16.1");
        assertThat(Verdicts.decide(e, null).verdict()).isEqualTo(Verdict.UNVERIFIED);
    }

    @Test
    void aMissThatWasMeasuredFailsEvenWhenTheFaultWasNotObserved() {
        ClaimEvidence e = evidence();
        e.check("lost_orders", 3L).isZero("orders missing downstream");
        assertThat(Verdicts.decide(e, new FaultNotObservedException("no kill")).verdict()).isEqualTo(Verdict.FAIL);
    }

    @Test
    void anEnvironmentFailureIsEnvironment() {
        Verdicts.Outcome o = Verdicts.decide(evidence(),
                new IllegalStateException("wrapped", new EnvironmentException("the stand did not start", null)));
        assertThat(o.verdict()).isEqualTo(Verdict.ENVIRONMENT);
    }

    @Test
    void aFailedCleanUpFailsTheClaim() {
        ClaimEvidence e = evidence();
        e.check("lag", 0L).isZero("lag at rest");
        Verdicts.Outcome o = Verdicts.decide(e, new IllegalStateException("ds-streams did not start again"));
        assertThat(o.verdict()).isEqualTo(Verdict.FAIL);
        assertThat(o.reason()).startsWith("threw IllegalStateException at VerdictsTest.aFailedCleanUpFailsTheClaim(VerdictsTest.java:")
                .endsWith("): ds-streams did not start again");
        assertThat(FailureLine.kind(o.reason())).isEqualTo(FailureLine.Kind.EXCEPTION);
    }

    @Test
    void aTimeoutOrAnExceptionSaysWhatItIsAndAnAssertionIsACheck() {
        Verdicts.Outcome timedOut = Verdicts.decide(evidence(), new org.awaitility.core.ConditionTimeoutException(
                "Condition with alias 'progress reaches 30%' didn't complete within 2 minutes"));
        Verdicts.Outcome npe = Verdicts.decide(evidence(), new NullPointerException());
        Verdicts.Outcome asserted = Verdicts.decide(evidence(), new AssertionError("[ds-streams lag] expected 0 but was 3"));
        Verdicts.Outcome wrapped = Verdicts.decide(evidence(), new IllegalStateException("settle", new java.util.concurrent.TimeoutException("60 s")));

        assertThat(timedOut.reason()).isEqualTo("timed out: Condition with alias 'progress reaches 30%' didn't complete within 2 minutes");
        assertThat(npe.reason()).startsWith("threw NullPointerException at VerdictsTest.").endsWith(": java.lang.NullPointerException");
        assertThat(asserted.reason()).isEqualTo("[ds-streams lag] expected 0 but was 3");
        assertThat(wrapped.reason()).isEqualTo("timed out: 60 s");
        assertThat(Verdicts.decide(evidence(), new java.util.concurrent.ExecutionException(new AssertionError("lag 3, expected 0")))
                .reason()).as("an assertion a future wrapped is a check").isEqualTo("lag 3, expected 0");
        assertThat(List.of(timedOut, npe, asserted, wrapped)).extracting(o -> FailureLine.kind(o.reason()))
                .containsExactly(FailureLine.Kind.TIMEOUT, FailureLine.Kind.EXCEPTION, FailureLine.Kind.CHECK, FailureLine.Kind.TIMEOUT);
        assertThat(FailureLine.kind("Condition with alias 'x' didn't complete within 3 minutes")).as("a line of an older report")
                .isEqualTo(FailureLine.Kind.TIMEOUT);
        assertThat(FailureLine.kind("anomaly lost = 7")).isEqualTo(FailureLine.Kind.CHECK);
    }

    @Test
    void aPartIsJudgedOnItsOwnEvidence() {
        ClaimEvidence e = new ClaimEvidence("G14[3 kills under load]", "Recovery", "LagIT#g14", List.of());
        ClaimEvidence kill = e.part("kill -9 @10%");
        kill.unverified("the kill hit an idle process");
        assertThat(kill.id()).isEqualTo("G14[kill -9 @10%]");
        assertThat(Verdicts.decide(kill, null).verdict()).isEqualTo(Verdict.UNVERIFIED);
        assertThat(Verdicts.decide(e, null).verdict()).isEqualTo(Verdict.PASS);
    }

    @Test
    void aPartIsNeverPassWhileItsClaimFails() {
        ClaimEvidence e = new ClaimEvidence("B5[clickhouse-stop]", "Faults lose nothing", "ClickHouseFaultIT#clickhouseStop", List.of());
        e.anomaly(Anomaly.LOST, 96);
        ClaimEvidence proven = e.part("@50%");
        ClaimEvidence unproven = e.part("@90%");
        unproven.unverified("the injection landed after the load");
        Verdicts.Outcome parent = Verdicts.decide(e, null);
        assertThat(parent.verdict()).isEqualTo(Verdict.FAIL);
        Verdicts.Outcome p = Verdicts.partOf(Verdicts.decide(proven, null), e.id(), parent);
        assertThat(p.verdict()).isEqualTo(Verdict.FAIL);
        assertThat(p.reason()).isEqualTo("its claim B5[clickhouse-stop] failed: anomaly lost = 96");
        assertThat(Verdicts.partOf(Verdicts.decide(unproven, null), e.id(), parent).verdict()).isEqualTo(Verdict.UNVERIFIED);
        Verdicts.Outcome passing = Verdicts.decide(new ClaimEvidence("B5[x]", "t", "T#t", List.of()), null);
        assertThat(Verdicts.partOf(Verdicts.decide(proven, null), "B5[x]", passing).verdict()).isEqualTo(Verdict.PASS);
    }

    @Test
    void aPartIsNeverPassUnderAClaimThatIsUnverifiedOrHadNoStand() {
        ClaimEvidence part = new ClaimEvidence("B5[x@10%]", "t", "T#t", List.of());
        Verdicts.Outcome unverified = new Verdicts.Outcome(Verdict.UNVERIFIED, "the sink did not stall", List.of());
        Verdicts.Outcome environment = new Verdicts.Outcome(Verdict.ENVIRONMENT, "ClickHouse did not start", List.of());

        Verdicts.Outcome underUnverified = Verdicts.partOf(Verdicts.decide(part, null), "B5[x]", unverified);
        Verdicts.Outcome underEnvironment = Verdicts.partOf(Verdicts.decide(part, null), "B5[x]", environment);

        assertThat(underUnverified.verdict()).isEqualTo(Verdict.UNVERIFIED);
        assertThat(underUnverified.reason()).isEqualTo("its claim B5[x] is UNVERIFIED: the sink did not stall");
        assertThat(underEnvironment.verdict()).isEqualTo(Verdict.ENVIRONMENT);
        assertThat(underEnvironment.reason()).isEqualTo("its claim B5[x] is ENVIRONMENT: ClickHouse did not start");
    }
}
