package dev.seams.stand;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Version parsing, the report's normal forms, the Streams library's version and the version-dependent traits. */
class ServerVersionsTest {

    @Test
    void parsesWhatServersPrint() {
        assertThat(Version.parse("15.18 (Debian 15.18-0+deb12u1)")).isEqualTo(new Version(java.util.List.of(15, 18), ""));
        assertThat(Version.parse("3.5.0.Final")).isEqualTo(new Version(java.util.List.of(3, 5, 0), "Final"));
        assertThat(Version.parse("18beta1").qualifier()).isEqualTo("beta1");
        assertThat(Version.parse("21.1").compareTo(Version.parse("21.1.0.0"))).isZero();
        assertThat(Version.parse("18.16.1").atLeast("21.1")).isFalse();
        assertThat(Version.looksLikeOne("unknown: timeout")).isFalse();
        assertThatThrownBy(() -> Version.parse("offline")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void normalForms() {
        assertThat(ServerVersions.normalise("postgresql", "15.18 (Debian 15.18-0+deb12u1)")).isEqualTo("15.18");
        assertThat(ServerVersions.normalise("postgresql", "17.6-bookworm")).isEqualTo("17.6");
        assertThat(ServerVersions.normalise("clickhouse", "25.8.11.66-alpine")).isEqualTo("25.8.11.66");
        assertThat(ServerVersions.normalise("debezium", "3.6.1.Final")).isEqualTo("3.6.1.Final");
        assertThat(ServerVersions.normalise("kafka", "unknown: no line")).isEqualTo("unknown: no line");
        assertThatThrownBy(() -> ServerVersions.sameRelease("zookeeper", "3.8", "3.8"))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void kafkaStreamsLibraryIsTheOneOnTheClassPath() {
        // no internal Kafka class here (AppInfoParser is gone from kafka-clients 4.4): only the jar's resource
        assertThat(Version.looksLikeOne(ServerVersions.kafkaStreamsLibrary())).as(ServerVersions.kafkaStreamsLibrary()).isTrue();
        String declared = System.getProperty(DeclaredVersions.KAFKA_VERSION_PROPERTY);
        if (declared != null) {
            assertThat(ServerVersions.kafkaStreamsLibrary()).as("-Dkafka.version").isEqualTo(declared);
        }
    }

    @Test
    void clickHouseTraitsByVersion() {
        ServerTraits debian = ServerTraits.of(Map.of("clickhouse", "18.16.1"));
        ServerTraits current = ServerTraits.of(Map.of("clickhouse", "25.8.11.66"));
        assertThat(debian.clickhouseHasOptimizeOnInsert()).isFalse();
        assertThat(current.clickhouseHasOptimizeOnInsert()).isTrue();
        assertThat(debian.clickhouseDecimalText(new BigDecimal("10.50"))).isEqualTo("10.50");
        assertThat(current.clickhouseDecimalText(new BigDecimal("10.50"))).isEqualTo("10.5");
        assertThat(current.clickhouseDecimalText(new BigDecimal("0.00"))).isEqualTo("0");
        assertThat(current.clickhouseDecimalText(new BigDecimal("100.00"))).isEqualTo("100");
        assertThat(debian.clickhouseDecimalText(new BigDecimal("0.00"))).isEqualTo("0.00");
        assertThat(ServerTraits.of(Map.of("clickhouse", "21.9.2.17")).clickhouseDecimalTextKeepsTrailingZeros()).isFalse();
        assertThatThrownBy(() -> ServerTraits.of(Map.of("clickhouse", "unknown: down"))).isInstanceOf(IllegalArgumentException.class);
    }
}
