package dev.seams.inbox;

import dev.seams.consumer.RunStoppedException;

/**
 * A record of the inbox sink's topic whose value is not an order event. The inbox sink does not
 * skip it (that would lose it silently, claim B2): it stops without committing the poll that holds
 * it ({@link RunStoppedException.Stop#UNPROCESSABLE_RECORD}), and {@code seams inbox} exits with
 * status 3. The message names topic, partition, offset and the parser's reason. Every form of a
 * deletion Debezium writes is an order event or a counted tombstone, never this (claim B4).
 */
public final class UnprocessableRecordException extends RunStoppedException {

    private static final long serialVersionUID = 1L;

    /**
     * @param message where the record is and why it cannot be processed
     * @param cause   the parse error
     */
    public UnprocessableRecordException(String message, Throwable cause) {
        super(Stop.UNPROCESSABLE_RECORD, message, cause);
    }
}
