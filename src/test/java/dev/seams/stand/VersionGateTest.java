package dev.seams.stand;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seams.stand.DeclaredVersions.Declared;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * B7's declared-versus-live check, no Docker: for each component a match passes and a mismatch
 * fails, in the formats the servers, labels and tags really print.
 */
class VersionGateTest {

    private static VersionGate.Check check(String component, String declared, String live) {
        return VersionGate.checks(List.of(new Declared(component, "img", declared, "label")), Map.of(component, live)).get(0);
    }

    @ParameterizedTest(name = "{0}: declared {1}, live {2} -> {3}")
    @CsvSource(delimiter = '|', textBlock = """
            postgresql    | 15.18         | 15.18 (Debian 15.18-0+deb12u1)  | passes
            postgresql    | 17.6          | 17.6 (Debian 17.6-0+deb13u1)    | passes
            postgresql    | 17.6-bookworm | 17.6                            | passes
            postgresql    | 15.18         | 15.14 (Debian 15.14-1.pgdg13+1) | fails
            postgresql    | 15.1          | 15.18                           | fails
            postgresql    | 17.6          | 17.6beta1                       | fails
            kafka         | 4.1.1         | 4.1.1                           | passes
            kafka         | 4.1.1         | 4.3.1                           | fails
            kafka         | 4.1           | 4.1.1                           | fails
            kafka_connect | 4.3.1         | 4.3.1                           | passes
            kafka_connect | 4.3.1         | 4.1.1                           | fails
            debezium      | 3.5.0.Final   | 3.5.0.Final                     | passes
            debezium      | 3.6.1.Final   | 3.5.0.Final                     | fails
            debezium      | 3.6.0.CR1     | 3.6.0.Final                     | fails
            clickhouse    | 18.16.1       | 18.16.1                         | passes
            clickhouse    | 18.16.1       | 18.16.1.0                       | passes
            clickhouse    | 25.8.11.66    | 25.8.11.66                      | passes
            clickhouse    | 18.16.1       | 25.8.11.66                      | fails
            clickhouse    | 25.8          | 25.8.11.66                      | fails
            clickhouse    | 25.8.11.66    | 25.8.11.67                      | fails
            kafka_streams | 4.2.2         | 4.2.2                           | passes
            kafka_streams | 4.3.1         | 4.2.2                           | fails
            """)
    void sameReleasePassesAnotherFails(String component, String declared, String live, String outcome) {
        VersionGate.Check c = check(component, declared, live);
        boolean passes = outcome.equals("passes");
        assertThat(c.verdict()).as("%s", c).isEqualTo(passes ? VersionGate.MATCHES : VersionGate.DIFFERS);
        assertThat(c.passes()).isEqualTo(passes);
        assertThat(VersionGate.failures(List.of(c))).hasSize(passes ? 0 : 1);
    }

    @Test
    void undeclaredOrUnreadFails() {
        assertThat(check("kafka", null, "4.1.1").verdict()).isEqualTo(VersionGate.UNDECLARED);
        assertThat(check("kafka", "offline", "4.1.1").verdict()).isEqualTo(VersionGate.UNDECLARED);
        assertThat(check("debezium", "3.5.0.Final", "unknown: no PostgresConnector").verdict()).isEqualTo(VersionGate.UNREAD);
        assertThat(VersionGate.checks(List.of(new Declared("clickhouse", "img", "18.16.1", "tag")), Map.of()).get(0).verdict())
                .isEqualTo(VersionGate.UNREAD);
        assertThat(check("kafka", null, "4.1.1").passes()).isFalse();
    }

    @Test
    void offlineImagesDeclareByLabel() {
        List<Declared> connect = DeclaredVersions.fromImage("connect", "stand/connect:3.5.0.Final-kafka-4.1.1-offline",
                Map.of("seams.version.debezium", "3.5.0.Final", "seams.version.kafka_connect", "4.1.1", "seams.inputs", "ab"),
                List.of("PATH=/usr/bin"));
        assertThat(connect).containsExactly(
                new Declared("debezium", "stand/connect:3.5.0.Final-kafka-4.1.1-offline", "3.5.0.Final", "label seams.version.debezium"),
                new Declared("kafka_connect", "stand/connect:3.5.0.Final-kafka-4.1.1-offline", "4.1.1", "label seams.version.kafka_connect"));
    }

    @Test
    void officialImagesDeclareByTagAndEnvironment() {
        assertThat(DeclaredVersions.fromImage("connect", "quay.io/debezium/connect:3.6.1.Final", Map.of(),
                List.of("KAFKA_VERSION=4.3.1", "KAFKA_HOME=/kafka")))
                .extracting(Declared::component, Declared::version, Declared::source).containsExactly(
                        org.assertj.core.groups.Tuple.tuple("debezium", "3.6.1.Final", "tag"),
                        org.assertj.core.groups.Tuple.tuple("kafka_connect", "4.3.1", "env KAFKA_VERSION"));
        assertThat(DeclaredVersions.fromImage("postgres", "postgres:17.6", Map.of(), List.of()).get(0).version()).isEqualTo("17.6");
        // the old untagged substitutes declare nothing: B7 fails them
        assertThat(DeclaredVersions.fromImage("kafka", "stand/kafka:offline", Map.of(), List.of()).get(0).version()).isNull();
        assertThat(DeclaredVersions.kafkaStreams("4.3.1").version()).isEqualTo("4.3.1");
        assertThat(DeclaredVersions.kafkaStreams(null).version()).isNull();
    }

    @Test
    void versionTags() {
        assertThat(DeclaredVersions.versionTag("postgres:15.14")).isEqualTo("15.14");
        assertThat(DeclaredVersions.versionTag("quay.io/debezium/connect:3.5.0.Final")).isEqualTo("3.5.0.Final");
        assertThat(DeclaredVersions.versionTag("localhost:5000/clickhouse/clickhouse-server:25.8.11.66@sha256:ab")).isEqualTo("25.8.11.66");
        assertThat(DeclaredVersions.versionTag("stand/postgres:offline")).isNull();
        assertThat(DeclaredVersions.versionTag("localhost:5000/postgres")).isNull();
    }

    @Test
    void aWholeOfflineStandPassesAndOneDriftFails() {
        List<Declared> declared = List.of(
                new Declared("postgresql", "stand/postgres:15.18-offline", "15.18", "label"),
                new Declared("kafka", "stand/kafka:4.1.1-offline", "4.1.1", "label"),
                new Declared("kafka_connect", "stand/connect:3.5.0.Final-kafka-4.1.1-offline", "4.1.1", "label"),
                new Declared("debezium", "stand/connect:3.5.0.Final-kafka-4.1.1-offline", "3.5.0.Final", "label"),
                new Declared("clickhouse", "stand/clickhouse:18.16.1-offline", "18.16.1", "label"),
                DeclaredVersions.kafkaStreams("4.2.2"));
        Map<String, String> live = new java.util.HashMap<>(Map.of("postgresql", "15.18 (Debian 15.18-0+deb12u1)",
                "kafka", "4.1.1", "kafka_connect", "4.1.1", "debezium", "3.5.0.Final", "clickhouse", "18.16.1",
                "kafka_streams", "4.2.2", "kafka_features", "{metadata.version=27}"));
        assertThat(VersionGate.failures(VersionGate.checks(declared, live))).isEmpty();
        live.put("kafka", "4.3.1");
        assertThat(VersionGate.failures(VersionGate.checks(declared, live)))
                .extracting(VersionGate.Check::component).containsExactly("kafka");
    }
}
