package dev.seams.report;

/** A claim's outcome (docs/claims.md "Evidence and the report"); derived by {@link Verdicts}, never set by a test. */
public enum Verdict {
    /** The claim held: no check missed, no anomaly, every negative control fired, every fault took effect. */
    PASS,
    /** The claim did not hold: the evidence shows the numbers on both sides. */
    FAIL,
    /** Not tested as stated, with a reason: the fault did not take effect, or the server lacks the feature. */
    UNVERIFIED,
    /** The stand could not start or became unhealthy. */
    ENVIRONMENT,
    /** An id of docs/claims.md that no test of this run covered, with the reason. */
    NOT_RUN
}
