package dev.seams.sink;

import dev.seams.wire.CustomerTotals;
import dev.seams.wire.InvalidJsonException;
import java.nio.charset.StandardCharsets;

/**
 * The sink's contract for one {@code customer.totals} record (claims G10, G11, B10, B11; seed
 * sections "Эволюция схемы сквозь звенья" and "DLQ: битое событие не роняет пайплайн"). The rule
 * of the whole kind: <b>the sink never rejects what the source legitimately produces</b> (B11) — a
 * customer emptied by deletes or moves (0 orders, 0.00) and a refund (a negative total, which
 * PostgreSQL's {@code numeric(12,2)} allows) are valid. A record is rejected only if ds-streams can
 * never have written it; the sink then sends it to the DLQ with the reason this class gives. The
 * rules, in the order they are checked, and the exact reasons:
 * <ol>
 *   <li>a value must be present: {@code null value (tombstone) where a totals snapshot was expected};</li>
 *   <li>at most {@code maxValueBytes} bytes (a real snapshot is under 100):
 *       {@code value too large: 1000000 bytes > limit 65536};</li>
 *   <li>UTF-8 JSON object with {@code customer_id} (64-bit integer: PostgreSQL's {@code integer} or {@code bigint}, B15), {@code orders} (64-bit integer),
 *       {@code total} (a decimal string or JSON number, exact, with as many decimals as the source
 *       holds: whether the target column can hold them is {@link TargetColumns}' check, which stops
 *       the run rather than reject a legitimate value, B15) and {@code version} (64-bit integer), parsed strictly by
 *       {@link CustomerTotals#fromJson(byte[])} — no missing field becomes a default zero: e.g.
 *       {@code customer totals: not valid JSON: …}, {@code customer totals: not a JSON object: [1,2]},
 *       {@code customer totals: field "orders" is missing}, {@code customer totals: field "total" is null},
 *       {@code customer totals: field "version" is missing},
 *       {@code customer totals: field "total" is not a decimal: "abc"};</li>
 *   <li>the Kafka key is the record's customer_id as text (ds-streams keys by it, B10):
 *       {@code record key "7" does not match customer_id 3}, {@code record key null does not match customer_id 3};</li>
 *   <li>only with the opt-in rule {@code --customers}: {@code customer_id} inside that range:
 *       {@code customer_id 0 outside the configured range 1..5};</li>
 *   <li>{@code orders >= 0}: {@code orders must be >= 0, got -2};</li>
 *   <li>{@code version >= 1} (every snapshot follows at least one change): {@code version must be >= 1, got 0};</li>
 *   <li>a snapshot of no orders totals 0.00: {@code orders is 0 but total is 5.00}.</li>
 * </ol>
 * So a missing field and an explicit zero are told apart: {@code {"customer_id":1,"total":"5.00",…}}
 * is rejected as {@code field "orders" is missing}, {@code {"customer_id":1,"orders":0,"total":"5.00",…}}
 * as {@code orders is 0 but total is 5.00}, and {@code "orders":0,"total":"0.00"} is valid. Unknown
 * fields (e.g. {@code "currency":"RUB"}) are ignored (G10). Stateless and thread-safe.
 */
public final class TotalsValidator {

    /** Default of {@code --max-value-bytes}: 64 KiB, several hundred times a real snapshot. */
    public static final int DEFAULT_MAX_VALUE_BYTES = 65_536;

    private final CustomerRange customers;
    private final int maxValueBytes;

    /**
     * @param customers     accepted customer ids ({@code --customers}), or null for no range rule
     *                      (the default: a range is a property of a stand, not of a sink)
     * @param maxValueBytes largest accepted value in bytes ({@code --max-value-bytes}), >= 1
     * @throws IllegalArgumentException if maxValueBytes < 1
     */
    public TotalsValidator(CustomerRange customers, int maxValueBytes) {
        if (maxValueBytes < 1) {
            throw new IllegalArgumentException("max value bytes must be >= 1, got " + maxValueBytes);
        }
        this.customers = customers;
        this.maxValueBytes = maxValueBytes;
    }

    /**
     * Checks one record.
     *
     * @param key   the record key as read, may be null
     * @param value the record value as read, may be null (a tombstone)
     * @return the snapshot, its total in money's canonical form (at least scale 2, never rounded)
     * @throws BadRecordException with the reason of the first rule broken (see the class comment)
     */
    public CustomerTotals validate(byte[] key, byte[] value) throws BadRecordException {
        if (value == null) {
            throw new BadRecordException("null value (tombstone) where a totals snapshot was expected");
        }
        if (value.length > maxValueBytes) {
            throw new BadRecordException("value too large: " + value.length + " bytes > limit " + maxValueBytes);
        }
        CustomerTotals totals;
        try {
            totals = CustomerTotals.fromJson(value);
        } catch (InvalidJsonException e) {
            throw new BadRecordException(e.getMessage());
        }
        String expectedKey = Long.toString(totals.customerId());
        if (key == null || !expectedKey.equals(new String(key, StandardCharsets.UTF_8))) {
            throw new BadRecordException("record key " + (key == null ? "null" : "\"" + new String(key, StandardCharsets.UTF_8) + "\"")
                    + " does not match customer_id " + totals.customerId());
        }
        if (customers != null && !customers.contains(totals.customerId())) {
            throw new BadRecordException("customer_id " + totals.customerId() + " outside the configured range " + customers);
        }
        if (totals.orders() < 0) {
            throw new BadRecordException("orders must be >= 0, got " + totals.orders());
        }
        if (totals.version() < 1) {
            throw new BadRecordException("version must be >= 1, got " + totals.version());
        }
        if (totals.orders() == 0 && totals.total().signum() != 0) {
            throw new BadRecordException("orders is 0 but total is " + totals.total().toPlainString());
        }
        return totals;
    }
}
