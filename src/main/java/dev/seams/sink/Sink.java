package dev.seams.sink;

import com.clickhouse.client.api.Client;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
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
 * A record that cannot be mapped is logged with topic, partition, offset and reason and counted as
 * {@code bad} (the DLQ arrives with the validation issue).
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
            case TOTALS -> new TotalsMapper(options.customers());
            case DEDUP_DEMO -> new DedupDemoMapper();
        };
    }

    /**
     * Runs one sink session until {@code --for} elapsed or nothing arrived for {@code --until-idle}
     * (the idle clock starts once the group assigned partitions).
     *
     * @return what the run did
     * @throws KafkaException if the consumer cannot be created or the offset commit fails
     */
    public SinkSummary run() {
        Counters counters = new Counters();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(consumerProperties());
             Client client = options.clickhouse().open()) {
            ClickHouseWriter writer = new ClickHouseWriter(client);
            Instant started = Instant.now();
            Instant[] lastActivity = {null};
            Set<TopicPartition> rewound = new HashSet<>();
            consumer.subscribe(List.of(options.mode().topic()), new ConsumerRebalanceListener() {
                @Override
                public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
                    if (options.fromStart()) {
                        List<TopicPartition> fresh = partitions.stream().filter(rewound::add).toList();
                        consumer.seekToBeginning(fresh);
                    }
                    if (lastActivity[0] == null) {
                        lastActivity[0] = Instant.now();
                    }
                }

                @Override
                public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
                }
            });
            long backoffMs = 200;
            while (!shouldStop(started, lastActivity[0])) {
                ConsumerRecords<byte[], byte[]> records;
                try {
                    records = consumer.poll(POLL);
                } catch (KafkaException e) {
                    counters.fetchErrors++;
                    LOG.warn("fetch failed: {}", e.toString());
                    continue;
                }
                if (records.isEmpty()) {
                    continue;
                }
                lastActivity[0] = Instant.now();
                Batch batch = map(records);
                try {
                    for (String table : mapper.tables()) {
                        writer.insert(table, batch.rowsByTable.get(table));
                    }
                } catch (ClickHouseWriter.InsertFailedException e) {
                    counters.insertErrors++;
                    LOG.warn("{}; re-reading the batch in {} ms, nothing committed", e.getMessage(), backoffMs);
                    for (TopicPartition tp : records.partitions()) {
                        consumer.seek(tp, records.records(tp).get(0).offset());
                    }
                    sleep(backoffMs);
                    backoffMs = Math.min(backoffMs * 2, MAX_BACKOFF_MS);
                    continue;
                }
                backoffMs = 200;
                Map<TopicPartition, OffsetAndMetadata> commit = new HashMap<>();
                for (TopicPartition tp : records.partitions()) {
                    commit.put(tp, new OffsetAndMetadata(consumer.position(tp)));
                }
                consumer.commitSync(commit);
                counters.inserted += batch.inserted;
                counters.bad += batch.bad;
                counters.tombstones += batch.tombstones;
            }
        }
        SinkSummary summary = new SinkSummary(counters.inserted, counters.bad, counters.tombstones, 0,
                counters.insertErrors, counters.fetchErrors, options.dup(), options.fromStart(),
                options.mode().cliName());
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
            }
        }
        return batch;
    }

    private boolean shouldStop(Instant started, Instant lastActivity) {
        Instant now = Instant.now();
        if (options.runFor() != null) {
            return now.isAfter(started.plus(options.runFor()));
        }
        return lastActivity != null && now.isAfter(lastActivity.plus(options.untilIdle()));
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

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while backing off", e);
        }
    }

    private static final class Batch {
        final Map<String, List<ObjectNode>> rowsByTable = new LinkedHashMap<>();
        long inserted;
        long bad;
        long tombstones;
    }

    private static final class Counters {
        long inserted;
        long bad;
        long tombstones;
        long insertErrors;
        long fetchErrors;
    }
}
