package dev.seams.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --kafka-config}: a secured cluster's client properties added to every client, never over the product's own. */
class KafkaClientConfigTest {

    private static final String JAAS = "org.apache.kafka.common.security.scram.ScramLoginModule required "
            + "username=\"seams\" password=\"s3cr3t\";";

    @TempDir
    Path dir;

    private KafkaClientConfig saslSsl() throws Exception {
        return KafkaClientConfig.load(Files.writeString(dir.resolve("client.properties"), """
                # the file kafka-consumer-groups --command-config takes
                security.protocol=SASL_SSL
                sasl.mechanism=SCRAM-SHA-512
                sasl.jaas.config=%s
                ssl.truststore.location=/etc/kafka/truststore.jks
                isolation.level=read_committed
                """.formatted(JAAS)));
    }

    @Test
    void theFilesPropertiesAreAddedToTheClientsOwn() throws Exception {
        Properties own = new Properties();
        own.put("bootstrap.servers", "b:9093");
        own.put("isolation.level", "read_committed");

        Properties merged = saslSsl().applyTo(own);

        assertThat(merged).containsEntry("security.protocol", "SASL_SSL").containsEntry("sasl.mechanism", "SCRAM-SHA-512")
                .containsEntry("sasl.jaas.config", JAAS).containsEntry("bootstrap.servers", "b:9093")
                .containsEntry("isolation.level", "read_committed");
    }

    @Test
    void aSettingTheProductMakesItselfIsNeverChangedByTheFile() throws Exception {
        Properties own = new Properties();
        own.put("isolation.level", "read_committed");
        KafkaClientConfig uncommitted = new KafkaClientConfig(Map.of("isolation.level", "read_uncommitted"));

        assertThatThrownBy(() -> uncommitted.applyTo(own)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--kafka-config sets isolation.level, which seams sets itself to read_committed (its guarantees "
                        + "depend on it): remove it from the file");
        assertThat(own).containsEntry("isolation.level", "read_committed");
        assertThatThrownBy(() -> uncommitted.applyTo(Map.<String, Object>of("isolation.level", "read_committed")))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void itsTextNamesThePropertiesWithoutTheirValues() throws Exception {
        assertThat(saslSsl().toString()).contains("sasl.jaas.config", "security.protocol").doesNotContain("s3cr3t")
                .doesNotContain("SASL_SSL");
    }

    @Test
    void noFileIsNoPropertiesAndAnUnreadableFileIsAUsageError() {
        assertThat(KafkaClientConfig.load(null)).isEqualTo(KafkaClientConfig.NONE);
        assertThat(KafkaClientConfig.NONE.applyTo(Map.<String, Object>of("bootstrap.servers", "b:1")))
                .isEqualTo(Map.of("bootstrap.servers", "b:1"));
        assertThatThrownBy(() -> KafkaClientConfig.load(dir.resolve("missing.properties")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("cannot read the Kafka client config ");
    }

    @Test
    void aValueAKafkaClientWouldRefuseIsOneLineNamingTheFileAndTheProperty() throws Exception {
        Path typo = Files.writeString(dir.resolve("typo.properties"), "security.protocol=SASL_SSSL\n");
        assertThatThrownBy(() -> KafkaClientConfig.load(typo)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("the Kafka client config " + typo + ": ").hasMessageContaining("security.protocol");
        Path number = Files.writeString(dir.resolve("number.properties"), "request.timeout.ms=thirty\n");
        assertThatThrownBy(() -> KafkaClientConfig.load(number)).hasMessageContaining("request.timeout.ms");
    }

    @Test
    void aMalformedEscapeNamesTheFile() throws Exception {
        Path file = Files.writeString(dir.resolve("escape.properties"), "ssl.truststore.location=C:\\u00zz\n");
        assertThatThrownBy(() -> KafkaClientConfig.load(file)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("cannot read the Kafka client config " + file);
    }

    @Test
    void aSettingTheCommandOwnsIsRefusedWhateverItsValue() throws Exception {
        assertThatThrownBy(() -> saslSsl().refusing("lag", java.util.Set.of("isolation.level")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--kafka-config sets isolation.level, which seams lag sets itself: remove it from the file");
    }
}
