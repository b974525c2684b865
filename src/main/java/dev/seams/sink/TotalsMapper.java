package dev.seams.sink;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.seams.wire.CustomerTotals;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * Mode {@code totals}: one {@code customer.totals} record
 * ({@code {"customer_id":3,"orders":27,"total":"1112.08","version":42}}, a cumulative snapshot of
 * the customer) becomes one row in {@code raw_totals} and one in {@code customer_totals}, with
 * {@code version} = the record's own {@code version}, which ds-streams produces (a per-customer
 * sequence, {@link CustomerTotals}): monotonic per customer whatever happens to the transport —
 * more partitions, a re-created topic — and identical on replay (claim B10; docs/sink.md).
 * The Kafka offset is never the version: it restarts when the topic is re-created and jumps when a
 * key moves partition.
 *
 * <p>{@code raw_totals} also keeps where each row came from, {@code kafka_partition} and
 * {@code kafka_offset} of the record (provenance: which records reached ClickHouse, e.g. none of
 * an aborted transaction, G14; offsets never committed ahead of what was stored, B5).
 *
 * <p>Every record is checked by {@link TotalsValidator} (claims G10, G11, B10, B11): unknown fields
 * are ignored, anything else that ds-streams cannot have written (no version, a key that is not its
 * customer_id, …) is a {@link BadRecordException} with the validator's reason, and goes to the DLQ.
 *
 * <p>Two TEST-ONLY switches, negative controls that must never run the pipeline:
 * <ul>
 *   <li>validation off ({@link SinkOptions#withValidation(boolean)}): the seed's unvalidated
 *       consumer ({@code encoding/json.Unmarshal} into plain fields, version = the offset): a JSON
 *       object is always mapped, a missing {@code customer_id}, {@code orders} or {@code total}
 *       becomes 0 — {@code {"customer_id":1}} then lands as a false zero (G11);</li>
 *   <li>offset as version ({@link SinkOptions#withOffsetAsVersion(boolean)}): validated, but the
 *       version is the record's offset, as the seed wrote it — after the topic gets more partitions
 *       or is re-created, FINAL keeps stale customers (B10).</li>
 * </ul>
 */
final class TotalsMapper implements RecordMapper {

    static final String RAW_TOTALS = "raw_totals";
    static final String CUSTOMER_TOTALS = "customer_totals";

    private static final RowsBody.Field CUSTOMER_ID = RowsBody.Field.of("customer_id");
    private static final RowsBody.Field ORDERS = RowsBody.Field.of("orders");
    private static final RowsBody.Field TOTAL = RowsBody.Field.of("total");
    private static final RowsBody.Field VERSION = RowsBody.Field.of("version");
    private static final RowsBody.Field KAFKA_PARTITION = RowsBody.Field.of("kafka_partition");
    private static final RowsBody.Field KAFKA_OFFSET = RowsBody.Field.of("kafka_offset");

    private static final ObjectMapper UNVALIDATED = new ObjectMapper()
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);

    private final TotalsValidator validator;
    private final boolean validate;
    private final boolean offsetAsVersion;

    /**
     * @param validator       the record contract
     * @param validate        false only for the negative control of G11 (see the class comment)
     * @param offsetAsVersion true only for the negative control of B10 (see the class comment)
     */
    TotalsMapper(TotalsValidator validator, boolean validate, boolean offsetAsVersion) {
        this.validator = validator;
        this.validate = validate;
        this.offsetAsVersion = offsetAsVersion;
    }

    @Override
    public List<String> tables() {
        return List.of(RAW_TOTALS, CUSTOMER_TOTALS);
    }

    @Override
    public boolean map(ConsumerRecord<byte[], byte[]> record, Map<String, RowsBody> rowsByTable, TargetColumns target)
            throws BadRecordException {
        CustomerTotals totals = validate ? validator.validate(record.key(), record.value()) : unvalidated(record.value());
        BigDecimal total = target.requireFits(CUSTOMER_TOTALS, TOTAL.name(), target.requireFits(RAW_TOTALS, TOTAL.name(), totals.total()));
        target.requireFits(CUSTOMER_TOTALS, CUSTOMER_ID.name(), target.requireFits(RAW_TOTALS, CUSTOMER_ID.name(), totals.customerId()));
        RowsBody raw = rowsByTable.get(RAW_TOTALS);
        int from = raw.startRow().mark();
        raw.field(CUSTOMER_ID, totals.customerId())
                .field(ORDERS, totals.orders())
                .field(TOTAL, total)
                .field(VERSION, offsetAsVersion || !validate ? record.offset() : totals.version());
        rowsByTable.get(CUSTOMER_TOTALS).startRow().copyFields(raw, from, raw.mark()).endRow();   // serialised once
        raw.field(KAFKA_PARTITION, record.partition()).field(KAFKA_OFFSET, record.offset()).endRow();
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
            return new CustomerTotals(node.path("customer_id").asLong(0), node.path("orders").asLong(0),
                    total.isMissingNode() || total.isNull() ? BigDecimal.ZERO
                            : new BigDecimal(total.asText()).setScale(2, RoundingMode.DOWN), 0);
        } catch (NumberFormatException e) {
            throw new BadRecordException("total is not a number: " + total);
        }
    }
}
