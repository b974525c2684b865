package dev.seams.bench;

import dev.seams.stand.Stand;
import dev.seams.truth.RunNames;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Watches {@code orders.events} and {@code customer.totals} as a {@code read_committed} consumer
 * without a group, from their ends, polling continuously ({@code fetch.max.wait.ms} = 5), and
 * notes when each record became readable (this JVM's wall clock, ms): an order event by its key
 * (the order id), a snapshot by customer and version (issue 13 P4). A {@code customer.totals}
 * record is readable only once ds-streams committed its transaction, so its time includes the
 * Streams commit interval.
 */
final class HopObserver implements AutoCloseable {

    private final KafkaConsumer<byte[], byte[]> consumer;
    private final Thread thread;
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final Map<Long, Long> events = new ConcurrentHashMap<>();
    private final Map<Long, Long> sourceTs = new ConcurrentHashMap<>();
    private final Versions snapshots = new Versions();

    HopObserver(Stand stand) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, stand.bootstrapServers());
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, "5");
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        consumer = new KafkaConsumer<>(props);
        List<TopicPartition> partitions = new ArrayList<>();
        for (String topic : List.of(RunNames.ORDERS_EVENTS, RunNames.CUSTOMER_TOTALS)) {
            for (int p = 0; p < Stand.PARTITIONS; p++) {
                partitions.add(new TopicPartition(topic, p));
            }
        }
        consumer.assign(partitions);
        consumer.seekToEnd(partitions);
        partitions.forEach(consumer::position);   // resolve the end offsets now, before the load starts
        thread = new Thread(this::poll, "p4-observer");
        thread.start();
    }

    private void poll() {
        while (running.get()) {
            for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(20))) {
                long now = System.currentTimeMillis();
                String value = r.value() == null ? "" : new String(r.value(), StandardCharsets.UTF_8);
                if (r.topic().equals(RunNames.ORDERS_EVENTS) && r.key() != null) {
                    long orderId = Long.parseLong(new String(r.key(), StandardCharsets.UTF_8));
                    events.putIfAbsent(orderId, now);
                    sourceTs.putIfAbsent(orderId, field(value, "__source_ts_ms"));
                } else if (r.topic().equals(RunNames.CUSTOMER_TOTALS)) {
                    snapshots.seen((int) field(value, "customer_id"), field(value, "version"), now);
                }
            }
        }
    }

    private static long field(String json, String name) {
        int at = json.indexOf("\"" + name + "\":");
        if (at < 0) {
            return -1;
        }
        int from = at + name.length() + 3;
        int to = from;
        while (to < json.length() && (Character.isDigit(json.charAt(to)) || json.charAt(to) == '-')) {
            to++;
        }
        return Long.parseLong(json.substring(from, to));
    }

    /** @return when the order's event became readable (ms), or null */
    Long event(long orderId) {
        return events.get(orderId);
    }

    /** @return the event's {@code __source_ts_ms} (PostgreSQL's commit time as Debezium reports it), or null */
    Long sourceTs(long orderId) {
        return sourceTs.get(orderId);
    }

    /** @return when a snapshot of the customer of at least that version became readable (ms), or null */
    Long snapshot(int customerId, long version) {
        return snapshots.firstAtLeast(customerId, version);
    }

    @Override
    public void close() throws InterruptedException {
        running.set(false);
        thread.join(5_000);
        consumer.close();
    }
}
