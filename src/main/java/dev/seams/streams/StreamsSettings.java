package dev.seams.streams;

import dev.seams.wire.TopicNames;
import java.nio.file.Path;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsConfig;

/** The Kafka Streams configuration of ds-streams. */
public final class StreamsSettings {

    /** The Streams application id, also the consumer group of {@code orders.events} (G12, G13). */
    public static final String APPLICATION_ID = "ds-streams";
    /** {@code replication.factor} that means "the broker's {@code default.replication.factor}" (KIP-464). */
    public static final int BROKER_DEFAULT_REPLICATION = -1;
    /** The restore consumer's {@code fetch.max.wait.ms}, ms (claim B9: a restore is not paced by empty fetches). */
    public static final int RESTORE_FETCH_MAX_WAIT_MS = 50;

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
     *   <li>{@code statestore.cache.max.bytes} = {@code --cache-max-bytes}, default 0: no record
     *       cache, so every aggregate update emits exactly one {@code customer.totals} record (G1: raw
     *       rows = changelog records; the source got 51 records for 51 orders) at once (B6 freshness).
     *       A cache collapses a customer's updates within a commit interval into one record: fewer
     *       records, same FINAL (each carries its version), but G1's and G2's counts no longer hold;</li>
     *   <li>{@code commit.interval.ms=100} (the EOS default, explicit), {@code num.standby.replicas=0},
     *       {@code replication.factor=-1}: internal topics (repartition, changelogs) take the
     *       broker's {@code default.replication.factor} (1 on the single-broker stand, 3 on a
     *       production cluster) instead of a hard-coded 1;</li>
     *   <li>{@code --instance-id}: static membership ({@code group.instance.id} of the main consumer;
     *       Kafka Streams appends {@code -<thread index>}), so a restarted process takes its tasks back
     *       without a rebalance (B9); {@code --session-timeout}: the main consumer's {@code session.timeout.ms};</li>
     *   <li>consumer {@code auto.offset.reset=earliest}: a new application id reads from the start;</li>
     *   <li>restore consumer {@code fetch.max.wait.ms} = {@value #RESTORE_FETCH_MAX_WAIT_MS} (Kafka's default 500):
     *       a restore ends with fetches at the changelog's end, which the broker holds up to this long when no
     *       data is there. After kill -9 under exactly-once the state is wiped and restored from the changelogs
     *       (TaskCorruptedException, G14, B9); with 500 ms each round of changelogs took half a second more
     *       (seen in B9: about 1 s of the 3 s from Kafka Streams' start to RUNNING). The restore consumer fetches
     *       only while tasks restore (no standby replicas), so the shorter wait costs nothing at rest;</li>
     *   <li>default key and value serdes: String (the topology sets every serde explicitly);</li>
     *   <li>deserialization exception handler {@link DeadLetterHandler} with
     *       {@code errors.dead.letter.queue.topic.name} = {@value TopicNames#ORDERS_EVENTS_DLQ} (with the options'
     *       topic prefix)
     *       (KIP-1034): an invalid {@code orders.events} record is logged (task, topic, partition,
     *       offset), skipped, and written byte for byte to the dead-letter topic with its reason and
     *       origin in headers, in the same EOS transaction as the input offset; the application
     *       keeps running (claim B2). The topic must exist (the stand creates it);</li>
     *   <li>{@code rocksdb.config.setter} = {@link BoundedRocksDbMemory}: every state store shares one block cache
     *       of {@value BoundedRocksDbMemory#TOTAL_OFF_HEAP_BYTES} bytes, memtables charged to it, so the
     *       process's memory off the heap is bounded (claim B16[100,000-order transaction]);</li>
     *   <li>processing exception handler: Kafka Streams' default (fail). Every invalid input is
     *       caught by deserialization; an exception inside the aggregate would be a bug, and
     *       skipping it after the subtractor ran would corrupt the totals, so the task fails and
     *       EOS re-processes it.</li>
     * </ul>
     *
     * @param options the process's settings
     * @return a new, mutable Properties: these settings, then the user's client properties ({@code --kafka-config})
     * @throws IllegalArgumentException if the user's client properties change one of these settings
     */
    public static Properties properties(StreamsOptions options) {
        return options.kafkaConfig().applyTo(own(options));
    }

    /** @return the settings ds-streams makes itself, which {@code --kafka-config} cannot change */
    private static Properties own(StreamsOptions options) {
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, options.applicationId());
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, options.bootstrapServers());
        props.put(StreamsConfig.STATE_DIR_CONFIG, options.stateDir().toString());
        props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        props.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, options.cacheMaxBytes());
        props.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 100L);
        props.put(StreamsConfig.NUM_STANDBY_REPLICAS_CONFIG, 0);
        props.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, BROKER_DEFAULT_REPLICATION);
        props.put(StreamsConfig.consumerPrefix(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG), "earliest");
        props.put(StreamsConfig.restoreConsumerPrefix(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG), RESTORE_FETCH_MAX_WAIT_MS);
        if (options.instanceId() != null) {
            props.put(StreamsConfig.mainConsumerPrefix(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG), options.instanceId());
        }
        if (options.sessionTimeout() != null) {
            props.put(StreamsConfig.mainConsumerPrefix(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG),
                    (int) options.sessionTimeout().toMillis());
        }
        props.put(StreamsConfig.ROCKSDB_CONFIG_SETTER_CLASS_CONFIG, BoundedRocksDbMemory.class);
        props.put(StreamsConfig.DEFAULT_KEY_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
        props.put(StreamsConfig.DEFAULT_VALUE_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
        props.put(StreamsConfig.DESERIALIZATION_EXCEPTION_HANDLER_CLASS_CONFIG, DeadLetterHandler.class);
        props.put(StreamsConfig.ERRORS_DEAD_LETTER_QUEUE_TOPIC_NAME_CONFIG, options.topics().ordersEventsDlq());
        return props;
    }

    /**
     * {@link #properties(StreamsOptions)} with the production defaults ({@link StreamsOptions#of}).
     *
     * @param applicationId    Streams application id (consumer group, internal topic prefix)
     * @param bootstrapServers Kafka bootstrap servers, {@code host:port[,host:port...]}
     * @param stateDir         directory for local state stores; keep it across restarts (G14)
     * @return a new, mutable Properties
     */
    public static Properties properties(String applicationId, String bootstrapServers, Path stateDir) {
        return properties(StreamsOptions.of(applicationId, bootstrapServers, stateDir));
    }
}
