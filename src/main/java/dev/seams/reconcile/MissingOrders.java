package dev.seams.reconcile;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.seams.wire.InvalidJsonException;
import dev.seams.wire.OrderEvent;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;

/**
 * The deletes a re-snapshot cannot carry (claim B14 "slot dropped", docs/source.md "When the slot is lost"): orders
 * whose last event in {@code orders.events} says they exist, while PostgreSQL no longer holds them. Debezium's
 * re-snapshot after a lost slot re-sends every row PostgreSQL holds, so inserts and updates made while no slot
 * existed reach the pipeline again; a row deleted meanwhile is in no snapshot and its delete was never captured, so
 * ds-streams, the sink and the inbox would count it for good. For each such order this writes the delete the
 * connector would have written: its last image in the connector's rewrite form ({@code "__deleted":"true"},
 * {@code "__op":"d"}), with the source's position at the reconciliation as {@code __lsn} (after every change of the
 * order, which no longer exists), into the partition its events are in, under the same key bytes, with the header
 * {@value #ORIGIN_HEADER}={@value #ORIGIN} naming where it came from.
 *
 * <p>Order ids are never reused (a sequence), so an order present in the image and absent from PostgreSQL read
 * after the image was deleted for good: a later event of it cannot exist, and a delete the connector captured as
 * well is a second delete, which every consumer ignores.
 */
public final class MissingOrders {

    /** The header every reconciled delete carries, for audit and for telling it from the connector's. */
    public static final String ORIGIN_HEADER = "seams.origin";
    /** The value of {@link #ORIGIN_HEADER}. */
    public static final String ORIGIN = "reconcile";

    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * What a reconciliation found.
     *
     * @param deletes    one delete per order the pipeline holds and PostgreSQL does not, in the image's key order
     * @param live       orders whose last event says they exist
     * @param unreadable keys whose last value is no order event (the pipeline's DLQ holds it; not reconciled)
     */
    public record Found(List<ProducerRecord<byte[], byte[]>> deletes, long live, long unreadable) {
    }

    private MissingOrders() {
    }

    /**
     * @param image     {@code orders.events} as its consumers hold it, read before {@code sourceIds}
     * @param topic     the topic the deletes go to (the image's)
     * @param sourceIds every {@code order_id} PostgreSQL holds, read after the image
     * @param lsn       the source's WAL position when {@code sourceIds} was read, bytes from 0/0 ({@code __lsn})
     * @param tsMillis  the time of the reconciliation, epoch ms ({@code __source_ts_ms})
     * @return the deletes to write
     */
    public static Found find(TopicImage image, String topic, Set<Long> sourceIds, long lsn, long tsMillis) {
        List<ProducerRecord<byte[], byte[]>> deletes = new ArrayList<>();
        long live = 0;
        long unreadable = 0;
        for (TopicImage.Last last : image.lastRecords()) {
            OrderEvent event;
            try {
                event = OrderEvent.ofValue(last.value());
            } catch (InvalidJsonException e) {
                unreadable++;
                continue;
            }
            if (event == null || event.deleted()) {
                continue;
            }
            live++;
            if (!sourceIds.contains(event.orderId())) {
                deletes.add(delete(topic, last, lsn, tsMillis));
            }
        }
        return new Found(List.copyOf(deletes), live, unreadable);
    }

    private static ProducerRecord<byte[], byte[]> delete(String topic, TopicImage.Last last, long lsn, long tsMillis) {
        ObjectNode value;
        try {
            JsonNode read = JSON.readTree(last.value());
            value = ((ObjectNode) read).deepCopy();
        } catch (IOException | ClassCastException e) {
            throw new IllegalStateException("an order event that parsed is no JSON object", e);
        }
        value.put("__deleted", "true");
        value.put("__op", "d");
        value.put("__lsn", lsn);
        value.put("__source_ts_ms", tsMillis);
        RecordHeaders headers = new RecordHeaders();
        headers.add(ORIGIN_HEADER, ORIGIN.getBytes(StandardCharsets.UTF_8));
        try {
            return new ProducerRecord<>(topic, last.partition(), null, last.key(), JSON.writeValueAsBytes(value), headers);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
