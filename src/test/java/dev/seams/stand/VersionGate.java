package dev.seams.stand;

import dev.seams.truth.ClickHouse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The version gate's check (claim B7): for every component of the stand (PostgreSQL, the Kafka
 * broker, Kafka Connect, the Debezium connector, ClickHouse, the Kafka Streams library), does the
 * version the profile DECLARES ({@link DeclaredVersions}: image labels, version tags,
 * {@code -Dkafka.version}) name the same release as the LIVE version the running server reports
 * ({@code Stand.versions()})? The formats are reconciled by {@link ServerVersions}. Any verdict but
 * {@link #MATCHES} fails B7, on every profile.
 */
public final class VersionGate {

    /** Verdict: declared and live name the same release. */
    public static final String MATCHES = "matches";
    /** Verdict: the server runs another release than declared (B7 FAIL). */
    public static final String DIFFERS = "DIFFERS from the declared version";
    /** Verdict: nothing declares this component's version (B7 FAIL: every image must declare it). */
    public static final String UNDECLARED = "NOT DECLARED";
    /** Verdict: the live version could not be read (B7 FAIL). */
    public static final String UNREAD = "live version NOT READ";
    /** Column names of {@link Check#cells()}, for the report's table. */
    public static final List<String> COLUMNS = List.of("component", "image", "declared (source)", "live", "check");

    /**
     * One component's check.
     *
     * @param component one of {@link ServerVersions#COMPONENTS}
     * @param image     the image that declares it ({@code -} for the Streams library)
     * @param declared  the declared version, {@code null} if none
     * @param source    where the declared version was read ({@link DeclaredVersions.Declared#source()})
     * @param live      the live version as the server reported it, {@code unknown: ...} if not read
     * @param verdict   {@link #MATCHES}, {@link #DIFFERS}, {@link #UNDECLARED} or {@link #UNREAD}
     */
    public record Check(String component, String image, String declared, String source, String live, String verdict) {

        /** @return whether B7 accepts this component: the verdict is {@link #MATCHES} */
        public boolean passes() {
            return MATCHES.equals(verdict);
        }

        /** @return the check as a report row, in {@link #COLUMNS} order */
        public List<Object> cells() {
            return List.of(component, image, (declared == null ? "-" : declared) + " (" + source + ")", live, verdict);
        }
    }

    private VersionGate() {
    }

    /**
     * Reads the declarations from the Docker engine and checks them (the stand must be running).
     *
     * @param images service → image reference the profile runs ({@code Stand.image(service)})
     * @param live   component → live version ({@code Stand.versions()})
     * @return one check per component of {@link ServerVersions#COMPONENTS}, in that order
     */
    public static List<Check> checks(Map<String, String> images, Map<String, String> live) {
        return checks(DeclaredVersions.of(images), live);
    }

    /**
     * @param declared the declarations, one per component ({@link DeclaredVersions#of})
     * @param live     component → live version; a missing, blank or {@code unknown...} value was not read
     * @return one check per declaration, in its order
     */
    public static List<Check> checks(List<DeclaredVersions.Declared> declared, Map<String, String> live) {
        List<Check> checks = new ArrayList<>();
        for (DeclaredVersions.Declared d : declared) {
            String version = live.getOrDefault(d.component(), "unknown: not read");
            String verdict = !Version.looksLikeOne(version) ? UNREAD
                    : d.version() == null || !Version.looksLikeOne(d.version()) ? UNDECLARED
                    : ServerVersions.sameRelease(d.component(), d.version(), version) ? MATCHES : DIFFERS;
            checks.add(new Check(d.component(), d.image(), d.version(), d.source(), version, verdict));
        }
        return checks;
    }

    /** @return the checks that fail B7 (every verdict but {@link #MATCHES}) */
    public static List<Check> failures(List<Check> checks) {
        return checks.stream().filter(c -> !c.passes()).toList();
    }
}
