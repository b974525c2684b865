package dev.seams.sink;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.seams.streams.OrderEvent;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * Mode {@code dedup-demo} (claim G3, the source's "Изолированный дедуп-эксперимент"): one
 * {@code orders.events} record (one order) becomes a row {@code cnt=1} in {@code order_counts_raw}
 * (SummingMergeTree, no dedup) and a row in {@code order_dedup} (ReplacingMergeTree(version) by
 * order_id, version = the record's offset). A deletion ({@link OrderEvent#isDeletion}) carries no row.
 */
final class DedupDemoMapper implements RecordMapper {

    static final String ORDER_COUNTS_RAW = "order_counts_raw";
    static final String ORDER_DEDUP = "order_dedup";

    @Override
    public List<String> tables() {
        return List.of(ORDER_COUNTS_RAW, ORDER_DEDUP);
    }

    @Override
    public boolean map(ConsumerRecord<byte[], byte[]> record, Map<String, List<ObjectNode>> rowsByTable)
            throws BadRecordException {
        if (OrderEvent.isDeletion(record.value())) {
            return false;
        }
        OrderEvent event;
        try {
            event = OrderEvent.parse(record.value());
        } catch (RuntimeException e) {
            throw new BadRecordException(e.getMessage());
        }
        rowsByTable.get(ORDER_COUNTS_RAW).add(ClickHouseWriter.newRow()
                .put("customer_id", event.customerId())
                .put("cnt", 1));
        rowsByTable.get(ORDER_DEDUP).add(ClickHouseWriter.newRow()
                .put("order_id", event.orderId())
                .put("customer_id", event.customerId())
                .put("amount", event.amount())
                .put("version", record.offset()));
        return true;
    }
}
