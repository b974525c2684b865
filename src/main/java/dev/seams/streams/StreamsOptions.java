package dev.seams.streams;

import dev.seams.kafka.KafkaClientConfig;
import dev.seams.wire.TopicNames;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/**
 * The settings of one ds-streams process ({@code seams streams}'s flags; {@link StreamsSettings}).
 *
 * @param applicationId    Streams application id (consumer group, internal topic prefix)
 * @param bootstrapServers Kafka bootstrap servers, {@code host:port[,host:port...]}
 * @param stateDir         directory for local state stores; keep it across restarts (G14)
 * @param cacheMaxBytes    {@code statestore.cache.max.bytes}, >= 0 (default 0, see {@link StreamsSettings})
 * @param instanceId       static membership ({@code group.instance.id}; Kafka Streams appends the
 *                         thread index), or null for dynamic membership (claim B9)
 * @param sessionTimeout   the main consumer's {@code session.timeout.ms}, or null for Kafka's default (45 s)
 * @param kafkaConfig      the user's client properties for every client of the process ({@code --kafka-config};
 *                         {@link KafkaClientConfig}), {@link KafkaClientConfig#NONE} by default
 * @param topics           the topics it reads and writes ({@code --topic-prefix}), {@link TopicNames#SHIPPED} by default
 */
public record StreamsOptions(String applicationId, String bootstrapServers, Path stateDir, long cacheMaxBytes,
                             String instanceId, Duration sessionTimeout, KafkaClientConfig kafkaConfig,
                             TopicNames topics) {

    /**
     * @throws NullPointerException     if applicationId, bootstrapServers, stateDir, kafkaConfig or topics is null
     * @throws IllegalArgumentException if cacheMaxBytes < 0
     */
    public StreamsOptions {
        Objects.requireNonNull(applicationId, "applicationId");
        Objects.requireNonNull(bootstrapServers, "bootstrapServers");
        Objects.requireNonNull(stateDir, "stateDir");
        Objects.requireNonNull(kafkaConfig, "kafkaConfig");
        Objects.requireNonNull(topics, "topics");
        if (cacheMaxBytes < 0) {
            throw new IllegalArgumentException("--cache-max-bytes must be >= 0, got " + cacheMaxBytes);
        }
    }

    /** @return the production defaults: no cache, dynamic membership, Kafka's session timeout, the shipped topics */
    public static StreamsOptions of(String applicationId, String bootstrapServers, Path stateDir) {
        return new StreamsOptions(applicationId, bootstrapServers, stateDir, 0, null, null, KafkaClientConfig.NONE,
                TopicNames.SHIPPED);
    }
}
