package dev.seams.sink;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * Mode {@code totals}: one {@code customer.totals} record ({@code {"customer_id":3,"orders":27,"total":"1112.08"}},
 * a cumulative snapshot of the customer) becomes one row in {@code raw_totals} and one in
 * {@code customer_totals}, with {@code version} = the record's offset. A customer's records all lie
 * in one partition (keyed by customer_id), so the version is monotonic per key and identical on
 * replay (DESIGN.md "The sink"; claims G1, G2, G8). Unknown fields are ignored (G10).
 */
final class TotalsMapper implements RecordMapper {

    static final String RAW_TOTALS = "raw_totals";
    static final String CUSTOMER_TOTALS = "customer_totals";

    private static final ObjectMapper JSON = new ObjectMapper()
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);

    private final CustomerRange customers;

    TotalsMapper(CustomerRange customers) {
        this.customers = customers;
    }

    @Override
    public List<String> tables() {
        return List.of(RAW_TOTALS, CUSTOMER_TOTALS);
    }

    @Override
    public boolean map(ConsumerRecord<byte[], byte[]> record, Map<String, List<ObjectNode>> rowsByTable)
            throws BadRecordException {
        if (record.value() == null) {
            throw new BadRecordException("null value (tombstone) where a totals snapshot was expected");
        }
        JsonNode value;
        try {
            value = JSON.readTree(record.value());
        } catch (JsonProcessingException e) {
            throw new BadRecordException("not JSON: " + e.getOriginalMessage());
        } catch (IOException e) {
            throw new BadRecordException("not JSON: " + e.getMessage());
        }
        if (value == null || !value.isObject()) {
            throw new BadRecordException("not a JSON object");
        }
        long customerId = requiredInteger(value, "customer_id");
        if (!customers.contains(customerId)) {
            throw new BadRecordException("customer_id " + customerId + " outside the configured range " + customers);
        }
        long orders = requiredInteger(value, "orders");
        if (orders < 1) {
            throw new BadRecordException("orders must be >= 1, got " + orders);
        }
        BigDecimal total = requiredMoney(value, "total");

        ObjectNode row = ClickHouseWriter.newRow()
                .put("customer_id", customerId)
                .put("orders", orders)
                .put("total", total)
                .put("version", record.offset());
        rowsByTable.get(RAW_TOTALS).add(row);
        rowsByTable.get(CUSTOMER_TOTALS).add(row);
        return true;
    }

    private static long requiredInteger(JsonNode value, String field) throws BadRecordException {
        JsonNode node = value.get(field);
        if (node == null) {
            throw new BadRecordException(field + " missing");
        }
        if (!node.isIntegralNumber() || !node.canConvertToLong()) {
            throw new BadRecordException(field + " must be an integer, got " + node);
        }
        return node.longValue();
    }

    private static BigDecimal requiredMoney(JsonNode value, String field) throws BadRecordException {
        JsonNode node = value.get(field);
        if (node == null) {
            throw new BadRecordException(field + " missing");
        }
        if (node.isNull()) {
            throw new BadRecordException(field + " is null");
        }
        BigDecimal money;
        try {
            money = node.isTextual() ? new BigDecimal(node.textValue()) : node.isNumber() ? node.decimalValue() : null;
        } catch (NumberFormatException e) {
            money = null;
        }
        if (money == null) {
            throw new BadRecordException(field + " must be a decimal, got " + node);
        }
        if (money.signum() < 0) {
            throw new BadRecordException(field + " must not be negative, got " + money.toPlainString());
        }
        if (money.stripTrailingZeros().scale() > 2) {
            throw new BadRecordException(field + " has more than 2 decimal places: " + money.toPlainString());
        }
        return money.setScale(2);
    }
}
