package dev.seams.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class TierClockTest {

    private static final long SECOND = 1_000_000_000L;
    private final AtomicLong now = new AtomicLong();

    @Test
    void aTierWithTimeLeftCutsNothing() {
        TierClock clock = new TierClock(now::get, 900, 120);
        clock.started("G1");
        now.addAndGet(899 * SECOND);
        assertThat(clock.cut("G2")).isEmpty();
        assertThat(clock.stop()).isEmpty();
    }

    @Test
    void theClaimsAfterTheBudgetAreCutAndListed() {
        TierClock clock = new TierClock(now::get, 900, 120);
        clock.started("G1");
        now.addAndGet(900 * SECOND);
        assertThat(clock.cut("G2")).hasValueSatisfying(r -> assertThat(r).contains("ran out of their 900 s")
                .contains(TierClock.BUDGET_PROPERTY));
        assertThat(clock.cut("G3")).isPresent();
        Map<String, Object> stop = clock.stop().orElseThrow();
        assertThat(stop.get("not_run")).isEqualTo(List.of("G2", "G3"));
        assertThat(GateCheck.stopLine("default", stop)).isEqualTo("the default tier stopped before its end: " + stop.get("reason")
                + "; 2 claims not started (NOT_RUN)");
    }

    @Test
    void aStallLeavesTheRestOfTheTierItsBoundNamingTheClaimThatStalled() {
        TierClock clock = new TierClock(now::get, 900, 120);
        clock.started("G1");
        now.addAndGet(30 * SECOND);
        clock.started("B9");
        clock.stalled("nothing moved for 60 s: customer 7 count 3 vs 4");
        now.addAndGet(119 * SECOND);
        assertThat(clock.cut("G12")).as("119 s after the stall").isEmpty();
        clock.stalled("a later stall moves nothing");
        now.addAndGet(SECOND);
        assertThat(clock.cut("G13")).hasValueSatisfying(r -> assertThat(r)
                .startsWith("the pipeline stalled in B9 (nothing moved for 60 s: customer 7 count 3 vs 4)")
                .contains("ran 120 s more"));
        assertThat(clock.stop().orElseThrow().get("not_run")).isEqualTo(List.of("G13"));
    }

    @Test
    void unsetBoundsNeverCut() {
        TierClock clock = new TierClock(now::get, 0, 0);
        clock.started("G1");
        clock.stalled("stuck");
        now.addAndGet(100_000 * SECOND);
        assertThat(clock.cut("G2")).isEmpty();
    }
}
