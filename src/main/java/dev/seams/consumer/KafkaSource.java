package dev.seams.consumer;

import dev.seams.kafka.KafkaClientConfig;
import java.util.Objects;

/**
 * What a sink consumes and how it reads it: the cluster, the topic, the isolation level and the user's client
 * properties ({@code --bootstrap-servers}, {@code --topic}, {@code --isolation}, {@code --kafka-config}).
 *
 * @param bootstrapServers Kafka bootstrap servers, {@code host:port[,host:port]}
 * @param topic            the topic consumed
 * @param isolation        {@code read_committed} (the exactly-once contract: records of aborted transactions and of
 *                         open ones beyond the LSO are not read; claim G15) or {@code read_uncommitted}
 * @param kafkaConfig      the user's Kafka client properties (security.protocol, sasl.*, ssl.*; {@link KafkaClientConfig}),
 *                         {@link KafkaClientConfig#NONE} by default
 */
public record KafkaSource(String bootstrapServers, String topic, String isolation, KafkaClientConfig kafkaConfig) {

    /** The isolation level both sinks default to (claim G15). */
    public static final String READ_COMMITTED = "read_committed";

    /**
     * @throws NullPointerException     if a setting is null
     * @throws IllegalArgumentException if the isolation level is neither read_committed nor read_uncommitted
     */
    public KafkaSource {
        Objects.requireNonNull(bootstrapServers, "bootstrapServers");
        Objects.requireNonNull(topic, "topic");
        Objects.requireNonNull(kafkaConfig, "kafkaConfig");
        if (!READ_COMMITTED.equals(isolation) && !"read_uncommitted".equals(isolation)) {
            throw new IllegalArgumentException("isolation must be read_committed or read_uncommitted, got " + isolation);
        }
    }

    /**
     * @param bootstrapServers Kafka bootstrap servers
     * @param topic            the topic consumed
     * @return that topic read {@code read_committed}, without client properties of the user's
     */
    public static KafkaSource readCommitted(String bootstrapServers, String topic) {
        return new KafkaSource(bootstrapServers, topic, READ_COMMITTED, KafkaClientConfig.NONE);
    }

    /** @return a copy consuming another topic */
    public KafkaSource withTopic(String value) {
        return new KafkaSource(bootstrapServers, value, isolation, kafkaConfig);
    }

    /** @return a copy with another isolation level */
    public KafkaSource withIsolation(String value) {
        return new KafkaSource(bootstrapServers, topic, value, kafkaConfig);
    }

    /** @return a copy with these client properties of the user's */
    public KafkaSource withKafkaConfig(KafkaClientConfig value) {
        return new KafkaSource(bootstrapServers, topic, isolation, value);
    }
}
