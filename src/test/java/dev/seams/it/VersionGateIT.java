package dev.seams.it;

import dev.seams.report.Claim;
import dev.seams.report.ClaimEvidence;
import dev.seams.stand.Stand;
import dev.seams.stand.StandContext;
import dev.seams.stand.VersionGate;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The version gate (claim B7): the suite runs against one named image set ({@code -Dseams.profile=
 * current|candidate|offline}, {@code containers/images.properties}); the report header names the
 * profile and each component's version as the running servers report it. This test checks the
 * header's facts: every live version was read from its server, and every image that declares a
 * version runs exactly that version (source section "Демо и версии": behaviour is sensitive to
 * minor versions, so a report must say which ones it measured).
 *
 * <p>A check that cannot fail is not a PASS: a service whose image declares no version (the
 * offline substitutes, {@code stand/postgres:offline}) was not compared, and while any was not,
 * B7 is UNVERIFIED with the services named; any live version that differs from its declaration is
 * a FAIL.
 */
@ExtendWith(StandContext.Resolver.class)
class VersionGateIT {

    /** The components the report header must name (CLAIMS.md "Evidence and the report"). */
    private static final List<String> HEADER_COMPONENTS =
            List.of("postgresql", "kafka", "kafka_features", "kafka_connect", "debezium", "kafka_streams", "clickhouse");
    /** Verdicts of {@link VersionGate} that compared a declared version with the live one. */
    private static final Set<String> COMPARED = Set.of(VersionGate.MATCHES, VersionGate.DIFFERS);

    @Test
    @Claim(id = "B7", title = "Version gate", exercises = {"containers/images.properties"})
    void b7VersionGate(ClaimEvidence e, StandContext s) {
        Stand stand = s.stand();
        Map<String, String> images = new LinkedHashMap<>();
        VersionGate.LIVE_KEY.keySet().forEach(service -> images.put(service, stand.image(service)));
        Map<String, String> versions = stand.versions();
        List<VersionGate.Check> checks = VersionGate.checks(images, versions);
        List<String> notCompared = checks.stream()
                .filter(c -> !COMPARED.contains(c.verdict()) && !VersionGate.UNREAD.equals(c.verdict()))
                .map(c -> c.cells().get(0) + " (" + c.verdict() + ")").toList();

        e.figure("profile", stand.profile());
        versions.forEach((component, version) -> e.figure("live_" + component, version));
        e.check("live_versions_missing", HEADER_COMPONENTS.stream().filter(c -> !versions.containsKey(c)).toList().toString())
                .isEqualTo("[]", "components the report header must name that have no live version");
        e.check("live_versions_not_read", versions.values().stream().filter(v -> v.isBlank() || v.startsWith("unknown")).count())
                .isZero("live versions that could not be read from their server");
        e.figure("images_compared", checks.stream().filter(c -> COMPARED.contains(c.verdict())).count());
        e.check("images_running_another_version_than_declared", checks.stream()
                .filter(c -> VersionGate.DIFFERS.equals(c.verdict())).count())
                .isZero("services whose server reports another version than its image declares");
        e.figure("images_not_compared", notCompared.toString());
        if (!notCompared.isEmpty()) {
            e.unverified((notCompared.size() == checks.size() ? "nothing compared: no image" : notCompared.size() + " of "
                    + checks.size() + " images") + " of profile " + stand.profile() + " declares the version it contains, "
                    + "so a live version that differs could not fail B7: " + String.join(", ", notCompared));
        }
        e.table("Profile " + stand.profile() + ": image → live version", List.of("service", "image", "live version", "check"),
                checks.stream().map(VersionGate.Check::cells).toList());
        e.note("The report header lists the same live versions. To gate an upgrade: set the candidate tags in "
                + "containers/images.properties, run `mvn verify -Dseams.profile=candidate`, and compare its "
                + "reports/guarantees.json with the current one (`seams compare`, README \"Upgrading a component\").");
    }
}
