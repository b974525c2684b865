package dev.seams.report;

import java.util.Locale;

/**
 * The anomaly classes a verdict counts (docs/claims.md "Name the anomaly"). An anomaly count above 0
 * fails the claim; the unprotected twin that must show an anomaly is recorded as a negative control
 * instead ({@link ClaimEvidence#negativeControl}).
 */
public enum Anomaly {
    /** A key delivered more than once into a view that must be deduplicated. */
    DUPLICATE,
    /** A PG row missing downstream. */
    LOST,
    /** Data of an aborted transaction visible. */
    ABORTED_READ,
    /** A customer row behind PG after the pipeline settled. */
    STALE,
    /** Any other difference from PG. */
    WRONG_VALUE;

    /** @return the name in the report, e.g. {@code aborted_read} */
    public String key() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * @param key a report name, e.g. {@code wrong_value}
     * @return the class
     * @throws IllegalArgumentException for a name that is not a class
     */
    public static Anomaly of(String key) {
        for (Anomaly a : values()) {
            if (a.key().equals(key)) {
                return a;
            }
        }
        throw new IllegalArgumentException("unknown anomaly class " + key + ", expected one of duplicate, lost, aborted_read, stale, wrong_value");
    }
}
