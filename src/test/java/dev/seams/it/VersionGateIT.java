package dev.seams.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seams.report.ClaimEvidence;
import dev.seams.report.Evidence;
import dev.seams.report.EvidenceExtension;
import dev.seams.stand.Stand;
import dev.seams.stand.VersionGate;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The version gate (claim B7): the suite runs against one named image set ({@code -Dseams.profile=
 * current|candidate|offline}, {@code containers/images.properties}); the report header names the
 * profile and each component's version as the running servers report it. This test checks the
 * header's facts: the profile is the one requested, every live version was read from its server,
 * and every image pinned by a version tag runs exactly that version (source section "Демо и версии":
 * behaviour is sensitive to minor versions, so a report must say which ones it measured).
 */
@ExtendWith(EvidenceExtension.class)
class VersionGateIT {

    @Test
    @DisplayName("B7 Version gate")
    void b7VersionGate() {
        ClaimEvidence e = Evidence.claim("B7", "Version gate");
        Stand stand = Stand.get();
        String requested = System.getProperty("seams.profile", "current");
        Map<String, String> images = new LinkedHashMap<>();
        VersionGate.LIVE_KEY.keySet().forEach(service -> images.put(service, stand.image(service)));
        Map<String, String> versions = stand.versions();
        List<VersionGate.Check> checks = VersionGate.checks(images, versions);

        e.figure("profile", stand.profile());
        e.expected("profile", requested);
        versions.forEach((component, version) -> e.figure("live_" + component, version));
        long unread = e.figure("live_versions_not_read", versions.values().stream()
                .filter(v -> v.isBlank() || v.startsWith("unknown")).count());
        e.expected("live_versions_not_read", 0L);
        long differ = e.figure("images_running_another_version_than_their_tag",
                checks.stream().filter(c -> c.verdict().equals(VersionGate.DIFFERS)).count());
        e.expected("images_running_another_version_than_their_tag", 0L);
        e.table("Profile " + stand.profile() + ": image → live version", List.of("service", "image", "live version", "check"),
                checks.stream().map(VersionGate.Check::cells).toList());
        e.note("The report header lists the same live versions. To gate an upgrade: set the candidate tags in "
                + "containers/images.properties, run `mvn verify -Dseams.profile=candidate`, and compare its "
                + "reports/guarantees.json with the current one (`seams compare`, README \"Upgrading a component\").");

        assertThat(stand.profile()).as("the profile that ran").isEqualTo(requested);
        assertThat(versions).as("live versions in the report header").containsKeys(
                "postgresql", "kafka", "kafka_features", "kafka_connect", "debezium", "kafka_streams", "clickhouse");
        assertThat(unread).as("live versions that could not be read: %s", versions).isZero();
        assertThat(differ).as("images whose server reports another version than the tag: %s", checks).isZero();
    }
}
