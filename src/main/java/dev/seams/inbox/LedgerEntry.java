package dev.seams.inbox;

import java.math.BigDecimal;
import java.util.Objects;

/**
 * One order event as the inbox sink writes it: a row of {@code order_ledger} and, in mode
 * {@link InboxMode#INBOX}, a row of the topic's processed-keys table (claim B4).
 *
 * @param key        the message key the duplicate check uses ({@link MessageKeys#of})
 * @param orderId    the order's id ({@code order_id})
 * @param customerId its customer ({@code customer_id})
 * @param amount     its amount, exact, scale 2
 * @param partition  the Kafka partition it was read from
 * @param offset     its offset there
 */
public record LedgerEntry(String key, long orderId, int customerId, BigDecimal amount, int partition, long offset) {

    /** @throws NullPointerException if key or amount is null */
    public LedgerEntry {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(amount, "amount");
    }
}
