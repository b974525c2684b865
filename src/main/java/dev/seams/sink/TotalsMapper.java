package dev.seams.sink;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.seams.streams.CustomerTotals;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * Mode {@code totals}: one {@code customer.totals} record ({@code {"customer_id":3,"orders":27,"total":"1112.08"}},
 * a cumulative snapshot of the customer) becomes one row in {@code raw_totals} and one in
 * {@code customer_totals}, with {@code version} = the record's offset. A customer's records all lie
 * in one partition (keyed by customer_id), so the version is monotonic per key and identical on
 * replay (DESIGN.md "The sink"; claims G1, G2, G8).
 *
 * <p>Every record is checked by {@link TotalsValidator} (claims G10, G11): unknown fields are
 * ignored, anything else that is not a real snapshot is a {@link BadRecordException} with the
 * validator's reason, and goes to the DLQ.
 *
 * <p>Test-only: with validation off ({@link SinkOptions#withValidation(boolean)}) the mapper
 * behaves like the seed's unvalidated consumer ({@code encoding/json.Unmarshal} into plain
 * fields): a JSON object is always mapped, a missing {@code customer_id}, {@code orders} or
 * {@code total} becomes 0. That is the negative control of G11 — {@code {"customer_id":1}} then
 * lands as a false zero — and never a production setting.
 */
final class TotalsMapper implements RecordMapper {

    static final String RAW_TOTALS = "raw_totals";
    static final String CUSTOMER_TOTALS = "customer_totals";

    private static final ObjectMapper UNVALIDATED = new ObjectMapper()
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);

    private final TotalsValidator validator;
    private final boolean validate;

    /**
     * @param validator the record contract
     * @param validate  false only for the negative control (see the class comment)
     */
    TotalsMapper(TotalsValidator validator, boolean validate) {
        this.validator = validator;
        this.validate = validate;
    }

    @Override
    public List<String> tables() {
        return List.of(RAW_TOTALS, CUSTOMER_TOTALS);
    }

    @Override
    public boolean map(ConsumerRecord<byte[], byte[]> record, Map<String, List<ObjectNode>> rowsByTable)
            throws BadRecordException {
        CustomerTotals totals = validate ? validator.validate(record.value()) : unvalidated(record.value());
        ObjectNode row = ClickHouseWriter.newRow()
                .put("customer_id", totals.customerId())
                .put("orders", totals.orders())
                .put("total", totals.total())
                .put("version", record.offset());
        rowsByTable.get(RAW_TOTALS).add(row);
        rowsByTable.get(CUSTOMER_TOTALS).add(row);
        return true;
    }

    /** The seed's unvalidated consumer: absent fields are zero, only non-JSON is refused. */
    private static CustomerTotals unvalidated(byte[] value) throws BadRecordException {
        JsonNode node;
        try {
            node = value == null ? null : UNVALIDATED.readTree(value);
        } catch (IOException e) {
            throw new BadRecordException("not JSON: " + e.getMessage());
        }
        if (node == null || !node.isObject()) {
            throw new BadRecordException("not a JSON object");
        }
        JsonNode total = node.path("total");
        try {
            return new CustomerTotals(node.path("customer_id").asInt(0), node.path("orders").asLong(0),
                    total.isMissingNode() || total.isNull() ? BigDecimal.ZERO
                            : new BigDecimal(total.asText()).setScale(2, RoundingMode.DOWN));
        } catch (NumberFormatException e) {
            throw new BadRecordException("total is not a number: " + total);
        }
    }
}
