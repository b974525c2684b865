package dev.seams.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/**
 * Mode totals maps a valid snapshot to one row per table and, with validation on, refuses the
 * seed's {@code {"customer_id":1}}; with the test-only switch off it reproduces the false zero the
 * G11 negative control shows on the real stand.
 */
class TotalsMapperTest {

    private static final TotalsValidator VALIDATOR = new TotalsValidator(new CustomerRange(1, 5), 65_536);

    private static Map<String, List<ObjectNode>> tables() {
        Map<String, List<ObjectNode>> rows = new LinkedHashMap<>();
        rows.put(TotalsMapper.RAW_TOTALS, new ArrayList<>());
        rows.put(TotalsMapper.CUSTOMER_TOTALS, new ArrayList<>());
        return rows;
    }

    private static ConsumerRecord<byte[], byte[]> record(long offset, String value) {
        return new ConsumerRecord<>("customer.totals", 0, offset, "1".getBytes(StandardCharsets.UTF_8),
                value.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void aSnapshotBecomesOneRowPerTableWithTheOffsetAsVersion() throws BadRecordException {
        Map<String, List<ObjectNode>> rows = tables();

        boolean mapped = new TotalsMapper(VALIDATOR, true).map(
                record(146, "{\"customer_id\":3,\"orders\":27,\"total\":\"1112.08\",\"currency\":\"RUB\"}"), rows);

        assertThat(mapped).isTrue();
        assertThat(rows.get(TotalsMapper.RAW_TOTALS)).extracting(ObjectNode::toString)
                .containsExactly("{\"customer_id\":3,\"orders\":27,\"total\":1112.08,\"version\":146}");
        assertThat(rows.get(TotalsMapper.CUSTOMER_TOTALS)).isEqualTo(rows.get(TotalsMapper.RAW_TOTALS));
    }

    @Test
    void withValidationTheMissingFieldsAreRejectedAndNothingIsAdded() {
        Map<String, List<ObjectNode>> rows = tables();

        BadRecordException e = catchThrowableOfType(BadRecordException.class,
                () -> new TotalsMapper(VALIDATOR, true).map(record(146, "{\"customer_id\":1}"), rows));

        assertThat(e).hasMessage("customer totals: field \"orders\" is missing");
        assertThat(rows.get(TotalsMapper.RAW_TOTALS)).isEmpty();
    }

    @Test
    void withoutValidationTheMissingFieldsBecomeAFalseZero() throws BadRecordException {
        Map<String, List<ObjectNode>> rows = tables();

        new TotalsMapper(VALIDATOR, false).map(record(146, "{\"customer_id\":1}"), rows);

        assertThat(rows.get(TotalsMapper.CUSTOMER_TOTALS)).extracting(ObjectNode::toString)
                .containsExactly("{\"customer_id\":1,\"orders\":0,\"total\":0.00,\"version\":146}");
    }
}
