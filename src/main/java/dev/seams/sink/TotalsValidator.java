package dev.seams.sink;

import dev.seams.streams.CustomerTotals;
import dev.seams.streams.InvalidJsonException;
import java.util.Objects;

/**
 * The sink's contract for one {@code customer.totals} record (claims G10, G11; seed sections
 * "Эволюция схемы сквозь звенья" and "DLQ: битое событие не роняет пайплайн"). A record passes
 * only if it is a real cumulative snapshot as ds-streams writes it; otherwise the sink sends it to
 * the DLQ with the reason this class gives. The rules, in the order they are checked, and the
 * exact reasons:
 * <ol>
 *   <li>a value must be present: {@code null value (tombstone) where a totals snapshot was expected};</li>
 *   <li>at most {@code maxValueBytes} bytes (a real snapshot is under 100):
 *       {@code value too large: 1000000 bytes > limit 65536};</li>
 *   <li>UTF-8 JSON object with {@code customer_id} (32-bit integer), {@code orders} (64-bit integer)
 *       and {@code total} (a decimal string or JSON number with at most 2 decimal places that fits
 *       Decimal(18,2)), parsed strictly by {@link CustomerTotals#fromJson(byte[])} — no missing field
 *       becomes a default zero: e.g. {@code customer totals: not valid JSON: …},
 *       {@code customer totals: not a JSON object: [1,2]},
 *       {@code customer totals: field "orders" is missing}, {@code customer totals: field "total" is null},
 *       {@code customer totals: field "total" has more than 2 decimal places: "12.345"};</li>
 *   <li>{@code customer_id} inside the configured range ({@code --customers}):
 *       {@code customer_id 0 outside the configured range 1..5};</li>
 *   <li>{@code orders >= 1} (a snapshot counts at least the order that produced it):
 *       {@code orders must be >= 1, got 0};</li>
 *   <li>{@code total >= 0}: {@code total must not be negative, got -1.00}.</li>
 * </ol>
 * So a missing field and an explicit zero are told apart: {@code {"customer_id":1,"total":"5.00"}}
 * is rejected as {@code field "orders" is missing}, {@code {"customer_id":1,"orders":0,"total":"5.00"}}
 * as {@code orders must be >= 1, got 0}, and an explicit {@code "total":"0.00"} is valid. Unknown
 * fields (e.g. {@code "currency":"RUB"}) are ignored (G10). Stateless and thread-safe.
 */
public final class TotalsValidator {

    /** Default of {@code --max-value-bytes}: 64 KiB, several hundred times a real snapshot. */
    public static final int DEFAULT_MAX_VALUE_BYTES = 65_536;

    private final CustomerRange customers;
    private final int maxValueBytes;

    /**
     * @param customers     accepted customer ids ({@code --customers})
     * @param maxValueBytes largest accepted value in bytes ({@code --max-value-bytes}), >= 1
     * @throws IllegalArgumentException if maxValueBytes < 1
     */
    public TotalsValidator(CustomerRange customers, int maxValueBytes) {
        this.customers = Objects.requireNonNull(customers, "customers");
        if (maxValueBytes < 1) {
            throw new IllegalArgumentException("max value bytes must be >= 1, got " + maxValueBytes);
        }
        this.maxValueBytes = maxValueBytes;
    }

    /**
     * Checks one record value.
     *
     * @param value the record value as read, may be null (a tombstone)
     * @return the snapshot, total with scale 2
     * @throws BadRecordException with the reason of the first rule broken (see the class comment)
     */
    public CustomerTotals validate(byte[] value) throws BadRecordException {
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
        if (!customers.contains(totals.customerId())) {
            throw new BadRecordException("customer_id " + totals.customerId() + " outside the configured range " + customers);
        }
        if (totals.orders() < 1) {
            throw new BadRecordException("orders must be >= 1, got " + totals.orders());
        }
        if (totals.total().signum() < 0) {
            throw new BadRecordException("total must not be negative, got " + totals.total().toPlainString());
        }
        return totals;
    }
}
