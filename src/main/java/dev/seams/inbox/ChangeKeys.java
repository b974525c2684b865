package dev.seams.inbox;

import dev.seams.wire.OrderEvent;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * The key the inbox sink records as processed: it names a <em>change</em>, not an order (claim B4;
 * seed 001: "натуральный или синтетический ключ сообщения"), so an UPDATE or DELETE of an order is
 * never taken for a repeat of its INSERT, while Debezium re-sending the same change at a new offset
 * (after a Connect crash) is recognised.
 *
 * <ul>
 *   <li>With the source LSN ({@code __lsn}, connector {@code add.fields=op,lsn}):
 *       {@code <order_id>@<lsn>:<op>}, e.g. {@code 42@24023128:u} (without {@code :<op>} if the
 *       connector adds no {@code __op}). One WAL record holds one change of one row, so order id and
 *       LSN name the change; the op tells a snapshot read ({@code r}, all at the snapshot's LSN) from
 *       a change at the same position.</li>
 *   <li>Without it (an older connector): the record's position {@code topic-partition@offset},
 *       e.g. {@code orders.events-1@1234}, which names the message only: a re-send at a new offset
 *       is not recognised then.</li>
 * </ul>
 * The forms cannot collide: a change key starts with the order id's digits (or {@code -}) and has
 * no {@code -<partition>@}; a position key starts with the topic name and has one.
 */
public final class ChangeKeys {

    private ChangeKeys() {
    }

    /**
     * @param record the consumed record
     * @param event  its parsed value
     * @return the change key (see the class comment)
     */
    public static String of(ConsumerRecord<byte[], byte[]> record, OrderEvent event) {
        if (event.lsn() == null) {
            return position(record);
        }
        return event.orderId() + "@" + event.lsn() + (event.op() == null ? "" : ":" + event.op());
    }

    /**
     * FAULT INJECTION (TEST-ONLY, {@link InboxOptions#keyByOrderId()}): the seed's natural key, the
     * record key as UTF-8 text (the order id, e.g. {@code 42}), or the position for a record without
     * one. It names an order, so a later UPDATE of it inside the window is swallowed — the negative
     * control of B4.
     *
     * @param record the consumed record
     * @return the record key's text, or {@code topic-partition@offset}
     */
    public static String orderKey(ConsumerRecord<byte[], byte[]> record) {
        return record.key() != null ? new String(record.key(), StandardCharsets.UTF_8) : position(record);
    }

    private static String position(ConsumerRecord<byte[], byte[]> record) {
        return record.topic() + "-" + record.partition() + "@" + record.offset();
    }
}
