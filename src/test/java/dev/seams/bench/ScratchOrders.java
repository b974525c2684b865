package dev.seams.bench;

import dev.seams.stand.Stand;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * A scratch topic of {@code orders.events} records in exactly the shape the connector writes
 * (docs/event-contract.md: the unwrapped row with {@code __deleted},
 * {@code __op}, {@code __lsn}, {@code __source_ts_ms}; key = the order id as text), one INSERT per
 * order, {@value Stand#PARTITIONS} partitions: what the inbox sink and its plain twin consume in P3.
 */
final class ScratchOrders {

    private ScratchOrders() {
    }

    /**
     * @param topic  a topic that does not exist yet
     * @param orders how many order events
     */
    static void produce(Stand stand, String topic, int orders) throws Exception {
        stand.admin().createTopics(List.of(new NewTopic(topic, Stand.PARTITIONS, stand.replicationFactor()))).all().get();
        long now = System.currentTimeMillis();
        try (KafkaProducer<byte[], byte[]> producer = stand.topics().producer(null)) {
            for (int i = 1; i <= orders; i++) {
                String value = "{\"order_id\":" + i + ",\"customer_id\":" + (i % 50 + 1) + ",\"amount\":\"" + (i % 9_000 + 100) / 100
                        + "." + String.format("%02d", i % 100) + "\",\"created_at\":\"2026-11-30T01:16:11.075156Z\","
                        + "\"__deleted\":\"false\",\"__op\":\"c\",\"__lsn\":" + (26_508_912L + 200L * i)
                        + ",\"__source_ts_ms\":" + now + "}";
                producer.send(new ProducerRecord<>(topic, Integer.toString(i).getBytes(StandardCharsets.UTF_8),
                        value.getBytes(StandardCharsets.UTF_8)));
            }
            producer.flush();
        }
    }
}
