package dev.seams.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The one API through which claim tests record evidence (DESIGN.md "The report").
 * A test calls {@link #claim(String, String)} once; {@link EvidenceExtension} closes it with the
 * verdict; {@link ReportWriter} writes everything recorded in this JVM at the end of the run.
 */
public final class Evidence {

    private static final ThreadLocal<ClaimEvidence> CURRENT = new ThreadLocal<>();
    private static final List<ClaimEvidence> CLAIMS = new ArrayList<>();
    private static final Map<String, Object> SUITE = new LinkedHashMap<>();

    private Evidence() {
    }

    /**
     * Opens the evidence of the running test's claim.
     *
     * @param id    the claim id from CLAIMS.md, suffixed for a parameter set ({@code G3[n=51]})
     * @param title the claim's title
     * @return the evidence to fill
     * @throws IllegalStateException if this test already opened one
     */
    public static ClaimEvidence claim(String id, String title) {
        if (CURRENT.get() != null) {
            throw new IllegalStateException("this test already records claim " + CURRENT.get().id());
        }
        ClaimEvidence evidence = new ClaimEvidence(id, title);
        CURRENT.set(evidence);
        synchronized (CLAIMS) {
            CLAIMS.add(evidence);
        }
        return evidence;
    }

    /** Records a suite-level fact for the report header (profile, versions, stand start seconds). */
    public static void suite(String name, Object value) {
        synchronized (SUITE) {
            SUITE.put(name, value);
        }
    }

    static ClaimEvidence takeCurrent() {
        ClaimEvidence evidence = CURRENT.get();
        CURRENT.remove();
        return evidence;
    }

    static List<ClaimEvidence> claims() {
        synchronized (CLAIMS) {
            return List.copyOf(CLAIMS);
        }
    }

    static Map<String, Object> suiteFacts() {
        synchronized (SUITE) {
            return new LinkedHashMap<>(SUITE);
        }
    }
}
