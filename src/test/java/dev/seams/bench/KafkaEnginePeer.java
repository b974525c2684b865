package dev.seams.bench;

import static org.awaitility.Awaitility.await;

import dev.seams.sinks.KafkaEngineSink;
import dev.seams.stand.Stand;
import dev.seams.truth.ClickHouse;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * ClickHouse's own Kafka table engine, the peer a user would pick instead of the sink (issue 13
 * P1), on the same scratch records, as shipped for {@code -Dseams.sink=kafka-engine}
 * ({@link KafkaEngineSink#statements}, {@code containers/clickhouse/kafka-engine/totals.sql}: per target table an
 * engine table on the topic and a materialized view into the table; server defaults: {@code kafka_max_block_size} =
 * {@code max_block_size}, blocks flushed after {@code stream_flush_interval_ms}), writing into copies of
 * {@code raw_totals} and {@code customer_totals} in the database {@value #DATABASE}. The engine tables' consumer groups
 * get committed offsets at the topic's start first (the engine's librdkafka would otherwise start at the end), and an
 * engine table starts consuming when its view is created — the timed span starts there, so it includes its consumers'
 * start and group join, like the sink's whole run.
 *
 * @param totalNanos         statements run → every record in the {@code raw_totals} copy (the
 *                           {@code customer_totals} copy gets the same records; its count cannot be
 *                           awaited: its merges collapse rows per customer)
 * @param firstVisibleNanos  statements run → the first rows visible
 * @param rawRows            rows in the {@code raw_totals} copy at the end
 * @param finalCustomers     customers in the {@code customer_totals} copy, read with FINAL
 */
public record KafkaEnginePeer(long totalNanos, long firstVisibleNanos, long rawRows, long finalCustomers) {

    /** The engine's own database: copies of the sink's tables, and its engine tables and views while it runs. */
    static final String DATABASE = BenchTables.DATABASE + "_kafka_engine";
    private static final Duration POLL = Duration.ofMillis(50);

    /**
     * @param group   a consumer group never used before
     * @param records records in the topic
     * @param timeout longest wait for all of them
     * @return what it measured; the engine's tables are dropped again
     * @throws org.awaitility.core.ConditionTimeoutException if not every record arrived in time
     */
    public static KafkaEnginePeer run(Stand stand, String topic, String group, int records, Duration timeout) throws Exception {
        ClickHouse ch = ClickHouse.of(stand.clickhouseTarget());
        Map<TopicPartition, OffsetAndMetadata> start = new HashMap<>();
        for (int p = 0; p < Stand.PARTITIONS; p++) {
            start.put(new TopicPartition(topic, p), new OffsetAndMetadata(0));
        }
        for (String g : new KafkaEngineSink().groups(group)) {
            stand.admin().alterConsumerGroupOffsets(g, start).all().get();
        }
        ch.execute("CREATE DATABASE IF NOT EXISTS " + DATABASE);
        drop(ch);
        ch.scratch(DATABASE, BenchTables.RAW, BenchTables.FINAL);
        try {
            long t0 = System.nanoTime();
            KafkaEngineSink.statements(DATABASE, stand.kafkaOnNetwork(), topic, group).forEach(ch::execute);
            long[] first = {0};
            String raw = DATABASE + "." + BenchTables.RAW;
            await("the Kafka engine makes " + records + " records visible").atMost(timeout).pollInterval(POLL)
                    .until(() -> {
                        long visible = ch.scalar("SELECT count() FROM " + raw);   // customer_totals' copy merges rows away
                        if (visible > 0 && first[0] == 0) {
                            first[0] = System.nanoTime() - t0;
                        }
                        return visible >= records;
                    });
            return new KafkaEnginePeer(System.nanoTime() - t0, first[0], ch.scalar("SELECT count() FROM " + raw),
                    ch.scalar("SELECT count() FROM " + DATABASE + "." + BenchTables.FINAL + " FINAL"));
        } finally {
            drop(ch);
        }
    }

    /** Drops the engine's views and engine tables ({@link KafkaEngineSink#drop}: each view before its engine table). */
    static void drop(ClickHouse ch) {
        KafkaEngineSink.drop(ch, DATABASE);
    }
}
