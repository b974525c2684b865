package dev.seams.it;

import dev.seams.check.Reconciliation;
import dev.seams.fixture.StandContext;
import dev.seams.report.ClaimEvidence;
import dev.seams.sink.SinkMode;
import dev.seams.sink.SinkSummary;

/** customer_totals FINAL written afresh from the start of customer.totals, against PostgreSQL per customer. */
final class FinalFromStart {

    private FinalFromStart() {
    }

    /**
     * Empties raw_totals and customer_totals, runs the sink from the topic's start until caught up, and records its
     * summary ({@code totals_summary}) and the reconciliation of FINAL with PostgreSQL under {@code title}.
     */
    static void record(ClaimEvidence e, StandContext s, String title) {
        e.figure("totals_summary", rewrite(s).line());
        Reconciliation.customerTotalsFinal(s.endpoints()).record(e, title);
    }

    /**
     * Empties raw_totals and customer_totals and runs the sink from the topic's start until caught up: the tables hold
     * every customer again, as the claims after one that emptied them expect.
     *
     * @return the sink run's summary
     */
    static SinkSummary rewrite(StandContext s) {
        s.ch().truncate("raw_totals", "customer_totals");
        return s.sink(SinkMode.TOTALS, o -> o.withFromStart(true));
    }
}
