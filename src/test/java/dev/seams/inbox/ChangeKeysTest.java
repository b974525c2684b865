package dev.seams.inbox;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seams.wire.OrderEvent;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/** A key names a change (order id, source LSN, op), not an order (claim B4). */
class ChangeKeysTest {

    private static final ConsumerRecord<byte[], byte[]> RECORD = new ConsumerRecord<>("orders.events", 1, 1234,
            "42".getBytes(StandardCharsets.UTF_8), new byte[0]);

    @Test
    void aChangeIsNamedByOrderLsnAndOp() {
        assertThat(ChangeKeys.of(RECORD, new OrderEvent(42, 3, new BigDecimal("1.00"), false, 24023128L, "u")))
                .isEqualTo("42@24023128:u");
        assertThat(ChangeKeys.of(RECORD, new OrderEvent(42, 3, new BigDecimal("1.00"), false, 24023128L, null)))
                .isEqualTo("42@24023128");
    }

    @Test
    void snapshotReadsOfDifferentOrdersShareTheLsnButNotTheKey() {
        assertThat(ChangeKeys.of(RECORD, new OrderEvent(1, 3, BigDecimal.ONE, false, 500L, "r")))
                .isNotEqualTo(ChangeKeys.of(RECORD, new OrderEvent(2, 3, BigDecimal.ONE, false, 500L, "r")));
    }

    @Test
    void withoutLsnThePositionNamesTheMessage() {
        assertThat(ChangeKeys.of(RECORD, new OrderEvent(42, 3, BigDecimal.ONE))).isEqualTo("orders.events-1@1234");
    }

    @Test
    void theTestOnlyOrderKeyIsTheRecordKey() {
        assertThat(ChangeKeys.orderKey(RECORD)).isEqualTo("42");
        assertThat(ChangeKeys.orderKey(new ConsumerRecord<>("orders.events", 0, 7, null, new byte[0]))).isEqualTo("orders.events-0@7");
    }
}
