package dev.seams.sink;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The closing line keeps the seed's format; {@code uncommitted} appears only when a batch was left behind. */
class SinkSummaryTest {

    @Test
    void lineOfACleanRun() {
        assertThat(new SinkSummary(1, 1, 0, 0, 0, 0, false, false, "totals").line())
                .isEqualTo("sink: inserted=1 bad=1 dlq_errors=0 insert_errors=0 fetch_errors=0 (dup=false, from-start=false, mode=totals)");
    }

    @Test
    void commitErrorsAppearOnlyWhenThereWereSome() {
        assertThat(new SinkSummary(5, 0, 0, 0, 0, 0, false, false, "totals", 0, 2).line())
                .isEqualTo("sink: inserted=5 bad=0 dlq_errors=0 insert_errors=0 fetch_errors=0 commit_errors=2 (dup=false, from-start=false, mode=totals)");
    }

    @Test
    void lineOfARunThatEndedWithAFailedDeadLetterWrite() {
        assertThat(new SinkSummary(0, 0, 0, 3, 0, 0, false, true, "totals", 2).line())
                .isEqualTo("sink: inserted=0 bad=0 dlq_errors=3 insert_errors=0 fetch_errors=0 uncommitted=2 (dup=false, from-start=true, mode=totals)");
    }

    @Test
    void rebalancesAppearOnlyAfterOne() {
        assertThat(new SinkSummary(9, 0, 0, 0, 0, 0, false, false, "totals", 0, 0, 6, 6, 14).line())
                .isEqualTo("sink: inserted=9 bad=0 dlq_errors=0 insert_errors=0 fetch_errors=0 rebalances=6 "
                        + "(mid-drain 6, partitions revoked mid-drain 14) (dup=false, from-start=false, mode=totals)");
        assertThat(new SinkSummary(9, 0, 0, 0, 0, 0, false, false, "totals", 0, 0, 0, 0, 0).line()).doesNotContain("rebalances");
    }
}
