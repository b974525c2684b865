package dev.seams.streams;

import java.nio.file.Path;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsConfig;

/** The Kafka Streams configuration of ds-streams. */
public final class StreamsSettings {

    /** The Streams application id, also the consumer group of {@code orders.events} (G12, G13). */
    public static final String APPLICATION_ID = "ds-streams";

    private StreamsSettings() {
    }

    /**
     * {@link #properties(String, String, Path)} with application id {@value #APPLICATION_ID}.
     *
     * @param bootstrapServers Kafka bootstrap servers, {@code host:port[,host:port...]}
     * @param stateDir         directory for local state stores
     * @return a new, mutable Properties
     */
    public static Properties properties(String bootstrapServers, Path stateDir) {
        return properties(APPLICATION_ID, bootstrapServers, stateDir);
    }

    /**
     * The Streams properties:
     * <ul>
     *   <li>{@code processing.guarantee=exactly_once_v2}: outputs, changelogs and input offsets
     *       commit in one transaction (G14, B1; the sink reads read_committed, G15);</li>
     *   <li>{@code statestore.cache.max.bytes=0}: no record cache, so every aggregate update
     *       emits exactly one {@code customer.totals} record (G1: raw rows = changelog records;
     *       the source got 51 records for 51 orders);</li>
     *   <li>{@code commit.interval.ms=100} (the EOS default, explicit), {@code num.standby.replicas=0},
     *       {@code replication.factor=1} (single-broker stand);</li>
     *   <li>consumer {@code auto.offset.reset=earliest}: a new application id reads from the start;</li>
     *   <li>default key and value serdes: String (the topology sets every serde explicitly);</li>
     *   <li>deserialization exception handler {@link DeadLetterHandler} with
     *       {@code errors.dead.letter.queue.topic.name} = {@value TotalsTopology#ORDERS_EVENTS_DLQ}
     *       (KIP-1034): an invalid {@code orders.events} record is logged (task, topic, partition,
     *       offset), skipped, and written byte for byte to the dead-letter topic with its reason and
     *       origin in headers, in the same EOS transaction as the input offset; the application
     *       keeps running (claim B2). The topic must exist (the stand creates it);</li>
     *   <li>processing exception handler: Kafka Streams' default (fail). Every invalid input is
     *       caught by deserialization; an exception inside the aggregate would be a bug, and
     *       skipping it after the subtractor ran would corrupt the totals, so the task fails and
     *       EOS re-processes it.</li>
     * </ul>
     *
     * @param applicationId    Streams application id (consumer group, internal topic prefix)
     * @param bootstrapServers Kafka bootstrap servers, {@code host:port[,host:port...]}
     * @param stateDir         directory for local state stores; keep it across restarts (G14)
     * @return a new, mutable Properties
     */
    public static Properties properties(String applicationId, String bootstrapServers, Path stateDir) {
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        props.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, 0L);
        props.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 100L);
        props.put(StreamsConfig.NUM_STANDBY_REPLICAS_CONFIG, 0);
        props.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, 1);
        props.put(StreamsConfig.consumerPrefix(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG), "earliest");
        props.put(StreamsConfig.DEFAULT_KEY_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
        props.put(StreamsConfig.DEFAULT_VALUE_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
        props.put(StreamsConfig.DESERIALIZATION_EXCEPTION_HANDLER_CLASS_CONFIG, DeadLetterHandler.class);
        props.put(StreamsConfig.ERRORS_DEAD_LETTER_QUEUE_TOPIC_NAME_CONFIG, TotalsTopology.ORDERS_EVENTS_DLQ);
        return props;
    }
}
