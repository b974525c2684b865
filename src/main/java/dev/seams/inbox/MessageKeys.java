package dev.seams.inbox;

import java.nio.charset.StandardCharsets;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * The message key the inbox sink records as processed (claim B4; seed 001: "натуральный или
 * синтетический (номер партиции + смещение + метка времени) ключ сообщения").
 *
 * <p>The natural key is the record's Kafka key as UTF-8 text: for {@code orders.events} the
 * {@code order_id} as JSON text, e.g. {@code 42}. It also catches an upstream redelivery (Debezium
 * re-sending the same row at a new offset). A record without a key falls back to its position,
 * {@code topic-partition@offset} (e.g. {@code orders.events-1@1234}), which catches only a Kafka
 * redelivery of that very record. The two forms cannot collide: a JSON key never contains
 * {@code '@'} outside a quoted string, and a quoted key starts with {@code '"'}.
 *
 * <p>Limit: a key names a message, not a change. A later UPDATE of the same order carries the same
 * natural key and is taken as a repeat while the key is still in the window (the ledger keeps an
 * order's first event). Topics with updates need a key that includes the change's position.
 */
public final class MessageKeys {

    private MessageKeys() {
    }

    /**
     * @param record a consumed record
     * @return its natural key, or {@code topic-partition@offset} when it has no key
     */
    public static String of(ConsumerRecord<byte[], byte[]> record) {
        if (record.key() != null) {
            return new String(record.key(), StandardCharsets.UTF_8);
        }
        return record.topic() + "-" + record.partition() + "@" + record.offset();
    }
}
