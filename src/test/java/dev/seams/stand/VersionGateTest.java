package dev.seams.stand;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** B7's tag-versus-live-version check on the image references and version strings the servers give. */
class VersionGateTest {

    @Test
    void versionTags() {
        assertThat(VersionGate.versionTag("postgres:15.14")).isEqualTo("15.14");
        assertThat(VersionGate.versionTag("quay.io/debezium/connect:3.5.0.Final")).isEqualTo("3.5.0.Final");
        assertThat(VersionGate.versionTag("localhost:5000/clickhouse/clickhouse-server:25.8.11.66@sha256:ab")).isEqualTo("25.8.11.66");
        assertThat(VersionGate.versionTag("stand/postgres:offline")).isNull();
        assertThat(VersionGate.versionTag("localhost:5000/postgres")).isNull();
    }

    @Test
    void liveVersionAgreesWithItsTagOnly() {
        assertThat(VersionGate.agrees("15.14", "15.14 (Debian 15.14-1.pgdg13+1)")).isTrue();
        assertThat(VersionGate.agrees("25.8.11.66", "25.8.11.66")).isTrue();
        assertThat(VersionGate.agrees("15.14", "15.141")).isFalse();
        assertThat(VersionGate.agrees("4.1", "4.1.1")).isFalse();
        assertThat(VersionGate.agrees("17.6", "15.14")).isFalse();
    }

    @Test
    void checksEveryService() {
        Map<String, String> images = Map.of("postgres", "postgres:15.14", "kafka", "apache/kafka:4.1.1",
                "connect", "quay.io/debezium/connect:3.5.0.Final", "clickhouse", "stand/clickhouse:offline");
        Map<String, String> live = Map.of("postgresql", "15.14 (Debian)", "kafka", "4.2.0", "debezium", "unknown: timeout",
                "clickhouse", "18.16.1");
        List<VersionGate.Check> checks = VersionGate.checks(images, live);
        assertThat(checks).extracting(VersionGate.Check::service, VersionGate.Check::verdict).containsExactly(
                org.assertj.core.groups.Tuple.tuple("postgres", VersionGate.MATCHES),
                org.assertj.core.groups.Tuple.tuple("kafka", VersionGate.DIFFERS),
                org.assertj.core.groups.Tuple.tuple("connect", VersionGate.UNREAD),
                org.assertj.core.groups.Tuple.tuple("clickhouse", VersionGate.NO_TAG));
    }
}
