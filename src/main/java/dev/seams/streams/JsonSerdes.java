package dev.seams.streams;

import dev.seams.wire.CustomerTotals;
import dev.seams.wire.InvalidJsonException;
import dev.seams.wire.OrderEvent;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;

/**
 * Kafka serdes for this package's JSON values, all backed by the one shared Jackson mapper.
 * {@code null} maps to {@code null} both ways, so tombstones pass through.
 */
public final class JsonSerdes {

    private JsonSerdes() {
    }

    /**
     * Serde for {@code orders.events} values (and the Streams repartition topic). Every deletion
     * form ({@link OrderEvent#isDeletion}: the rewritten row with {@code "__deleted":"true"}, a
     * tombstone, or the JSON literal null) deserializes to {@code null}, which the KTable source
     * applies as a delete of the order (B3); each value is parsed once. Deserializing throws
     * {@link InvalidJsonException} for an invalid value (claim B2), which Kafka Streams hands to
     * the deserialization exception handler.
     *
     * @return a new serde; stateless, safe to share
     */
    public static Serde<OrderEvent> orderEvent() {
        return Serdes.serdeFrom(
                (topic, event) -> event == null ? null : event.toJsonBytes(),
                (topic, bytes) -> {
                    OrderEvent event = OrderEvent.ofValue(bytes);
                    return event == null || event.deleted() ? null : event;
                });
    }

    /**
     * Serde for {@code customer.totals} values (and the aggregate's state store).
     * Deserializing throws {@link InvalidJsonException} for an invalid value.
     *
     * @return a new serde; stateless, safe to share
     */
    public static Serde<CustomerTotals> customerTotals() {
        return Serdes.serdeFrom(
                (topic, totals) -> totals == null ? null : totals.toJsonBytes(),
                (topic, bytes) -> bytes == null ? null : CustomerTotals.fromJson(bytes));
    }
}
