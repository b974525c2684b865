package dev.seams.report;

/** A claim's outcome (CLAIMS.md "Evidence and the report"). */
public enum Verdict {
    /** The claim held, measured against the real servers. */
    PASS,
    /** The claim did not hold: the evidence shows the numbers on both sides. */
    FAIL,
    /** The injected fault did not take effect, so the claim was not tested. */
    UNVERIFIED,
    /** The stand could not start or became unhealthy. */
    ENVIRONMENT
}
