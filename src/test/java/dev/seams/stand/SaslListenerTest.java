package dev.seams.stand;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.seams.kafka.KafkaClientConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The stand's SASL listener: its broker settings, its protocol, and the client properties a run carries (issue 24). */
class SaslListenerTest {

    private final SaslListener sasl = new SaslListener("seams", "s3cret");

    @Test
    void onlyTheSaslListenerBecomesSaslPlaintext() {
        String[] env = {"CLUSTER_ID=x", "KAFKA_LISTENER_SECURITY_PROTOCOL_MAP=BROKER:PLAINTEXT,TC-0:PLAINTEXT,TC-1:PLAINTEXT,"
                + "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT"};

        assertThat(SaslListener.secured(env)).containsExactly("CLUSTER_ID=x", "KAFKA_LISTENER_SECURITY_PROTOCOL_MAP="
                + "BROKER:PLAINTEXT,TC-0:PLAINTEXT,TC-1:SASL_PLAINTEXT,PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
        assertThat(env[1]).contains("TC-1:PLAINTEXT");   // the given array is not changed
    }

    @Test
    void aListenerMapWithoutItsNameIsRefusedRatherThanLeftPlaintext() {
        assertThatThrownBy(() -> SaslListener.secured(new String[] {"KAFKA_LISTENER_SECURITY_PROTOCOL_MAP=TC-0:PLAINTEXT"}))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("no TC-1:PLAINTEXT");
    }

    @Test
    void theBrokerKnowsTheOneUserOnThatListenerOnly() {
        assertThat(sasl.brokerEnv()).containsEntry("KAFKA_SASL_ENABLED_MECHANISMS", "PLAIN")
                .containsEntry("KAFKA_LISTENER_NAME_TC___1_PLAIN_SASL_JAAS_CONFIG",
                        "org.apache.kafka.common.security.plain.PlainLoginModule required username=\"seams\" "
                                + "password=\"s3cret\" user_seams=\"s3cret\";");
    }

    @Test
    void theClientPropertiesAreAKafkaConfigFile(@TempDir Path dir) throws IOException {
        Path file = Files.writeString(dir.resolve("client.properties"), sasl.clientProperties());

        assertThat(KafkaClientConfig.load(file).properties())
                .containsEntry("security.protocol", "SASL_PLAINTEXT").containsEntry("sasl.mechanism", "PLAIN")
                .containsEntry("sasl.jaas.config", "org.apache.kafka.common.security.plain.PlainLoginModule required "
                        + "username=\"seams\" password=\"s3cret\";");
    }

    @Test
    void itsPasswordIsNeverPrinted() {
        assertThat(sasl.toString()).doesNotContain("s3cret");
    }

    @Test
    void noListenerUnlessAskedFor() {
        org.junit.jupiter.api.Assumptions.assumeTrue(System.getProperty(SaslListener.PROPERTY) == null, "the build asks for one");
        assertThat(SaslListener.fromSystemProperties()).isEmpty();
    }
}
