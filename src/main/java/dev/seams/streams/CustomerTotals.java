package dev.seams.streams;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * One record of {@code customer.totals}: the cumulative snapshot of one customer's orders after
 * the latest change (claim G2: the topic is a changelog of snapshots, not of deltas).
 *
 * <p>JSON shape, field order fixed:
 * <pre>{"customer_id":3,"orders":27,"total":"1112.08"}</pre>
 *
 * @param customerId the customer ({@code customer_id})
 * @param orders     how many of the customer's orders currently exist; 0 after all were deleted
 * @param total      the sum of their amounts in currency units, exact, always with scale 2
 */
public record CustomerTotals(int customerId, long orders, BigDecimal total) {

    private static final String WHAT = "customer totals";

    /**
     * Normalizes {@code total} to scale 2 without rounding.
     *
     * @throws NullPointerException if {@code total} is null
     * @throws ArithmeticException  if {@code total} has more than two significant decimal places
     */
    public CustomerTotals {
        total = Objects.requireNonNull(total, "total").setScale(Json.MONEY_SCALE, RoundingMode.UNNECESSARY);
    }

    /**
     * The aggregate of a customer with no orders yet: 0 orders, total 0.00. Its customer id is
     * taken from the first order added (see {@link #plus(OrderEvent)}).
     *
     * @return the empty aggregate for customer 0
     */
    public static CustomerTotals empty() {
        return new CustomerTotals(0, 0, BigDecimal.ZERO);
    }

    /**
     * Adds one order (the Streams aggregate's adder; claim B3).
     *
     * @param order an order of this customer
     * @return the totals with the order counted and its amount added; customer id = the order's
     */
    public CustomerTotals plus(OrderEvent order) {
        return new CustomerTotals(order.customerId(), orders + 1, total.add(order.amount()));
    }

    /**
     * Removes one order previously added (the Streams aggregate's subtractor: the old value of an
     * updated, moved or deleted order; claim B3).
     *
     * @param order an order of this customer that was counted before
     * @return the totals without it; customer id = the order's
     */
    public CustomerTotals minus(OrderEvent order) {
        return new CustomerTotals(order.customerId(), orders - 1, total.subtract(order.amount()));
    }

    /**
     * Serializes to the exact JSON text {@code {"customer_id":3,"orders":27,"total":"1112.08"}}:
     * compact, fields in this order, total as a string with exactly 2 decimals.
     *
     * @return the JSON text
     */
    public String toJson() {
        return new String(toJsonBytes(), StandardCharsets.UTF_8);
    }

    /**
     * {@link #toJson()} as UTF-8 bytes (the {@code customer.totals} record value).
     *
     * @return the JSON bytes
     */
    public byte[] toJsonBytes() {
        return Json.write(Json.MAPPER.createObjectNode()
                .put("customer_id", customerId)
                .put("orders", orders)
                .put("total", total.toPlainString()));
    }

    /**
     * Parses a {@code customer.totals} value. {@code total} may be a decimal string or a JSON
     * number (read exactly, at most 2 decimals); unknown fields are ignored (claim G10). This is
     * a strict shape check only: range rules (e.g. {@code orders} = 0 goes to the DLQ) belong to
     * the sink.
     *
     * @param json the record value, UTF-8 JSON, not null
     * @return the totals
     * @throws InvalidJsonException if not JSON, not an object, or {@code customer_id},
     *                              {@code orders} or {@code total} is missing, null or
     *                              non-numeric; the message names the field
     */
    public static CustomerTotals fromJson(byte[] json) {
        JsonNode node = Json.readObject(Objects.requireNonNull(json, "json"), WHAT);
        return new CustomerTotals(
                Json.intField(node, "customer_id", WHAT),
                Json.longField(node, "orders", WHAT),
                Json.moneyField(node, "total", WHAT));
    }

    /**
     * {@link #fromJson(byte[])} for a string.
     *
     * @param json the record value as JSON text, not null
     * @return the totals
     * @throws InvalidJsonException as {@link #fromJson(byte[])}
     */
    public static CustomerTotals fromJson(String json) {
        return fromJson(json.getBytes(StandardCharsets.UTF_8));
    }
}
