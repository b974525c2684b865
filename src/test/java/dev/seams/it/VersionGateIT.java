package dev.seams.it;

import dev.seams.config.ConnectorUnderTest;
import dev.seams.fixture.StandContext;
import dev.seams.report.Claim;
import dev.seams.report.ClaimEvidence;
import dev.seams.stand.ConnectWorker;
import dev.seams.stand.Stand;
import dev.seams.stand.VersionGate;
import dev.seams.truth.RunNames;
import java.util.List;
import java.util.Map;
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
 * <p>A check that cannot fail is not a PASS: a component whose image declares no version was not
 * compared, and while any was not, B7 is UNVERIFIED with the components named; a live version that
 * differs from its declaration, or one that could not be read, is a FAIL.
 */
@ExtendWith(StandContext.Resolver.class)
class VersionGateIT {

    /** The components the report header must name (docs/claims.md "Evidence and the report"). */
    private static final List<String> HEADER_COMPONENTS =
            List.of("postgresql", "kafka", "kafka_features", "kafka_connect", "debezium", "kafka_streams", "clickhouse");

    @Test
    @Claim(id = "B7", title = "Version gate", exercises = {"containers/images.properties", "containers/offline/prepare.sh",
            "stand/DeclaredVersions", "stand/ServerVersions"})
    void b7VersionGate(ClaimEvidence e, StandContext s) {
        Stand stand = s.stand();
        Map<String, String> versions = stand.versions();
        List<VersionGate.Check> checks = stand.versionChecks();
        List<String> undeclared = checks.stream().filter(c -> VersionGate.UNDECLARED.equals(c.verdict()))
                .map(VersionGate.Check::component).toList();

        e.figure("profile", stand.profile());
        versions.forEach((component, version) -> e.figure("live_" + component, version));
        e.check("live_versions_missing", HEADER_COMPONENTS.stream().filter(c -> !versions.containsKey(c)).toList().toString())
                .isEqualTo("[]", "components the report header must name that have no live version");
        e.check("live_versions_not_read", checks.stream().filter(c -> VersionGate.UNREAD.equals(c.verdict())).count())
                .isZero("components whose live version could not be read from their server");
        e.check("components_compared", checks.stream().filter(c -> VersionGate.MATCHES.equals(c.verdict())
                || VersionGate.DIFFERS.equals(c.verdict())).count()).isPositive("components whose declared version was compared with the live one");
        e.check("components_running_another_version_than_declared", checks.stream()
                .filter(c -> VersionGate.DIFFERS.equals(c.verdict())).count())
                .isZero("components whose server reports another version than its image (or -Dkafka.version) declares");
        if (!undeclared.isEmpty()) {
            e.unverified(undeclared.size() + " of " + checks.size() + " components of profile " + stand.profile()
                    + " declare no version, so a live version that differs could not fail B7: " + undeclared);
        }
        e.table("Profile " + stand.profile() + ": declared → live version", VersionGate.COLUMNS,
                checks.stream().map(VersionGate.Check::cells).toList());
        e.note("Declared: the image's labels seams.version.* (offline images: read back from what prepare.sh built), else its "
                + "version tag; the Kafka Streams library: -Dkafka.version. Live: what each running server reports (the report "
                + "header). The upgrade gate: docs/profiles.md \"Upgrading a component\".");
    }

    @Test
    @Claim(id = "B7", variant = "connector under test", title = "Version gate: the connector configuration the header names is the one Connect runs",
            exercises = {"config/ConnectorUnderTest", "stand/ShippedSetup", "containers/debezium/orders-connector.json"})
    void b7ConnectorUnderTest(ClaimEvidence e, StandContext s) {
        Stand stand = s.stand();
        ConnectorUnderTest connector = ConnectorUnderTest.configured();
        ConnectorUnderTest.Registered registered = stand.connector();
        ConnectWorker connect = new ConnectWorker(stand.connect());
        Map<String, String> inConnect = new java.util.LinkedHashMap<>();
        connect.get("/connectors/" + RunNames.CONNECTOR + "/config").fields()
                .forEachRemaining(f -> inConnect.put(f.getKey(), f.getValue().asText()));
        java.util.Set<String> known = connect.knownSettings(inConnect);
        List<String> unknown = connector.settings().keySet().stream().filter(k -> !known.contains(k))
                .filter(k -> !k.matches("(key|value|header)\\.converter\\..+|name")).toList();

        e.figure("connector", connector.name() + " (" + connector.file() + ")");
        e.figure("stand_overrides", registered.lines());
        e.figure("settings_debezium_does_not_know", unknown);
        e.check("settings_in_the_file", connector.settings().size()).isPositive("settings read from the connector's file");
        e.check("settings_not_reaching_connect_as_given", connector.notAsGiven(registered, inConnect))
                .isEqualTo(List.of(), "settings of the file that Connect holds with another value, or not at all, without "
                        + "being one of the stand's listed changes (connection, names, table list, route)");
        e.note("Connect's copy is GET /connectors/" + RunNames.CONNECTOR + "/config, compared with the file as "
                + "ConnectorSettings reads it (-D" + ConnectorUnderTest.PROPERTY + ", else " + ConnectorUnderTest.SHIPPED_FILE
                + "); a setting the stand changes is listed in the report's header with the file's value. Settings Debezium "
                + "does not know are those the worker's validation of the configuration does not define (converter settings "
                + "aside): Connect ignores them.");
    }
}
