package dev.seams.inbox;

import java.math.BigDecimal;
import java.util.Objects;

/**
 * One order change as the inbox sink writes it: a row of {@code order_ledger} and, in mode
 * {@link InboxMode#INBOX}, a row of the topic's processed-keys table (claim B4).
 *
 * @param key        the change key the duplicate check uses ({@link ChangeKeys})
 * @param orderId    the order's id ({@code order_id})
 * @param customerId its customer ({@code customer_id}); for a deletion, the customer it had
 * @param amount     its amount, exact, every decimal the source holds (negative for a refund; B15)
 * @param op         Debezium's operation ({@code c}, {@code u}, {@code d}, {@code r}), or null if not sent
 * @param lsn        the change's source LSN ({@code __lsn}), or null if not sent
 * @param deleted    whether the change deleted the order
 * @param partition  the Kafka partition it was read from
 * @param offset     its offset there
 */
public record LedgerEntry(String key, long orderId, long customerId, BigDecimal amount, String op, Long lsn,
                          boolean deleted, int partition, long offset) {

    /** @throws NullPointerException if key or amount is null */
    public LedgerEntry {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(amount, "amount");
    }
}
