package dev.seams.sink;

import dev.seams.consumer.RunStoppedException;

/**
 * A value the source legitimately holds that a target column cannot hold exactly — e.g. an amount
 * of {@code 1.005} after {@code ALTER COLUMN amount TYPE numeric(14,3)} in PostgreSQL, and
 * {@code customer_totals.total Decimal(18, 2)} in ClickHouse (claim B15). It is no bad record (it
 * never goes to the DLQ: B11, nothing the source produces is rejected) and it must not be rounded
 * (a server may cut the extra digits silently): the run stops before writing anything of its batch
 * ({@link RunStoppedException.Stop#TARGET_TOO_NARROW}), and the message says which column to widen.
 */
public final class TargetTooNarrowException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** @param message the value, the column, its type, what does not fit and the ALTER that carries it */
    public TargetTooNarrowException(String message) {
        super(message);
    }
}
