package dev.seams.bench;

import static org.awaitility.Awaitility.await;

import dev.seams.sink.Batching;
import dev.seams.sink.Sink;
import dev.seams.sink.SinkMode;
import dev.seams.sink.SinkOptions;
import dev.seams.stand.Stand;
import dev.seams.wire.CustomerTotals;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * What batching costs in freshness (issue 13 P2): a sink running continuously with a given
 * {@link Batching} while a scheduler writes {@value #PER_TICK} records every {@value #TICK_MS} ms
 * (a steady rate) to a fresh scratch topic for a while; a record's latency is from the moment its
 * tick's records were acknowledged by the broker to the first poll of {@code raw_totals} (every
 * {@value #PROBE_MS} ms) whose row count covers it; the sink ends after 3 s without records — records counted in send order, so a record is
 * credited to within one insert.
 */
final class Freshness {

    static final int PER_TICK = 50;
    static final int TICK_MS = 100;
    static final long PROBE_MS = 25;

    private Freshness() {
    }

    /**
     * @param batching the sink's batching
     * @param load     how long records are written
     * @return each record's latency, milliseconds, in send order
     */
    static double[] measure(Stand stand, BenchTables tables, Batching batching, Duration load, String name) throws Exception {
        String topic = "bench.fresh." + name + "." + System.currentTimeMillis();
        stand.admin().createTopics(List.of(new NewTopic(topic, Stand.PARTITIONS, stand.replicationFactor()))).all().get();
        tables.truncate();
        int records = (int) (load.toMillis() / TICK_MS) * PER_TICK;
        String group = "bench-fresh-" + name;
        SinkOptions options = SinkOptions.defaults(stand.bootstrapServers(), tables.target(), SinkMode.TOTALS)
                .withTopic(topic).withGroupId(group).withBatching(batching).withUntilIdle(Duration.ofSeconds(3))
                .withDlqTopic(topic + ".dlq");
        long[] sent = new long[records];
        long[] visible = new long[records];
        Arrays.fill(visible, -1);
        ExecutorService sinkThread = Executors.newSingleThreadExecutor();
        ScheduledExecutorService pace = Executors.newSingleThreadScheduledExecutor();
        try (KafkaProducer<byte[], byte[]> producer = stand.topics().producer(null)) {
            Sink sink = new Sink(options);
            Future<?> running = sinkThread.submit(sink::run);
            await("the freshness sink has its partitions").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
                    .until(() -> stand.admin().describeConsumerGroups(List.of(group)).all().get().get(group).members()
                            .stream().anyMatch(m -> !m.assignment().topicPartitions().isEmpty()));
            AtomicInteger next = new AtomicInteger();
            // the steady rate: a scheduler, one tick of records every TICK_MS (the only pacing of the benchmark)
            pace.scheduleAtFixedRate(() -> tick(producer, topic, sent, next), 0, TICK_MS, TimeUnit.MILLISECONDS);
            int[] seen = {0};
            await("every freshness record visible").atMost(load.plusSeconds(30)).pollInterval(Duration.ofMillis(PROBE_MS))
                    .until(() -> {
                        long count = tables.rawRows();
                        long now = System.nanoTime();
                        while (seen[0] < Math.min(count, next.get())) {
                            visible[seen[0]++] = now;
                        }
                        return seen[0] == records;
                    });
            pace.shutdownNow();
            running.get(60, TimeUnit.SECONDS);   // the sink ends after 3 s idle
        } finally {
            pace.shutdownNow();
            sinkThread.shutdownNow();
        }
        double[] latencies = new double[records];
        for (int i = 0; i < records; i++) {
            latencies[i] = (visible[i] - sent[i]) / 1e6;
        }
        return latencies;
    }

    private static void tick(KafkaProducer<byte[], byte[]> producer, String topic, long[] sent, AtomicInteger next) {
        int from = next.get();
        if (from >= sent.length) {
            return;
        }
        List<Future<?>> acks = new ArrayList<>();
        for (int i = from; i < from + PER_TICK; i++) {
            CustomerTotals t = new CustomerTotals(i % 100 + 1, i / 100 + 1, BigDecimal.valueOf(i, 2), i / 100 + 1);
            acks.add(producer.send(new ProducerRecord<>(topic, Long.toString(t.customerId()).getBytes(StandardCharsets.UTF_8),
                    t.toJsonBytes())));
        }
        try {
            for (Future<?> ack : acks) {
                ack.get();
            }
        } catch (Exception e) {
            throw new IllegalStateException("a freshness record was not written", e);
        }
        long now = System.nanoTime();
        for (int i = from; i < from + PER_TICK; i++) {
            sent[i] = now;
        }
        next.set(from + PER_TICK);
    }
}
