package dev.seams.bench;

import static org.awaitility.Awaitility.await;

import dev.seams.stand.Stand;
import dev.seams.truth.ClickHouse;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * ClickHouse's own Kafka table engine, the peer a user would pick instead of the sink (issue 13
 * P1), on the same scratch records: {@code ENGINE = Kafka('kafka:19092', topic, group, 'JSONEachRow')}
 * (server defaults: {@code kafka_max_block_size} = {@code max_block_size}, blocks flushed after
 * {@code stream_flush_interval_ms}), read by two materialized views into copies of {@code raw_totals}
 * and {@code customer_totals}, like the sink's two tables. {@code total} is read as a String
 * and converted with {@code toDecimal64(total, 2)}: ClickHouse 18.16 does not parse quoted decimals in
 * JSONEachRow; its views must name every column of their target, and its engine has no virtual
 * columns for the record's position, so {@code kafka_partition} and {@code kafka_offset} are -1.
 * The engine's consumer group gets committed offsets at the topic's start first (the
 * engine's librdkafka would otherwise start at the end), and the engine starts consuming when the
 * view that reads it is created — the timed span starts there, so it includes its consumer's start and
 * group join, like the sink's whole run.
 *
 * @param totalNanos         views created → every record in the {@code raw_totals} copy (the
 *                           {@code customer_totals} copy gets the same blocks; its count cannot be
 *                           awaited: its merges collapse rows per customer)
 * @param firstVisibleNanos  view created → the first rows visible
 * @param rawRows            rows in the {@code raw_totals} copy at the end
 * @param finalCustomers     customers in the {@code customer_totals} copy, read with FINAL
 */
public record KafkaEnginePeer(long totalNanos, long firstVisibleNanos, long rawRows, long finalCustomers) {

    private static final String QUEUE = BenchTables.DATABASE + ".kafka_queue";
    private static final String RAW = BenchTables.DATABASE + ".kafka_raw";
    private static final String FINAL = BenchTables.DATABASE + ".kafka_final";
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
        stand.admin().alterConsumerGroupOffsets(group, start).all().get();
        drop(ch);
        ch.execute("CREATE TABLE " + RAW + " AS " + BenchTables.DATABASE + "." + BenchTables.RAW);
        ch.execute("CREATE TABLE " + FINAL + " AS " + BenchTables.DATABASE + "." + BenchTables.FINAL);
        ch.execute("CREATE TABLE " + QUEUE + " (customer_id Int64, orders UInt64, total String, version UInt64) "
                + "ENGINE = Kafka('" + stand.kafkaOnNetwork() + "', '" + topic + "', '" + group + "', 'JSONEachRow')");
        try {
            long t0 = System.nanoTime();
            // both views read the queue (18.16 does not pass a view's inserts on to the views of its target);
            // the engine pushes each block to the views attached when it flushes, seconds after the first one
            ch.execute("CREATE MATERIALIZED VIEW " + FINAL + "_mv TO " + FINAL
                    + " AS SELECT customer_id, orders, toDecimal64(total, 2) AS total, version FROM " + QUEUE);
            ch.execute("CREATE MATERIALIZED VIEW " + RAW + "_mv TO " + RAW
                    + " AS SELECT customer_id, orders, toDecimal64(total, 2) AS total, version, toInt32(-1) AS kafka_partition, "
                    + "toInt64(-1) AS kafka_offset FROM " + QUEUE);
            long[] first = {0};
            await("the Kafka engine makes " + records + " records visible").atMost(timeout).pollInterval(POLL)
                    .until(() -> {
                        long visible = ch.scalar("SELECT count() FROM " + RAW);   // FINAL's copy merges rows away
                        if (visible > 0 && first[0] == 0) {
                            first[0] = System.nanoTime() - t0;
                        }
                        return visible >= records;
                    });
            return new KafkaEnginePeer(System.nanoTime() - t0, first[0], ch.scalar("SELECT count() FROM " + RAW),
                    ch.scalar("SELECT count() FROM " + FINAL + " FINAL"));
        } finally {
            drop(ch);
        }
    }

    /**
     * Drops the views before the engine table they read: ClickHouse 18.16.1 aborted (SIGABRT in librdkafka's
     * {@code rd_kafka_cgrp_destroy_final: assert: !rkcg->rkcg_subscription}) once in a bench run of
     * 2026-11-30 when the queue was dropped with a view still attached (its consumer destroyed while
     * subscribed; the class of shutdown bugs ClickHouse fixed in 20.x, ClickHouse/ClickHouse#10910).
     */
    static void drop(ClickHouse ch) {
        for (String table : new String[] {RAW + "_mv", FINAL + "_mv", QUEUE, RAW, FINAL}) {
            ch.execute("DROP TABLE IF EXISTS " + table);
        }
    }
}
