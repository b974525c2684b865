package dev.seams.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/**
 * Mode dedup-demo carries inserts, updates and deletes (G3, B3, B8): version = the source LSN,
 * {@code is_deleted} for a DELETE, so {@code order_dedup FINAL WHERE is_deleted = 0} equals PostgreSQL.
 */
class DedupDemoMapperTest {

    /** order_dedup.amount of containers/clickhouse/001-tables.sql as system.columns lists it (ClickHouse 18.16). */
    private static final TargetColumns SHIPPED = new TargetColumns("seams", Map.of("order_dedup.amount", "Decimal(18, 2)"));

    private static Map<String, RowsBody> tables() {
        Map<String, RowsBody> rows = new LinkedHashMap<>();
        rows.put(DedupDemoMapper.ORDER_COUNTS_RAW, new RowsBody(4));
        rows.put(DedupDemoMapper.ORDER_DEDUP, new RowsBody(4));
        return rows;
    }

    private static ConsumerRecord<byte[], byte[]> record(long offset, String value) {
        return new ConsumerRecord<>("orders.events", 0, offset, "1".getBytes(StandardCharsets.UTF_8),
                value == null ? null : value.getBytes(StandardCharsets.UTF_8));
    }

    private static String change(String customer, String amount, String deleted, String op, long lsn) {
        return "{\"order_id\":1,\"customer_id\":" + customer + ",\"amount\":\"" + amount + "\",\"created_at\":\"2026-11-29T19:57:27Z\","
                + "\"__deleted\":\"" + deleted + "\",\"__op\":\"" + op + "\",\"__lsn\":" + lsn + ",\"__source_ts_ms\":1}";
    }

    @Test
    void insertUpdateAndDeleteEachBecomeARowVersionedByTheirLsn() throws BadRecordException {
        Map<String, RowsBody> rows = tables();
        DedupDemoMapper mapper = new DedupDemoMapper(false);

        mapper.map(record(10, change("2", "59.68", "false", "c", 100)), rows, SHIPPED);
        mapper.map(record(11, change("3", "60.00", "false", "u", 200)), rows, SHIPPED);
        mapper.map(record(12, change("3", "60.00", "true", "d", 300)), rows, SHIPPED);

        assertThat(rows.get(DedupDemoMapper.ORDER_DEDUP).lines()).containsExactly(
                "{\"order_id\":1,\"customer_id\":2,\"amount\":59.68,\"version\":100,\"is_deleted\":0}",
                "{\"order_id\":1,\"customer_id\":3,\"amount\":60.00,\"version\":200,\"is_deleted\":0}",
                "{\"order_id\":1,\"customer_id\":3,\"amount\":60.00,\"version\":300,\"is_deleted\":1}");
        assertThat(rows.get(DedupDemoMapper.ORDER_COUNTS_RAW).rows()).isEqualTo(3);
    }

    @Test
    void aRowlessDeletionCarriesNoRow() throws BadRecordException {
        Map<String, RowsBody> rows = tables();
        DedupDemoMapper mapper = new DedupDemoMapper(false);

        assertThat(mapper.map(record(1, null), rows, SHIPPED)).isFalse();
        assertThat(mapper.map(record(2, "null"), rows, SHIPPED)).isFalse();
        assertThat(rows.get(DedupDemoMapper.ORDER_DEDUP).isEmpty()).isTrue();
    }

    @Test
    void aChangeWithoutLsnHasNoVersion() {
        BadRecordException e = catchThrowableOfType(BadRecordException.class, () -> new DedupDemoMapper(false)
                .map(record(1, "{\"order_id\":1,\"customer_id\":2,\"amount\":\"1.00\"}"), tables(), SHIPPED));

        assertThat(e).hasMessage("order event has no \"__lsn\" (the connector must add it: transforms.unwrap.add.fields=op,lsn)");
    }

    @Test
    void anAmountTheColumnWouldRoundStopsTheRun() {
        TargetTooNarrowException e = catchThrowableOfType(TargetTooNarrowException.class, () -> new DedupDemoMapper(false)
                .map(record(1, change("2", "1.005", "false", "c", 100)), tables(), SHIPPED));

        assertThat(e).hasMessageStartingWith("amount 1.005 does not fit order_dedup.amount Decimal(18, 2) (3 decimal places > 2)")
                .hasMessageContaining("MODIFY COLUMN amount Decimal(19, 3)");
    }

    @Test
    void anInvalidValueIsABadRecord() {
        BadRecordException e = catchThrowableOfType(BadRecordException.class, () -> new DedupDemoMapper(false)
                .map(record(1, "{\"order_id\":1,\"amount\":\"1.00\"}"), tables(), SHIPPED));

        assertThat(e).hasMessage("order event: field \"customer_id\" is missing");
    }

    @Test
    void theOffsetAsVersionControlWritesTheOffset() throws BadRecordException {
        Map<String, RowsBody> rows = tables();

        new DedupDemoMapper(true).map(record(7, "{\"order_id\":1,\"customer_id\":2,\"amount\":\"1.00\"}"), rows, SHIPPED);

        assertThat(rows.get(DedupDemoMapper.ORDER_DEDUP).lines())
                .containsExactly("{\"order_id\":1,\"customer_id\":2,\"amount\":1.00,\"version\":7,\"is_deleted\":0}");
    }
}
