package dev.seams.report;

/**
 * One expectation on one measured figure, recorded together with its expected value and outcome
 * (docs/claims.md "Figures decide too"; CONTRIBUTING.md "Adding a claim": one statement per expectation): soft — a miss does not
 * throw, it is collected and fails the claim when the test ends ({@link Verdicts}).
 *
 * <pre>{@code
 * e.check("sink_inserted", run.inserted()).isEqualTo(changelog, "records the sink inserted vs changelog records");
 * e.check("lost_orders", lost).isZero("PG orders missing from order_dedup FINAL");
 * }</pre>
 *
 * Each method returns whether the figure met the expectation, for a test that must branch on it.
 */
public final class Check {

    private final ClaimEvidence evidence;
    private final String name;
    private final Object measured;

    Check(ClaimEvidence evidence, String name, Object measured) {
        this.evidence = evidence;
        this.name = name;
        this.measured = measured;
    }

    /** Expects the figure to equal {@code expected} ({@link Expectation#met}: numbers numerically, else as text). */
    public boolean isEqualTo(Object expected, String why) {
        return evidence.expect(name, measured, expected, why);
    }

    /** Expects 0. */
    public boolean isZero(String why) {
        return evidence.expect(name, measured, 0, why);
    }

    /** Expects more than 0. */
    public boolean isPositive(String why) {
        return evidence.expect(name, measured, Expectation.greaterThan(0), why);
    }

    /** Expects more than {@code bound}. */
    public boolean isGreaterThan(Number bound, String why) {
        return evidence.expect(name, measured, Expectation.greaterThan(bound), why);
    }

    /** Expects at least {@code bound}. */
    public boolean isAtLeast(Number bound, String why) {
        return evidence.expect(name, measured, Expectation.atLeast(bound), why);
    }

    /** Expects at most {@code bound}. */
    public boolean isAtMost(Number bound, String why) {
        return evidence.expect(name, measured, Expectation.atMost(bound), why);
    }

    /** Expects less than {@code bound}. */
    public boolean isLessThan(Number bound, String why) {
        return evidence.expect(name, measured, Expectation.lessThan(bound), why);
    }

    /** Expects {@code true}. */
    public boolean isTrue(String why) {
        return evidence.expect(name, measured, true, why);
    }

    /** Expects {@code false}. */
    public boolean isFalse(String why) {
        return evidence.expect(name, measured, false, why);
    }
}
