package dev.seams.wire;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Objects;

/**
 * One record of {@code customer.totals}: the cumulative snapshot of one customer's orders after
 * the latest change (claim G2: the topic is a changelog of snapshots, not of deltas), with the
 * version the sink's ReplacingMergeTree keeps the highest of (claim B10).
 *
 * <p>JSON shape, field order fixed:
 * <pre>{"customer_id":3,"orders":27,"total":"1112.08","version":42}</pre>
 *
 * <p>The version is a per-customer sequence kept in the aggregate: every application of the
 * adder or the subtractor adds 1 ({@link #plus}, {@link #minus}). It is therefore monotonic per
 * customer, identical when ds-streams re-processes the same {@code orders.events} from the start,
 * and independent of the partitions and offsets of {@code customer.totals} (an offset restarts when
 * the topic is re-created and jumps when a key moves partition; docs/sink.md). An UPDATE
 * that keeps the customer goes through subtractor and adder in one step (Kafka Streams >= 3.5,
 * KIP-904) and emits one snapshot whose version is 2 above the previous one; one that moves the
 * order emits one snapshot per customer, each 1 above that customer's previous one; a re-delivered
 * identical event (Debezium re-sending after a Connect crash) also runs subtractor and adder and
 * emits the unchanged snapshot again, 2 versions on — harmless to FINAL, never a step back.
 *
 * @param customerId the customer ({@code customer_id})
 * @param orders     how many of the customer's orders currently exist, >= 0; 0 after all were
 *                   deleted or moved away (claim B11)
 * @param total      the sum of their amounts in currency units, exact: at least scale 2 and every
 *                   decimal the source holds (claim B15); may be negative (refunds); 0.00 when
 *                   {@code orders} is 0
 * @param version    changes applied to this customer's aggregate so far; >= 1 in every record
 *                   ds-streams writes (0 only for {@link #empty()})
 */
public record CustomerTotals(long customerId, long orders, BigDecimal total, long version) {

    private static final String WHAT = "customer totals";
    private static final FlatJson FLAT = new FlatJson(List.of("customer_id", "orders", "version"), "total");

    /**
     * Puts {@code total} in money's canonical form (at least two decimals, trailing zeros beyond
     * them dropped), never rounding.
     *
     * @throws NullPointerException if {@code total} is null
     */
    public CustomerTotals {
        total = Json.money(Objects.requireNonNull(total, "total"));
    }

    /**
     * The aggregate of a customer with no orders yet: 0 orders, total 0.00, version 0. Its
     * customer id is taken from the first order added (see {@link #plus(OrderEvent)}).
     *
     * @return the empty aggregate for customer 0
     */
    public static CustomerTotals empty() {
        return new CustomerTotals(0, 0, BigDecimal.ZERO, 0);
    }

    /**
     * Adds one order (the Streams aggregate's adder; claim B3).
     *
     * @param order an order of this customer
     * @return the totals with the order counted, its amount added and the version + 1;
     *     customer id = the order's
     */
    public CustomerTotals plus(OrderEvent order) {
        return new CustomerTotals(order.customerId(), orders + 1, total.add(order.amount()), version + 1);
    }

    /**
     * Removes one order previously added (the Streams aggregate's subtractor: the old value of an
     * updated, moved or deleted order; claim B3).
     *
     * @param order an order of this customer that was counted before
     * @return the totals without it and the version + 1; customer id = the order's
     */
    public CustomerTotals minus(OrderEvent order) {
        return new CustomerTotals(order.customerId(), orders - 1, total.subtract(order.amount()), version + 1);
    }

    /**
     * Serializes to the exact JSON text {@code {"customer_id":3,"orders":27,"total":"1112.08","version":42}}:
     * compact, fields in this order, total as a plain decimal string with at least 2 decimals (more when the source
     * holds more, claim B15).
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
                .put("total", total.toPlainString())
                .put("version", version));
    }

    /**
     * Parses a {@code customer.totals} value. {@code total} may be a decimal string or a JSON
     * number (read exactly, every decimal kept); unknown fields are ignored (claim G10). This is
     * a strict shape check only: the rules on values (e.g. {@code orders} &lt; 0, a version
     * &lt; 1) belong to the sink ({@code TotalsValidator}).
     *
     * @param json the record value, UTF-8 JSON, not null
     * @return the totals
     * @throws InvalidJsonException if not JSON, not an object, or {@code customer_id},
     *                              {@code orders}, {@code total} or {@code version} is missing,
     *                              null or non-numeric; the message names the field
     */
    public static CustomerTotals fromJson(byte[] json) {
        CustomerTotals flat = fromFlat(Objects.requireNonNull(json, "json"));
        return flat != null ? flat : fromTree(json);   // the regular case is read without a tree
    }

    /** @return the regular case read without a tree, or null ({@link FlatJson#read}) */
    static CustomerTotals fromFlat(byte[] json) {
        FlatJson.Values flat = FLAT.read(json);
        return flat == null ? null : new CustomerTotals(flat.integers()[0], flat.integers()[1], flat.money(), flat.integers()[2]);
    }

    /** {@link #fromJson(byte[])} through the tree readers, whatever the input: their errors are the contract. */
    static CustomerTotals fromTree(byte[] json) {
        JsonNode node = Json.readObject(json, WHAT);
        return new CustomerTotals(
                Json.longField(node, "customer_id", WHAT),
                Json.longField(node, "orders", WHAT),
                Json.moneyField(node, "total", WHAT),
                Json.longField(node, "version", WHAT));
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
