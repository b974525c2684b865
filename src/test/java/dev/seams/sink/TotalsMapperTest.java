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
 * Mode totals maps a valid snapshot to one row per table with the version ds-streams wrote (B10),
 * sends what ds-streams cannot have written to the DLQ, and keeps its two test-only negative
 * controls: validation off (G11's false zero) and the offset as version (B10's stale customers).
 */
class TotalsMapperTest {

    private static final TotalsValidator VALIDATOR = new TotalsValidator(null, 65_536);
    /** The columns of containers/clickhouse/001-tables.sql as system.columns lists them (ClickHouse 18.16). */
    private static final TargetColumns SHIPPED = new TargetColumns("seams", Map.of("raw_totals.total", "Decimal(18, 2)",
            "customer_totals.total", "Decimal(18, 2)", "raw_totals.customer_id", "Int64"));
    /** The same after the ALTER that docs/source.md's "Schema changes" prescribes for three decimals. */
    private static final TargetColumns WIDENED = new TargetColumns("seams", Map.of("raw_totals.total", "Decimal(18, 3)",
            "customer_totals.total", "Decimal(18, 3)"));

    private static Map<String, RowsBody> tables() {
        Map<String, RowsBody> rows = new LinkedHashMap<>();
        rows.put(TotalsMapper.RAW_TOTALS, new RowsBody(4));
        rows.put(TotalsMapper.CUSTOMER_TOTALS, new RowsBody(4));
        return rows;
    }

    private static ConsumerRecord<byte[], byte[]> record(long offset, String key, String value) {
        return new ConsumerRecord<>("customer.totals", 0, offset, key.getBytes(StandardCharsets.UTF_8),
                value.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void aSnapshotBecomesOneRowPerTableWithItsOwnVersion() throws BadRecordException {
        Map<String, RowsBody> rows = tables();

        boolean mapped = new TotalsMapper(VALIDATOR, true, false).map(
                record(146, "3", "{\"customer_id\":3,\"orders\":27,\"total\":\"1112.08\",\"version\":42,\"currency\":\"RUB\"}"), rows, SHIPPED);

        assertThat(mapped).isTrue();
        assertThat(rows.get(TotalsMapper.CUSTOMER_TOTALS).lines())
                .containsExactly("{\"customer_id\":3,\"orders\":27,\"total\":1112.08,\"version\":42}");
        assertThat(rows.get(TotalsMapper.RAW_TOTALS).lines()).as("the raw row also names the record it came from")
                .containsExactly("{\"customer_id\":3,\"orders\":27,\"total\":1112.08,\"version\":42,\"kafka_partition\":0,\"kafka_offset\":146}");
    }

    @Test
    void theVersionDoesNotDependOnWhereTheRecordWasRead() throws BadRecordException {
        String value = "{\"customer_id\":3,\"orders\":1,\"total\":\"1.00\",\"version\":9}";
        Map<String, RowsBody> rows = tables();
        TotalsMapper mapper = new TotalsMapper(VALIDATOR, true, false);

        mapper.map(record(5_000, "3", value), rows, SHIPPED);
        mapper.map(new ConsumerRecord<>("customer.totals", 5, 0, "3".getBytes(StandardCharsets.UTF_8),
                value.getBytes(StandardCharsets.UTF_8)), rows, SHIPPED);

        assertThat(rows.get(TotalsMapper.CUSTOMER_TOTALS).lines()).allMatch(r -> r.endsWith(",\"version\":9}")).hasSize(2);
    }

    @Test
    void anEmptiedCustomerAndARefundAreCarried() throws BadRecordException {
        Map<String, RowsBody> rows = tables();
        TotalsMapper mapper = new TotalsMapper(VALIDATOR, true, false);

        mapper.map(record(1, "4", "{\"customer_id\":4,\"orders\":0,\"total\":\"0.00\",\"version\":2}"), rows, SHIPPED);
        mapper.map(record(2, "6", "{\"customer_id\":6,\"orders\":1,\"total\":\"-5.00\",\"version\":1}"), rows, SHIPPED);

        assertThat(rows.get(TotalsMapper.CUSTOMER_TOTALS).lines()).containsExactly(
                "{\"customer_id\":4,\"orders\":0,\"total\":0.00,\"version\":2}",
                "{\"customer_id\":6,\"orders\":1,\"total\":-5.00,\"version\":1}");
    }

    @Test
    void withValidationTheMissingFieldsAreRejectedAndNothingIsAdded() {
        Map<String, RowsBody> rows = tables();

        BadRecordException e = catchThrowableOfType(BadRecordException.class,
                () -> new TotalsMapper(VALIDATOR, true, false).map(record(146, "1", "{\"customer_id\":1}"), rows, SHIPPED));

        assertThat(e).hasMessage("customer totals: field \"orders\" is missing");
        assertThat(rows.get(TotalsMapper.RAW_TOTALS).isEmpty()).isTrue();
    }

    @Test
    void aTotalTheColumnWouldRoundStopsTheRunInsteadOfGoingToTheDlq() {
        Map<String, RowsBody> rows = tables();
        TotalsMapper mapper = new TotalsMapper(VALIDATOR, true, false);

        TargetTooNarrowException e = catchThrowableOfType(TargetTooNarrowException.class, () -> mapper.map(
                record(7, "3", "{\"customer_id\":3,\"orders\":2,\"total\":\"3.255\",\"version\":2}"), rows, SHIPPED));

        assertThat(e).hasMessage("total 3.255 does not fit raw_totals.total Decimal(18, 2) (3 decimal places > 2) without "
                + "rounding; to carry it, widen the column: ALTER TABLE `seams`.`raw_totals` MODIFY COLUMN total Decimal(19, 3) "
                + "(docs/source.md \"Schema changes\")");
        assertThat(rows.get(TotalsMapper.RAW_TOTALS).isEmpty()).as("nothing of the record added").isTrue();
    }

    @Test
    void aWidenedColumnCarriesEveryDecimalAndTrailingZerosFitTheShippedOne() throws BadRecordException {
        Map<String, RowsBody> rows = tables();
        TotalsMapper mapper = new TotalsMapper(VALIDATOR, true, false);

        mapper.map(record(7, "3", "{\"customer_id\":3,\"orders\":2,\"total\":\"3.255\",\"version\":2}"), rows, WIDENED);
        mapper.map(record(8, "4", "{\"customer_id\":4,\"orders\":1,\"total\":\"12.000\",\"version\":5}"), rows, SHIPPED);

        assertThat(rows.get(TotalsMapper.CUSTOMER_TOTALS).lines()).containsExactly(
                "{\"customer_id\":3,\"orders\":2,\"total\":3.255,\"version\":2}",
                "{\"customer_id\":4,\"orders\":1,\"total\":12.00,\"version\":5}");
    }

    @Test
    void aRecordWithoutVersionOrUnderAnotherKeyIsRejected() {
        Map<String, RowsBody> rows = tables();
        TotalsMapper mapper = new TotalsMapper(VALIDATOR, true, false);

        assertThat(catchThrowableOfType(BadRecordException.class, () -> mapper.map(
                record(1, "1", "{\"customer_id\":1,\"orders\":1,\"total\":\"1.00\"}"), rows, SHIPPED)))
                .hasMessage("customer totals: field \"version\" is missing");
        assertThat(catchThrowableOfType(BadRecordException.class, () -> mapper.map(
                record(1, "2", "{\"customer_id\":1,\"orders\":1,\"total\":\"1.00\",\"version\":1}"), rows, SHIPPED)))
                .hasMessage("record key \"2\" does not match customer_id 1");
        assertThat(rows.get(TotalsMapper.RAW_TOTALS).isEmpty()).isTrue();
    }

    @Test
    void withoutValidationTheMissingFieldsBecomeAFalseZeroAtTheOffset() throws BadRecordException {
        Map<String, RowsBody> rows = tables();

        new TotalsMapper(VALIDATOR, false, false).map(record(146, "1", "{\"customer_id\":1}"), rows, SHIPPED);

        assertThat(rows.get(TotalsMapper.CUSTOMER_TOTALS).lines())
                .containsExactly("{\"customer_id\":1,\"orders\":0,\"total\":0.00,\"version\":146}");
    }

    @Test
    void theOffsetAsVersionControlWritesTheOffset() throws BadRecordException {
        Map<String, RowsBody> rows = tables();

        new TotalsMapper(VALIDATOR, true, true).map(
                record(146, "3", "{\"customer_id\":3,\"orders\":27,\"total\":\"1112.08\",\"version\":42}"), rows, SHIPPED);

        assertThat(rows.get(TotalsMapper.CUSTOMER_TOTALS).lines())
                .containsExactly("{\"customer_id\":3,\"orders\":27,\"total\":1112.08,\"version\":146}");
    }
}
