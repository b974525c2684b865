package dev.seams.truth;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.seams.kafka.KafkaClientConfig;
import dev.seams.lag.LagProbe;
import dev.seams.wire.CustomerTotals;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Broker-side facts for the tests: end offsets, committed offsets, lag, and the records of a topic
 * read with a chosen isolation level. Everything is read from the broker at the moment of the call.
 */
public final class Topics {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Admin admin;
    private final String bootstrapServers;
    private final KafkaClientConfig client;

    private Topics(Admin admin, String bootstrapServers, KafkaClientConfig client) {
        this.admin = admin;
        this.bootstrapServers = bootstrapServers;
        this.client = client;
    }

    /**
     * @param admin            an admin client of the cluster (the stand's: {@code admin}); not closed here
     * @param bootstrapServers the cluster's bootstrap servers as seen from this host, for the readers and producers made here
     * @param client           the cluster's client properties (SASL/SSL) for those readers and producers, {@link
     *                         KafkaClientConfig#NONE} on a PLAINTEXT listener
     * @return broker facts of that cluster
     */
    public static Topics of(Admin admin, String bootstrapServers, KafkaClientConfig client) {
        return new Topics(admin, bootstrapServers, client);
    }

    private List<TopicPartition> partitions(String topic) {
        return Futures.get(admin.describeTopics(List.of(topic)).allTopicNames(), "cannot describe " + topic)
                .get(topic).partitions().stream().map(p -> new TopicPartition(topic, p.partition())).toList();
    }

    /** @return partition → log end offset (high watermark) */
    public Map<TopicPartition, Long> endOffsets(String topic) {
        return latestOffsets(topic, IsolationLevel.READ_UNCOMMITTED);
    }

    /** @return partition → log start offset (retention and {@code deleteRecords} move it above 0) */
    public Map<TopicPartition, Long> startOffsets(String topic) {
        return offsets(topic, OffsetSpec.earliest(), IsolationLevel.READ_UNCOMMITTED);
    }

    /** @return partition → the latest offset at that isolation (log end offset, or LSO for read_committed) */
    private Map<TopicPartition, Long> latestOffsets(String topic, IsolationLevel isolation) {
        return offsets(topic, OffsetSpec.latest(), isolation);
    }

    private Map<TopicPartition, Long> offsets(String topic, OffsetSpec spec, IsolationLevel isolation) {
        Map<TopicPartition, OffsetSpec> request = new HashMap<>();
        partitions(topic).forEach(tp -> request.put(tp, spec));
        Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> result = Futures.get(admin
                .listOffsets(request, new ListOffsetsOptions(isolation)).all(), "cannot list the offsets of " + topic + " (" + isolation + ")");
        Map<TopicPartition, Long> offsets = new TreeMap<>(java.util.Comparator.comparingInt(TopicPartition::partition));
        result.forEach((tp, info) -> offsets.put(tp, info.offset()));
        return offsets;
    }

    /**
     * Creates a topic (an existing one is an error unless {@code existingOk}) and waits, up to 60 s, until
     * the leader of every partition answers a list-offsets request: a producer sending at once to a topic
     * the broker has not yet taken leadership of gets {@code NOT_LEADER_OR_FOLLOWER} and retries with its
     * backoff (measured once here: two minutes of such retries before the first write).
     *
     * @param topic      the topic to create
     * @param existingOk whether an existing topic of that name is accepted as it is (its own partition
     *                   count is waited for then)
     * @throws IllegalStateException if it cannot be created or a partition has no answering leader after 60 s
     */
    public void create(NewTopic topic, boolean existingOk) {
        boolean existed = false;
        try {
            Futures.get(admin.createTopics(List.of(topic)).all(), "cannot create topic " + topic.name());
        } catch (IllegalStateException e) {
            if (!(existingOk && e.getCause() instanceof org.apache.kafka.common.errors.TopicExistsException)) {
                throw e;
            }
            existed = true;
        }
        boolean asItIs = existed;   // an existing topic keeps its own partition count
        org.awaitility.Awaitility.await("leaders of " + topic.name() + " answer")
                .atMost(java.time.Duration.ofSeconds(60)).pollDelay(java.time.Duration.ZERO)
                .pollInterval(java.time.Duration.ofMillis(100)).ignoreExceptions()
                .until(() -> endOffsets(topic.name()).size() == (asItIs ? partitionCount(topic.name()) : topic.numPartitions()));
    }

    /** @return the number of partitions the broker reports for the topic now */
    public int partitionCount(String topic) {
        return partitions(topic).size();
    }

    /** @return the sum of the topic's log end offsets (for a non-transactional topic: records ever written) */
    public long totalEndOffset(String topic) {
        return endOffsets(topic).values().stream().mapToLong(Long::longValue).sum();
    }

    /**
     * @return partition → offset of its last data record + 1 (read_committed), 0 for an empty
     *     partition: what a consumer that commits "last offset + 1" commits
     */
    public Map<TopicPartition, Long> lastDataOffsetPlusOne(String topic) {
        Map<TopicPartition, Long> result = new HashMap<>();
        endOffsets(topic).keySet().forEach(tp -> result.put(tp, 0L));
        readAll(topic, "read_committed", r -> result.merge(new TopicPartition(r.topic(), r.partition()), r.offset() + 1, Math::max));
        return result;
    }

    /**
     * The harness's own reading of a group's lag, from the broker's offsets (Admin), not from the product's {@link
     * LagProbe}: the waits and charts that rest on it must not lean on code that claims G12 and G13 test (a mutant of
     * the probe is then caught by those claims' checks, not by a shared wait).
     *
     * @return the group's lag on the topic, in offsets: sum over the topic's partitions of log end offset − committed
     *     offset (0 where the group committed none)
     */
    public long lag(String group, String topic) {
        return lag(committed(group, topic), endOffsets(topic));
    }

    /**
     * Whether the group has read every data record of the topic, by the harness's own reading (see {@link #lag}): lag 0,
     * or a lag of at most two offsets per partition of the topic in all and none of them a data record when read read_uncommitted (only
     * transaction control markers; claim G12, seed section "Лаг как метрика здоровья"). Records of an open transaction
     * count as data: a group behind them has not caught up.
     *
     * @return true when nothing but control markers lies between the group's committed offsets and the log end
     */
    public boolean caughtUp(String group, String topic) {
        Map<TopicPartition, Long> committed = committed(group, topic);
        Map<TopicPartition, Long> ends = endOffsets(topic);
        long lag = lag(committed, ends);
        return lag == 0 || (lag <= 2L * ends.size() && recordsSince(topic, "read_uncommitted", committed).isEmpty());
    }

    private static long lag(Map<TopicPartition, Long> committed, Map<TopicPartition, Long> ends) {
        return ends.entrySet().stream().mapToLong(x -> x.getValue() - committed.getOrDefault(x.getKey(), 0L)).sum();
    }

    /** @return the lag probe of the stand's cluster */
    public LagProbe lagProbe() {
        return new LagProbe(admin, bootstrapServers, LagProbe.READ_ALL, client);
    }

    /**
     * Sets the (inactive) group's committed offsets on the topic, like
     * {@code kafka-consumer-groups --reset-offsets --to-offset}.
     */
    public void resetGroup(String group, Map<TopicPartition, Long> offsets) {
        Map<TopicPartition, OffsetAndMetadata> request = new HashMap<>();
        offsets.forEach((tp, o) -> request.put(tp, new OffsetAndMetadata(o)));
        Futures.get(admin.alterConsumerGroupOffsets(group, request).all(), "cannot reset group " + group);
    }

    /**
     * Reads every record of the topic from the beginning up to the current end offsets.
     *
     * @param isolation {@code read_committed} or {@code read_uncommitted}
     * @param each      called for each record, in partition order
     * @return the number of records read
     */
    public long readAll(String topic, String isolation, Consumer<ConsumerRecord<byte[], byte[]>> each) {
        return readFrom(topic, isolation, Map.of(), each);
    }

    /**
     * @param isolation {@code read_committed} or {@code read_uncommitted}
     * @return the properties of a reader of the stand's topics: byte-array key and value, no group, no auto-commit,
     *     and the cluster's client properties
     */
    Properties readerProperties(String isolation) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, isolation);
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        return client.applyTo(props);
    }

    /**
     * @param transactionalId a transactional.id, or null for a plain (non-transactional) producer
     * @return a new byte-array producer to the stand's broker; the caller closes it
     */
    public KafkaProducer<byte[], byte[]> producer(String transactionalId) {
        Map<String, Object> config = new HashMap<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName(),
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName()));
        if (transactionalId != null) {
            config.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
        }
        return new KafkaProducer<>(client.applyTo(config));
    }

    /** @return the number of data records in the topic visible to a read_committed consumer */
    public long committedRecordCount(String topic) {
        return readAll(topic, "read_committed", r -> { });
    }

    /**
     * @return the latest snapshot per customer in {@code customer.totals} (read_committed): the one
     *     with the highest {@code version} ds-streams gave it — never the highest offset, which stops
     *     meaning "latest" when the topic gains partitions or is re-created (B10); read incrementally
     *     since the previous call ({@link LatestSnapshots})
     * @throws IllegalStateException at a record that is not a totals snapshot
     */
    public Map<Long, CustomerTotals> latestSnapshots() {
        return LatestSnapshots.of(admin, readerProperties("read_committed")).read();
    }

    /** @return {@link #latestSnapshots()} as (orders, total) per customer: what ds-streams currently says each customer's totals are */
    public Map<Long, Totals> latestTotals() {
        Map<Long, Totals> totals = new TreeMap<>();
        latestSnapshots().forEach((id, t) -> totals.put(id, new Totals(t.orders(), t.total())));
        return totals;
    }

    /**
     * @return partition → last stable offset (LSO): what a read_committed consumer may read up to;
     *     below the log end offset while a transaction is open on the partition
     */
    public Map<TopicPartition, Long> lastStableOffsets(String topic) {
        return latestOffsets(topic, IsolationLevel.READ_COMMITTED);
    }

    /**
     * The partitions of the topic with an open (or not yet completed) transaction: last stable
     * offset below the log end offset (G14: a kill that lands while Streams is mid-transaction
     * leaves one behind until the next instance fences it).
     *
     * @return partition → [last stable offset, log end offset] of each such partition; empty if none
     */
    public Map<TopicPartition, long[]> openTransactions(String topic) {
        Map<TopicPartition, Long> stable = lastStableOffsets(topic);
        Map<TopicPartition, Long> end = endOffsets(topic);
        Map<TopicPartition, long[]> open = new TreeMap<>(java.util.Comparator.comparingInt(TopicPartition::partition));
        stable.forEach((tp, lso) -> {
            long hw = end.getOrDefault(tp, lso);
            if (lso < hw) {
                open.put(tp, new long[] {lso, hw});
            }
        });
        return open;
    }

    /**
     * @return partition → the group's committed offset on the topic, for the partitions it has
     *     committed (sorted by partition)
     */
    public Map<TopicPartition, Long> committed(String group, String topic) {
        Map<TopicPartition, Long> offsets = new TreeMap<>(java.util.Comparator.comparingInt(TopicPartition::partition));
        Futures.get(admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata(),
                "cannot read the committed offsets of " + group).forEach((tp, om) -> {
                    if (tp.topic().equals(topic) && om != null) {
                        offsets.put(tp, om.offset());
                    }
                });
        return offsets;
    }

    /**
     * Reads the records of the topic at or after the given offsets up to the current end offsets
     * (partitions absent from {@code from} are read from their start).
     *
     * @param isolation {@code read_committed} or {@code read_uncommitted}
     * @param each      called for each record, in partition order
     * @return the number of records read
     */
    public long readFrom(String topic, String isolation, Map<TopicPartition, Long> from,
                         Consumer<ConsumerRecord<byte[], byte[]>> each) {
        long count = 0;
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(readerProperties(isolation))) {
            List<TopicPartition> partitions = partitions(topic);
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            for (TopicPartition tp : partitions) {
                long first = consumer.position(tp);
                consumer.seek(tp, Math.max(first, from.getOrDefault(tp, 0L)));
            }
            Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
            long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
            while (partitions.stream().anyMatch(tp -> consumer.position(tp) < ends.get(tp))) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("could not read " + topic + " to its end offsets " + ends);
                }
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(500))) {
                    each.accept(record);
                    count++;
                }
            }
        }
        return count;
    }

    /**
     * The records of a topic written at or after the given offsets, read with a chosen isolation
     * level up to the current end offsets (B1 reads aborted records read_uncommitted and checks a
     * read_committed reader misses them; B6 counts the changelog records of its load).
     *
     * @param isolation {@code read_committed} or {@code read_uncommitted}
     * @param from      partition → first offset of interest; partitions absent from it are read from their start
     * @return the records, in partition order
     */
    public List<ConsumerRecord<byte[], byte[]>> recordsSince(String topic, String isolation, Map<TopicPartition, Long> from) {
        List<ConsumerRecord<byte[], byte[]>> records = new java.util.ArrayList<>();
        readFrom(topic, isolation, from, records::add);
        return records;
    }
}
