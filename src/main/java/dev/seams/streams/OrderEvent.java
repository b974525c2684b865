package dev.seams.streams;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * One row of PostgreSQL's {@code orders} table as Debezium writes it to {@code orders.events}
 * (after {@code ExtractNewRecordState}, JSON without schema, {@code decimal.handling.mode=string}):
 * <pre>{"order_id":1,"customer_id":2,"amount":"59.68","created_at":"2026-11-29T19:57:27.148553Z"}</pre>
 * The record key is the order id as JSON text (bytes {@code 1}); a {@code null} value is a
 * tombstone (the order was DELETEd) and is never passed to {@link #parse(byte[])}.
 *
 * @param orderId    the order's primary key ({@code order_id})
 * @param customerId the customer the order belongs to ({@code customer_id})
 * @param amount     the order's amount in currency units, exact, always with scale 2
 */
public record OrderEvent(long orderId, int customerId, BigDecimal amount) {

    private static final String WHAT = "order event";

    /**
     * Normalizes {@code amount} to scale 2 without rounding.
     *
     * @throws NullPointerException if {@code amount} is null
     * @throws ArithmeticException  if {@code amount} has more than two significant decimal places
     */
    public OrderEvent {
        amount = Objects.requireNonNull(amount, "amount").setScale(Json.MONEY_SCALE, RoundingMode.UNNECESSARY);
    }

    /**
     * Parses one {@code orders.events} value.
     *
     * <p>{@code order_id} and {@code customer_id} must be integral JSON numbers (64 and 32 bit);
     * {@code amount} may be a decimal string or a JSON number, read exactly (never via
     * {@code double}) and with at most two decimal places. Every other field (e.g. a later
     * {@code "currency":"RUB"}) is ignored (claim G9).
     *
     * @param json the record value, UTF-8 JSON; not {@code null} (a null value is a tombstone)
     * @return the event
     * @throws InvalidJsonException if the bytes are not JSON, not an object, or a required field
     *                              is missing, null or non-numeric; the message names the field
     *                              (claim B2: invalid input is never silently defaulted)
     */
    public static OrderEvent parse(byte[] json) {
        JsonNode node = Json.readObject(Objects.requireNonNull(json, "json"), WHAT);
        return new OrderEvent(
                Json.longField(node, "order_id", WHAT),
                Json.intField(node, "customer_id", WHAT),
                Json.moneyField(node, "amount", WHAT));
    }

    /**
     * Whether an {@code orders.events} value marks a deleted order. Two forms exist: a Kafka
     * tombstone (null value), and the JSON literal {@code null}, which is what Debezium's
     * ExtractNewRecordState ({@code delete.tombstone.handling.mode=tombstone}) and JsonConverter
     * with schemas disabled write for a DELETE (measured on the stand: a 4-byte value {@code null}).
     *
     * @param value the record value, may be null
     * @return true for a null value or a value that is exactly the JSON literal {@code null}
     *     (surrounding whitespace allowed)
     */
    public static boolean isDeletion(byte[] value) {
        return value == null || "null".equals(new String(value, StandardCharsets.UTF_8).strip());
    }

    /**
     * Parses one {@code orders.events} value given as a string; see {@link #parse(byte[])}.
     *
     * @param json the record value as JSON text, not null
     * @return the event
     * @throws InvalidJsonException as {@link #parse(byte[])}
     */
    public static OrderEvent parse(String json) {
        return parse(json.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Serializes this event to UTF-8 JSON in the shape {@link #parse(byte[])} reads, e.g.
     * {@code {"order_id":1,"customer_id":2,"amount":"59.68"}} (amount as a string with 2 decimals).
     * Used on the Streams repartition topic.
     *
     * @return the JSON bytes
     */
    public byte[] toJsonBytes() {
        return Json.write(Json.MAPPER.createObjectNode()
                .put("order_id", orderId)
                .put("customer_id", customerId)
                .put("amount", amount.toPlainString()));
    }
}
