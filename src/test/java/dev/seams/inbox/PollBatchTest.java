package dev.seams.inbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/**
 * One poll of {@code orders.events} as the inbox sink sees it (claim B4): every INSERT, UPDATE and
 * DELETE an entry keyed by its change, redeliveries below the stored offsets and re-sent changes
 * dropped, a value that is not an order stopping the run.
 */
class PollBatchTest {

    private static ConsumerRecord<byte[], byte[]> record(int partition, long offset, String key, String value) {
        return new ConsumerRecord<>("orders.events", partition, offset,
                key == null ? null : key.getBytes(StandardCharsets.UTF_8),
                value == null ? null : value.getBytes(StandardCharsets.UTF_8));
    }

    private static String order(long id, int customer, String amount) {
        return "{\"order_id\":" + id + ",\"customer_id\":" + customer + ",\"amount\":\"" + amount + "\"}";
    }

    private static String change(long id, int customer, String amount, String op, long lsn) {
        return "{\"order_id\":" + id + ",\"customer_id\":" + customer + ",\"amount\":\"" + amount + "\",\"created_at\":\"2026-11-29T19:57:27Z\","
                + "\"__deleted\":\"" + "d".equals(op) + "\",\"__op\":\"" + op + "\",\"__lsn\":" + lsn + ",\"__source_ts_ms\":1}";
    }

    @Test
    void insertUpdateAndDeleteOfOneOrderAreThreeEntriesWithThreeKeys() {
        PollBatch batch = PollBatch.of(List.of(
                record(0, 10, "1", change(1, 2, "10.00", "c", 100)),
                record(0, 11, "1", change(1, 2, "99.00", "u", 200)),
                record(0, 12, "1", change(1, 2, "99.00", "d", 300))), false);

        assertThat(batch.entries()).containsExactly(
                new LedgerEntry("1@100:c", 1, 2, new BigDecimal("10.00"), "c", 100L, false, 0, 10),
                new LedgerEntry("1@200:u", 1, 2, new BigDecimal("99.00"), "u", 200L, false, 0, 11),
                new LedgerEntry("1@300:d", 1, 2, new BigDecimal("99.00"), "d", 300L, true, 0, 12));
        assertThat(PollBatch.fresh(batch.entries(), Set.of())).hasSize(3);
    }

    @Test
    void rowlessDeletionsAreCountedNotStopped() {
        PollBatch batch = PollBatch.of(List.of(
                record(0, 10, "1", order(1, 2, "59.68")),
                record(1, 3, "2", "null"),
                record(1, 4, "2", null),
                record(0, 11, "3", order(3, 5, "1.5"))), false);

        assertThat(batch.records()).isEqualTo(4);
        assertThat(batch.tombstones()).isEqualTo(2);
        assertThat(batch.entries()).extracting(LedgerEntry::orderId).containsExactly(1L, 3L);
    }

    @Test
    void withoutLsnAnEntryIsKeyedByItsPosition() {
        PollBatch batch = PollBatch.of(List.of(record(2, 77, "4", order(4, 1, "9.99"))), false);

        assertThat(batch.entries()).extracting(LedgerEntry::key).containsExactly("orders.events-2@77");
    }

    @Test
    void freshDropsProcessedKeysAndRepeatsWithinThePoll() {
        PollBatch batch = PollBatch.of(List.of(
                record(0, 1, "7", change(7, 1, "1.00", "c", 70)),
                record(0, 2, "8", change(8, 1, "2.00", "c", 80)),
                record(0, 3, "7", change(7, 1, "1.00", "c", 70)),
                record(2, 9, "9", change(9, 3, "3.00", "c", 90))), false);

        List<LedgerEntry> fresh = PollBatch.fresh(batch.entries(), Set.of("8@80:c"));

        assertThat(fresh).extracting(LedgerEntry::key).containsExactly("7@70:c", "9@90:c");
        assertThat(fresh.get(0).offset()).as("the first of two records with the same change wins").isEqualTo(1);
        assertThat(PollBatch.keys(batch.entries())).containsExactly("7@70:c", "8@80:c", "9@90:c");
    }

    @Test
    void beyondDropsWhatTheStoredOffsetsAlreadyCover() {
        PollBatch batch = PollBatch.of(List.of(
                record(0, 4, "1", change(1, 1, "1.00", "c", 10)),
                record(0, 5, "2", change(2, 1, "1.00", "c", 20)),
                record(1, 7, "3", change(3, 1, "1.00", "c", 30))), false);

        assertThat(batch.beyond(Map.of(0, 5L))).extracting(LedgerEntry::orderId).containsExactly(2L, 3L);
        assertThat(batch.beyond(Map.of(0, -1L, 1, 8L))).extracting(LedgerEntry::orderId).containsExactly(1L, 2L);
        assertThat(batch.beyond(Map.of())).hasSize(3);
    }

    @Test
    void keyingByOrderIdTakesAnUpdateForARepeat() {
        // the fault-injection switch reproduces the seed's natural key: B4's negative control
        PollBatch batch = PollBatch.of(List.of(
                record(0, 1, "1", change(1, 2, "10.00", "c", 100)),
                record(0, 2, "1", change(1, 2, "99.00", "u", 200))), true);

        assertThat(PollBatch.fresh(batch.entries(), Set.of())).extracting(LedgerEntry::amount)
                .containsExactly(new BigDecimal("10.00"));
    }

    @Test
    void aValueThatIsNotAnOrderStopsTheBatchNamingItsPosition() {
        assertThatThrownBy(() -> PollBatch.of(List.of(
                record(0, 1, "1", order(1, 1, "1.00")),
                record(1, 42, "2", "{\"order_id\":2,\"customer_id\":1}")), false))
                .isInstanceOf(UnprocessableRecordException.class)
                .hasMessageContaining("orders.events-1@42")
                .hasMessageContaining("amount");
    }
}
