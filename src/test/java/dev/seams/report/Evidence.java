package dev.seams.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Everything recorded in this test JVM for the report (docs/claims.md "Evidence and the report"): the claims opened
 * by {@link ClaimExtension} and the suite-level facts of the header (profile, live versions, stand
 * start seconds). {@link ReportWriter} reads it when the run ends.
 */
public final class Evidence {

    private static final List<ClaimEvidence> CLAIMS = new ArrayList<>();
    private static final Map<String, Object> SUITE = new LinkedHashMap<>();

    private Evidence() {
    }

    static void register(ClaimEvidence evidence) {
        synchronized (CLAIMS) {
            CLAIMS.add(evidence);
        }
    }

    /** Records a suite-level fact for the report header (profile, versions, stand start seconds). */
    public static void suite(String name, Object value) {
        synchronized (SUITE) {
            SUITE.put(name, value);
        }
    }

    /** @return every claim entry opened so far, each followed by its parts */
    static List<ClaimEvidence> claims() {
        List<ClaimEvidence> all = new ArrayList<>();
        synchronized (CLAIMS) {
            for (ClaimEvidence c : CLAIMS) {
                all.add(c);
                all.addAll(c.parts());
            }
        }
        return all;
    }

    static Map<String, Object> suiteFacts() {
        synchronized (SUITE) {
            return new LinkedHashMap<>(SUITE);
        }
    }
}
