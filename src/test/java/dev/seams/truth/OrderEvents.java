package dev.seams.truth;

import dev.seams.wire.OrderEvent;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;

/**
 * What the connector wrote to {@code orders.events} (docs/event-contract.md), read committed from given offsets: one
 * {@link Event} per record, with the order it carries and Debezium's operation ({@code __op}: {@code r} for a snapshot
 * read, {@code c}, {@code u}), or the order a deletion event removes.
 */
public final class OrderEvents {

    private OrderEvents() {
    }

    /**
     * One record of orders.events.
     *
     * @param partition its partition
     * @param offset    its offset
     * @param identity  its bytes as text ({@code key|value}): a re-sent event repeats them (its LSN is among them)
     * @param orderId   the order it carries, or null for a deletion marker or a record that is no order event (one
     *                  another claim injected)
     * @param op        Debezium's operation, or null where the record carries none
     * @param deletes   the order a deletion event removes (the rewrite form's old row: {@code __deleted} true), or
     *                  null for any other record (a Kafka tombstone names none)
     */
    public record Event(int partition, long offset, String identity, Long orderId, String op, Long deletes) {

        /** @return whether it carries an order */
        public boolean carriesOrder() {
            return orderId != null;
        }
    }

    /**
     * @param topics the stand's topics
     * @param from   the first offset per partition to read (a partition not named: from its start)
     * @return every committed record from there to the end as read now, in partition and offset order
     */
    public static List<Event> read(Topics topics, Map<TopicPartition, Long> from) {
        List<Event> events = new ArrayList<>();
        topics.readFrom(RunNames.ORDERS_EVENTS, "read_committed", from, r -> events.add(event(r)));
        return events;
    }

    /** @return the ids of the orders the deletion events remove, duplicates kept */
    public static List<Long> deletedOrderIds(List<Event> events) {
        return events.stream().map(Event::deletes).filter(java.util.Objects::nonNull).toList();
    }

    /** @return the order ids of the events that carry an order with one of these operations, duplicates kept */
    public static List<Long> orderIds(List<Event> events, java.util.Set<String> ops) {
        return orderIds(events.stream().filter(ev -> ops.contains(ev.op())).toList());
    }

    /** @return the order ids of the events that carry an order, duplicates kept */
    public static List<Long> orderIds(List<Event> events) {
        return events.stream().filter(Event::carriesOrder).map(Event::orderId).toList();
    }

    private static Event event(ConsumerRecord<byte[], byte[]> r) {
        String key = r.key() == null ? "" : new String(r.key(), StandardCharsets.UTF_8);
        String value = r.value() == null ? "<tombstone>" : new String(r.value(), StandardCharsets.UTF_8);
        Long orderId = null;
        String op = null;
        Long deletes = null;
        if (OrderEvent.isDeletion(r.value())) {
            OrderEvent deletion = OrderEvent.ofValue(r.value());
            deletes = deletion == null ? null : deletion.orderId();
        } else {
            try {
                OrderEvent parsed = OrderEvent.parse(r.value());
                orderId = parsed.orderId();
                op = parsed.op();
            } catch (RuntimeException notAnOrderEvent) {
                // a record another claim injected (B2's invalid events): it carries no order
            }
        }
        return new Event(r.partition(), r.offset(), key + "|" + value, orderId, op, deletes);
    }
}
