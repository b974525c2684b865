package dev.seams.sink;

import dev.seams.wire.InvalidJsonException;
import dev.seams.wire.OrderEvent;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * Mode {@code dedup-demo} (claim G3, the source's "Изолированный дедуп-эксперимент", carried to
 * updates and deletes): one {@code orders.events} change becomes a row {@code cnt=1} in
 * {@code order_counts_raw} (SummingMergeTree, no dedup: every change event counts) and a row in
 * {@code order_dedup} (ReplacingMergeTree(version) by order_id) with {@code version} = the change's
 * source LSN ({@code __lsn}, monotonic per order, identical on replay) and {@code is_deleted} = 1
 * for a DELETE (the old row, {@code "__deleted":"true"}) or 0. So
 * {@code SELECT … FROM order_dedup FINAL WHERE is_deleted = 0} equals PostgreSQL's {@code orders}
 * after any mix of INSERT, UPDATE (amount, customer) and DELETE, on ClickHouse 18.16 (which has no
 * {@code is_deleted} engine parameter; read it with {@code optimize_move_to_prewhere = 0} there,
 * see {@code containers/clickhouse/001-tables.sql}) and on current servers.
 *
 * <p>A row-less deletion (a Kafka tombstone or the JSON value {@code null}, the connector's older
 * output) carries no row and no LSN: it is counted as a tombstone. A change without {@code __lsn}
 * (a connector without {@code transforms.unwrap.add.fields=op,lsn}) has no version: it is a bad
 * record, {@code order event has no "__lsn" (the connector must add it: transforms.unwrap.add.fields=op,lsn)}.
 * TEST-ONLY: with {@link SinkOptions#withOffsetAsVersion(boolean)} the version is the record's offset instead.
 */
final class DedupDemoMapper implements RecordMapper {

    static final String ORDER_COUNTS_RAW = "order_counts_raw";
    static final String ORDER_DEDUP = "order_dedup";

    private static final RowsBody.Field ORDER_ID = RowsBody.Field.of("order_id");
    private static final RowsBody.Field CUSTOMER_ID = RowsBody.Field.of("customer_id");
    private static final RowsBody.Field CNT = RowsBody.Field.of("cnt");
    private static final RowsBody.Field AMOUNT = RowsBody.Field.of("amount");
    private static final RowsBody.Field VERSION = RowsBody.Field.of("version");
    private static final RowsBody.Field IS_DELETED = RowsBody.Field.of("is_deleted");

    private final boolean offsetAsVersion;

    /** @param offsetAsVersion TEST-ONLY: the offset, not the LSN, is the version (a negative control) */
    DedupDemoMapper(boolean offsetAsVersion) {
        this.offsetAsVersion = offsetAsVersion;
    }

    @Override
    public List<String> tables() {
        return List.of(ORDER_COUNTS_RAW, ORDER_DEDUP);
    }

    @Override
    public boolean map(ConsumerRecord<byte[], byte[]> record, Map<String, RowsBody> rowsByTable, TargetColumns target)
            throws BadRecordException {
        OrderEvent event;
        try {
            event = OrderEvent.ofValue(record.value());
        } catch (InvalidJsonException e) {
            throw new BadRecordException(e.getMessage());
        }
        if (event == null) {
            return false;
        }
        if (event.lsn() == null && !offsetAsVersion) {
            throw new BadRecordException("order event has no \"__lsn\" (the connector must add it: "
                    + "transforms.unwrap.add.fields=op,lsn)");
        }
        BigDecimal amount = target.requireFits(ORDER_DEDUP, AMOUNT.name(), event.amount());   // before any row is started
        target.requireFits(ORDER_DEDUP, CUSTOMER_ID.name(), target.requireFits(ORDER_COUNTS_RAW, CUSTOMER_ID.name(), event.customerId()));
        rowsByTable.get(ORDER_COUNTS_RAW).startRow()
                .field(CUSTOMER_ID, event.customerId())
                .field(CNT, 1)
                .endRow();
        rowsByTable.get(ORDER_DEDUP).startRow()
                .field(ORDER_ID, event.orderId())
                .field(CUSTOMER_ID, event.customerId())
                .field(AMOUNT, amount)
                .field(VERSION, offsetAsVersion ? record.offset() : event.lsn())
                .field(IS_DELETED, event.deleted() ? 1 : 0)
                .endRow();
        return true;
    }
}
