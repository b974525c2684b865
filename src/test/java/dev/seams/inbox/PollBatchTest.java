package dev.seams.inbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

class PollBatchTest {

    private static ConsumerRecord<byte[], byte[]> record(int partition, long offset, String key, String value) {
        return new ConsumerRecord<>("orders.events", partition, offset,
                key == null ? null : key.getBytes(StandardCharsets.UTF_8),
                value == null ? null : value.getBytes(StandardCharsets.UTF_8));
    }

    private static String order(long id, int customer, String amount) {
        return "{\"order_id\":" + id + ",\"customer_id\":" + customer + ",\"amount\":\"" + amount + "\"}";
    }

    @Test
    void parsesOrdersInReadOrderAndCountsTombstones() {
        PollBatch batch = PollBatch.of(List.of(
                record(0, 10, "1", order(1, 2, "59.68")),
                record(1, 3, "2", null),
                record(0, 11, "3", order(3, 5, "1.5"))));

        assertThat(batch.records()).isEqualTo(3);
        assertThat(batch.tombstones()).isEqualTo(1);
        assertThat(batch.entries()).containsExactly(
                new LedgerEntry("1", 1, 2, new BigDecimal("59.68"), 0, 10),
                new LedgerEntry("3", 3, 5, new BigDecimal("1.50"), 0, 11));
        assertThat(batch.keys()).containsExactly("1", "3");
    }

    @Test
    void freshDropsProcessedKeysAndRepeatsWithinThePoll() {
        PollBatch batch = PollBatch.of(List.of(
                record(0, 1, "7", order(7, 1, "1.00")),
                record(0, 2, "8", order(8, 1, "2.00")),
                record(1, 5, "7", order(7, 1, "1.00")),
                record(2, 9, "9", order(9, 3, "3.00"))));

        List<LedgerEntry> fresh = batch.fresh(Set.of("8"));

        assertThat(fresh).extracting(LedgerEntry::key).containsExactly("7", "9");
        assertThat(fresh.get(0).partition()).as("the first of two records with key 7 wins").isZero();
        assertThat(batch.fresh(Set.of())).extracting(LedgerEntry::key).containsExactly("7", "8", "9");
    }

    @Test
    void aRecordWithoutKeyIsKeyedByItsPosition() {
        PollBatch batch = PollBatch.of(List.of(record(2, 77, null, order(4, 1, "9.99"))));

        assertThat(batch.entries()).extracting(LedgerEntry::key).containsExactly("orders.events-2@77");
    }

    @Test
    void aValueThatIsNotAnOrderStopsTheBatchNamingItsPosition() {
        assertThatThrownBy(() -> PollBatch.of(List.of(
                record(0, 1, "1", order(1, 1, "1.00")),
                record(1, 42, "2", "{\"order_id\":2,\"customer_id\":1}"))))
                .isInstanceOf(UnprocessableRecordException.class)
                .hasMessageContaining("orders.events-1@42")
                .hasMessageContaining("amount");
    }
}
