package dev.seams.streams;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.seams.kafka.KafkaClientConfig;
import dev.seams.wire.TopicNames;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;

/** The ds-streams settings that issue 11 turned from constants into settings, and the replication factor. */
class StreamsSettingsTest {

    private static final Path STATE = Path.of("/tmp/ds-streams-state");

    @Test
    void productionDefaults() {
        Properties props = StreamsSettings.properties("b:1", STATE);

        assertThat(props.get(StreamsConfig.REPLICATION_FACTOR_CONFIG)).as("the broker's default.replication.factor").isEqualTo(-1);
        assertThat(props.get(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG)).isEqualTo(0L);
        assertThat(props.get(StreamsConfig.PROCESSING_GUARANTEE_CONFIG)).isEqualTo(StreamsConfig.EXACTLY_ONCE_V2);
        assertThat(props).doesNotContainKey(StreamsConfig.mainConsumerPrefix(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG));
        assertThat(props).doesNotContainKey(StreamsConfig.mainConsumerPrefix(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG));
        assertThat(new StreamsConfig(props).getInt(StreamsConfig.REPLICATION_FACTOR_CONFIG)).isEqualTo(-1);
        assertThat(new StreamsConfig(props).getRestoreConsumerConfigs("c").get(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG))
                .as("the restore consumer's fetch.max.wait.ms").isEqualTo(50);
        assertThat(new StreamsConfig(props).getClass(StreamsConfig.ROCKSDB_CONFIG_SETTER_CLASS_CONFIG))
                .as("every state store's RocksDB memory bounded (B16)").isEqualTo(BoundedRocksDbMemory.class);
    }

    @Test
    void cacheStaticMembershipAndSessionTimeoutAreSettings() {
        Properties props = StreamsSettings.properties(new StreamsOptions("ds-streams", "b:1", STATE, 10_485_760L, "streams-1",
                Duration.ofSeconds(10), KafkaClientConfig.NONE, TopicNames.SHIPPED));

        assertThat(props.get(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG)).isEqualTo(10_485_760L);
        assertThat(props.get(StreamsConfig.mainConsumerPrefix(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG))).isEqualTo("streams-1");
        assertThat(props.get(StreamsConfig.mainConsumerPrefix(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG))).isEqualTo(10_000);
        assertThat(new StreamsConfig(props).getMainConsumerConfigs("ds-streams", "c", 0))
                .containsEntry(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, "streams-1-0")
                .containsEntry(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, 10_000);
    }

    @Test
    void aNegativeCacheIsRefused() {
        assertThatThrownBy(() -> new StreamsOptions("a", "b:1", STATE, -1, null, null, KafkaClientConfig.NONE,
                TopicNames.SHIPPED))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("--cache-max-bytes must be >= 0, got -1");
    }

    @Test
    void theUsersKafkaConfigReachesEveryClientButNotTheExactlyOnceSettings() {
        Properties props = StreamsSettings.properties(new StreamsOptions("ds-streams", "b:1", STATE, 0, null, null,
                new KafkaClientConfig(Map.of("security.protocol", "SASL_SSL")), TopicNames.SHIPPED));

        assertThat(new StreamsConfig(props).getMainConsumerConfigs("ds-streams", "c", 0))
                .containsEntry("security.protocol", "SASL_SSL");
        assertThat(new StreamsConfig(props).getProducerConfigs("p")).containsEntry("security.protocol", "SASL_SSL");
        assertThatThrownBy(() -> StreamsSettings.properties(new StreamsOptions("ds-streams", "b:1", STATE, 0, null, null,
                new KafkaClientConfig(Map.of(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, "at_least_once")), TopicNames.SHIPPED)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("processing.guarantee");
    }

    @Test
    void aTopicPrefixNamesTheDeadLetterTopic() {
        Properties props = StreamsSettings.properties(new StreamsOptions("run7_ds-streams", "b:1", STATE, 0, null, null,
                KafkaClientConfig.NONE, new TopicNames("run7_")));

        assertThat(props.get(StreamsConfig.ERRORS_DEAD_LETTER_QUEUE_TOPIC_NAME_CONFIG)).isEqualTo("run7_orders.events.dlq");
        assertThat(StreamsSettings.properties("b:1", STATE).get(StreamsConfig.ERRORS_DEAD_LETTER_QUEUE_TOPIC_NAME_CONFIG))
                .as("the shipped name without a prefix").isEqualTo(TopicNames.ORDERS_EVENTS_DLQ);
    }
}
