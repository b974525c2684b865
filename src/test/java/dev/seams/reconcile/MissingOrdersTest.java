package dev.seams.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;

class MissingOrdersTest {

    private static final String TOPIC = "orders.events";
    private final TopicImage image = new TopicImage();
    private long offset;

    private void event(int partition, long orderId, String value) {
        image.add(new ConsumerRecord<>(TOPIC, partition, offset++, Long.toString(orderId).getBytes(StandardCharsets.UTF_8),
                value == null ? null : value.getBytes(StandardCharsets.UTF_8)));
    }

    private static String row(long orderId, int customer, String amount, String op) {
        return "{\"order_id\":" + orderId + ",\"customer_id\":" + customer + ",\"amount\":\"" + amount
                + "\",\"created_at\":1796001371079000,\"__deleted\":\"" + "d".equals(op) + "\",\"__op\":\"" + op
                + "\",\"__lsn\":100,\"__source_ts_ms\":1796001371079}";
    }

    @Test
    void anOrderTheTopicHoldsAndPostgresNoLongerDoesGetsTheConnectorsDeleteInItsPartitionUnderItsKey() throws Exception {
        event(2, 7, row(7, 3, "10.00", "c"));
        event(2, 7, row(7, 4, "12.50", "u"));
        MissingOrders.Found found = MissingOrders.find(image, TOPIC, Set.of(), 5000, 1234);

        assertThat(found.deletes()).hasSize(1);
        ProducerRecord<byte[], byte[]> delete = found.deletes().get(0);
        assertThat(delete.topic()).isEqualTo(TOPIC);
        assertThat(delete.partition()).isEqualTo(2);
        assertThat(new String(delete.key(), StandardCharsets.UTF_8)).isEqualTo("7");
        JsonNode value = new ObjectMapper().readTree(delete.value());
        assertThat(value.path("customer_id").asInt()).as("the last image, not the first").isEqualTo(4);
        assertThat(value.path("amount").asText()).isEqualTo("12.50");
        assertThat(value.path("created_at").asLong()).as("columns kept").isEqualTo(1796001371079000L);
        assertThat(value.path("__deleted").asText()).isEqualTo("true");
        assertThat(value.path("__op").asText()).isEqualTo("d");
        assertThat(value.path("__lsn").asLong()).isEqualTo(5000);
        assertThat(value.path("__source_ts_ms").asLong()).isEqualTo(1234);
        assertThat(new String(delete.headers().lastHeader(MissingOrders.ORIGIN_HEADER).value(), StandardCharsets.UTF_8))
                .isEqualTo(MissingOrders.ORIGIN);
        assertThat(dev.seams.wire.OrderEvent.ofValue(delete.value()).deleted()).as("ds-streams reads it as a delete").isTrue();
    }

    @Test
    void ordersPostgresHoldsOrsAlreadyDeletedOrUnreadableGetNoDelete() {
        event(0, 1, row(1, 1, "1.00", "r"));
        event(1, 2, row(2, 1, "2.00", "c"));
        event(1, 2, row(2, 1, "2.00", "d"));
        event(0, 3, row(3, 1, "3.00", "c"));
        event(0, 3, null);
        event(1, 4, "not-a-json{{{");
        MissingOrders.Found found = MissingOrders.find(image, TOPIC, Set.of(1L), 5000, 1234);

        assertThat(found.deletes()).isEmpty();
        assertThat(found.live()).isEqualTo(1);
        assertThat(found.unreadable()).isEqualTo(1);
        assertThat(image.records()).isEqualTo(6);
    }

    @Test
    void aKeylessRecordIsCountedAndHoldsNoOrder() {
        image.add(new ConsumerRecord<>(TOPIC, 0, 0, null, row(9, 1, "1.00", "c").getBytes(StandardCharsets.UTF_8)));
        assertThat(image.records()).isEqualTo(1);
        assertThat(image.lastRecords()).isEmpty();
    }
}
