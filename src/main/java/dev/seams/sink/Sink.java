package dev.seams.sink;

import com.clickhouse.client.api.Client;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.seams.dlq.DeadLetters;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sink: a Kafka consumer (group {@code ds-sink}, auto-commit off, {@code read_committed} by
 * default) that writes each polled batch into ClickHouse and commits the batch's offsets only after
 * every insert of the batch was acknowledged (at-least-once; DESIGN.md "The sink", seed section
 * "Где кончается транзакция Kafka").
 *
 * <p>The committed offset of a partition is the consumer's {@code position()}, which steps past
 * transaction control markers, so a caught-up read_committed sink shows lag 0 at rest (G12).
 * A failed insert commits nothing: the batch is re-read from its first offsets after a backoff.
 *
 * <p>A record that cannot be mapped (mode totals: rejected by {@link TotalsValidator}) is logged
 * with topic, partition, offset and reason and becomes a dead letter ({@link dev.seams.dlq.DeadLetters}:
 * key and value byte for byte, original headers, {@code dlq-reason}, {@code dlq-origin-*},
 * {@code dlq-failed-at}) in {@link SinkOptions#dlqTopic()} (claims G10, G11; seed section "DLQ:
 * битое событие не роняет пайплайн"). Per batch: first the ClickHouse inserts of the good records,
 * then the dead letters, each acknowledged; only then the offsets are committed. If a dead-letter
 * write fails, nothing is committed, {@code dlq_errors} counts it and the batch is re-read after a
 * backoff (its good rows are then inserted again: at-least-once, harmless to the FINAL/argMax
 * reads, visible in the raw table). A batch of good and bad records that succeeds inserts each good
 * record exactly once.
 */
public final class Sink {

    private static final Logger LOG = LoggerFactory.getLogger(Sink.class);
    private static final Duration POLL = Duration.ofMillis(500);
    private static final long MAX_BACKOFF_MS = 5_000;

    private final SinkOptions options;
    private final RecordMapper mapper;

    /** @param options the run's settings */
    public Sink(SinkOptions options) {
        this.options = options;
        this.mapper = switch (options.mode()) {
            case TOTALS -> new TotalsMapper(new TotalsValidator(options.customers(), options.maxValueBytes()),
                    options.validate());
            case DEDUP_DEMO -> new DedupDemoMapper();
        };
    }

    /**
     * Runs one sink session until {@code --for} elapsed or nothing arrived for {@code --until-idle}
     * (the idle clock starts once the group assigned partitions). A batch whose insert or
     * dead-letter write keeps failing is re-read until then, so {@code --until-idle} does not end
     * during such a failure; {@code --for} does.
     *
     * @return what the run did
     * @throws KafkaException if the consumer or producer cannot be created or the offset commit fails
     */
    public SinkSummary run() {
        Counters counters = new Counters();
        PollSession session = new PollSession(options.runFor(), options.untilIdle());
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(consumerProperties());
             DeadLetterWriter deadLetters = new DeadLetterWriter(options.bootstrapServers(),
                     options.groupId() + "-" + options.mode().cliName() + "-dlq");
             Client client = options.clickhouse().open()) {
            ClickHouseWriter writer = new ClickHouseWriter(client, options.clickhouse().database());
            Set<TopicPartition> rewound = new HashSet<>();
            session.subscribe(consumer, options.mode().topic(), partitions -> {
                List<TopicPartition> fresh = partitions.stream().filter(rewound::add).toList();
                if (options.fromStart() && !fresh.isEmpty()) {   // an empty list would rewind every assigned partition
                    consumer.seekToBeginning(fresh);
                }
            });
            long backoffMs = 200;
            while (session.running()) {
                ConsumerRecords<byte[], byte[]> records = session.poll(consumer, POLL);
                if (records.isEmpty()) {
                    continue;
                }
                Batch batch = map(records);
                RuntimeException failure = null;
                try {
                    for (String table : mapper.tables()) {
                        writer.insert(table, batch.rowsByTable.get(table));
                    }
                } catch (ClickHouseWriter.InsertFailedException e) {
                    counters.insertErrors++;
                    failure = e;
                }
                if (failure == null) {
                    try {
                        deadLetters.write(batch.deadLetters);
                    } catch (DeadLetterWriter.WriteFailedException e) {
                        counters.dlqErrors++;
                        failure = e;
                    }
                }
                if (failure != null) {
                    LOG.warn("{}; re-reading the batch in {} ms, nothing committed", failure.getMessage(), backoffMs);
                    for (TopicPartition tp : records.partitions()) {
                        consumer.seek(tp, records.records(tp).get(0).offset());
                    }
                    counters.uncommitted = records.count();
                    PollSession.backoff(backoffMs);
                    backoffMs = Math.min(backoffMs * 2, MAX_BACKOFF_MS);
                    continue;
                }
                backoffMs = 200;
                Map<TopicPartition, OffsetAndMetadata> commit = new HashMap<>();
                for (TopicPartition tp : records.partitions()) {
                    commit.put(tp, new OffsetAndMetadata(consumer.position(tp)));
                }
                consumer.commitSync(commit);
                counters.uncommitted = 0;
                counters.inserted += batch.inserted;
                counters.bad += batch.bad;
                counters.tombstones += batch.tombstones;
            }
        }
        SinkSummary summary = new SinkSummary(counters.inserted, counters.bad, counters.tombstones, counters.dlqErrors,
                counters.insertErrors, session.fetchErrors(), options.dup(), options.fromStart(),
                options.mode().cliName(), counters.uncommitted);
        LOG.info(summary.line());
        return summary;
    }

    private Batch map(ConsumerRecords<byte[], byte[]> records) {
        Batch batch = new Batch();
        for (String table : mapper.tables()) {
            batch.rowsByTable.put(table, new ArrayList<>());
        }
        int copies = options.dup() ? 2 : 1;
        for (ConsumerRecord<byte[], byte[]> record : records) {
            try {
                boolean hasRows = false;
                for (int i = 0; i < copies; i++) {
                    hasRows = mapper.map(record, batch.rowsByTable);
                }
                if (hasRows) {
                    batch.inserted += copies;
                } else {
                    batch.tombstones++;
                    LOG.info("tombstone {}-{}@{}: no row", record.topic(), record.partition(), record.offset());
                }
            } catch (BadRecordException e) {
                batch.bad++;
                LOG.warn("bad record {}-{}@{}: {}", record.topic(), record.partition(), record.offset(), e.getMessage());
                batch.deadLetters.add(DeadLetters.of(options.dlqTopic(), record.key(), record.value(), record.timestamp(),
                        record.headers(), e.getMessage(), record.topic(), record.partition(), record.offset(),
                        Instant.now()));
            }
        }
        return batch;
    }

    private Properties consumerProperties() {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, options.bootstrapServers());
        props.put(ConsumerConfig.GROUP_ID_CONFIG, options.groupId());
        props.put(ConsumerConfig.CLIENT_ID_CONFIG, options.groupId() + "-" + options.mode().cliName());
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, options.isolation());
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "1000");
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        return props;
    }


    private static final class Batch {
        final Map<String, List<ObjectNode>> rowsByTable = new LinkedHashMap<>();
        final List<ProducerRecord<byte[], byte[]>> deadLetters = new ArrayList<>();
        long inserted;
        long bad;
        long tombstones;
    }

    private static final class Counters {
        long inserted;
        long bad;
        long tombstones;
        long dlqErrors;
        long insertErrors;
        long uncommitted;
    }
}
