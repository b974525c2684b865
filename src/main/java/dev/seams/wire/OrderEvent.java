package dev.seams.wire;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.Set;

/**
 * One change of PostgreSQL's {@code orders} table as Debezium writes it to {@code orders.events}
 * (connector {@code containers/debezium/orders-connector.json}: {@code ExtractNewRecordState} with
 * {@code add.fields=op,lsn,source.ts_ms} and {@code delete.tombstone.handling.mode=rewrite}, JSON
 * without schema, {@code decimal.handling.mode=string}). The record key is the order id as JSON
 * text (bytes {@code 1}). Values, one per change:
 * <pre>
 * INSERT {"order_id":90001,"customer_id":901,"amount":"10.00","created_at":"…","__deleted":"false","__op":"c","__lsn":26508912,"__source_ts_ms":1796001371079}
 * UPDATE {"order_id":90001,"customer_id":902,"amount":"99.00","created_at":"…","__deleted":"false","__op":"u","__lsn":26509416,"__source_ts_ms":1796001371084}
 * DELETE {"order_id":90001,"customer_id":902,"amount":"99.00","created_at":"…","__deleted":"true","__op":"d","__lsn":26509600,"__source_ts_ms":1796001371084}
 * </pre>
 * (captured on the offline stand, Debezium 3.5.0.Final; docs/event-contract.md)
 * (the snapshot writes {@code "__op":"r"}; a DELETE carries the old row because the table has
 * {@code REPLICA IDENTITY FULL} — under PostgreSQL's default identity only its key, every other column
 * its type's zero, so a consumer takes a deletion by its key alone, claim B16; rewrite mode drops
 * Debezium's tombstone). The older forms of a
 * deletion — a Kafka tombstone (null value) and the 4-byte JSON value {@code null} that
 * {@code delete.tombstone.handling.mode=tombstone} writes — carry no row: {@link #ofValue} returns
 * null for them and {@link #isDeletion} is true.
 *
 * @param orderId    the order's primary key ({@code order_id})
 * @param customerId the customer the order belongs to ({@code customer_id}); for a deletion, the
 *                   customer it belonged to
 * @param amount     the order's amount in currency units, exact, at least scale 2 and every decimal the source holds
 *                   (claim B15); negative
 *                   for a refund (the source's DDL allows it; claim B11)
 * @param deleted    whether this change deleted the order ({@code "__deleted":"true"} or
 *                   {@code "__op":"d"}); the row is then the one before the delete
 * @param lsn        the change's PostgreSQL log sequence number ({@code __lsn}), monotonic per
 *                   order, all snapshot ({@code r}) records sharing the snapshot's LSN; null when
 *                   the connector does not add it
 * @param op         Debezium's operation ({@code __op}): {@code c}, {@code u}, {@code d} or
 *                   {@code r}; null when the connector does not add it
 */
public record OrderEvent(long orderId, long customerId, BigDecimal amount, boolean deleted, Long lsn, String op) {

    private static final String WHAT = "order event";
    /** Debezium's rewrite flag ({@code delete.tombstone.handling.mode=rewrite}). */
    static final String DELETED_FIELD = "__deleted";
    /** The change's source LSN ({@code add.fields=lsn}). */
    static final String LSN_FIELD = "__lsn";
    /** The change's operation ({@code add.fields=op}). */
    static final String OP_FIELD = "__op";
    private static final Set<String> OPS = Set.of("c", "u", "d", "r");

    /**
     * Puts {@code amount} in money's canonical form (at least two decimals, trailing zeros beyond
     * them dropped), never rounding.
     *
     * @throws NullPointerException     if {@code amount} is null
     * @throws IllegalArgumentException if {@code op} is not one of c, u, d, r, or {@code lsn} is negative
     */
    public OrderEvent {
        amount = Json.money(Objects.requireNonNull(amount, "amount"));
        if (op != null && !OPS.contains(op)) {
            throw new IllegalArgumentException("op must be one of c, u, d, r, got " + op);
        }
        if (lsn != null && lsn < 0) {
            throw new IllegalArgumentException("lsn must be >= 0, got " + lsn);
        }
    }

    /** An insert or update without source position (the connector's older output, and tests). */
    public OrderEvent(long orderId, long customerId, BigDecimal amount) {
        this(orderId, customerId, amount, false, null, null);
    }

    /**
     * Parses one {@code orders.events} value that holds a row.
     *
     * <p>{@code order_id} and {@code customer_id} must be integral JSON numbers of 64 bits (PostgreSQL's
     * {@code bigint}; an {@code integer} column holds a subset, claim B15);
     * {@code amount} may be a decimal string or a JSON number, read exactly (never via
     * {@code double}), with every decimal it has (claim B15). The optional metadata fields must be
     * well-formed when present: {@code __deleted} {@code "true"}/{@code "false"} (or a JSON
     * boolean), {@code __lsn} a 64-bit integer >= 0, {@code __op} one of {@code c u d r}. Every
     * other field (e.g. a later {@code "currency":"RUB"}, {@code __source_ts_ms}) is ignored (claim G9).
     *
     * @param json the record value, UTF-8 JSON; not {@code null}
     * @return the event
     * @throws InvalidJsonException if the bytes are not JSON, not an object (the literal
     *                              {@code null} included), or a field is missing, null or
     *                              malformed; the message names the field (claim B2: invalid
     *                              input is never silently defaulted)
     */
    public static OrderEvent parse(byte[] json) {
        return of(Json.readObject(Objects.requireNonNull(json, "json"), WHAT));
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
     * Parses any {@code orders.events} value, the row-less deletion forms included.
     *
     * @param value the record value, may be null
     * @return null for a Kafka tombstone (null value) or the JSON literal {@code null}; otherwise
     *     the event, as {@link #parse(byte[])} (a rewritten DELETE has {@link #deleted()} true)
     * @throws InvalidJsonException as {@link #parse(byte[])}
     */
    public static OrderEvent ofValue(byte[] value) {
        if (value == null) {
            return null;
        }
        JsonNode node = Json.readObjectOrNull(value, WHAT);
        return node == null ? null : of(node);
    }

    /**
     * Whether an {@code orders.events} value marks a deleted order: a Kafka tombstone (null value),
     * the JSON literal {@code null} (surrounding whitespace allowed), or a row with
     * {@code "__deleted":"true"} or {@code "__op":"d"} (the rewrite form).
     *
     * @param value the record value, may be null
     * @return true for any of the three deletion forms; false for any other value, including one
     *     that is not a valid order event (the parser reports that)
     */
    public static boolean isDeletion(byte[] value) {
        try {
            OrderEvent event = ofValue(value);
            return event == null || event.deleted();
        } catch (InvalidJsonException e) {
            return false;
        }
    }

    private static OrderEvent of(JsonNode node) {
        String op = Json.optionalTextField(node, OP_FIELD, WHAT);
        if (op != null && !OPS.contains(op)) {
            throw Json.invalid(WHAT, "field \"" + OP_FIELD + "\" is not one of c, u, d, r: \"" + op + "\"");
        }
        Long lsn = Json.optionalLongField(node, LSN_FIELD, WHAT);
        if (lsn != null && lsn < 0) {
            throw Json.invalid(WHAT, "field \"" + LSN_FIELD + "\" is negative: " + lsn);
        }
        boolean deleted = Json.optionalFlagField(node, DELETED_FIELD, WHAT) || "d".equals(op);
        return new OrderEvent(
                Json.longField(node, "order_id", WHAT),
                Json.longField(node, "customer_id", WHAT),
                Json.moneyField(node, "amount", WHAT),
                deleted, lsn, op);
    }

    /**
     * Serializes this event to UTF-8 JSON in the shape {@link #parse(byte[])} reads, e.g.
     * {@code {"order_id":1,"customer_id":2,"amount":"59.68","__op":"c","__lsn":24023128}}
     * (amount as a plain decimal string in money's canonical form, at least 2 decimals; {@code __deleted}, {@code __op}, {@code __lsn} only
     * when set). Used on the Streams repartition topic and in the {@code orders-by-id} store.
     *
     * @return the JSON bytes
     */
    public byte[] toJsonBytes() {
        ObjectNode node = Json.MAPPER.createObjectNode()
                .put("order_id", orderId)
                .put("customer_id", customerId)
                .put("amount", amount.toPlainString());
        if (deleted) {
            node.put(DELETED_FIELD, "true");
        }
        if (op != null) {
            node.put(OP_FIELD, op);
        }
        if (lsn != null) {
            node.put(LSN_FIELD, lsn);
        }
        return Json.write(node);
    }
}
