package dev.seams.sink;

/**
 * A record the sink cannot turn into rows. The message is the precise reason, e.g.
 * {@code "customer_id missing"}; it is logged with the record's origin and counted as {@code bad}.
 */
public final class BadRecordException extends Exception {

    /** @param reason the precise reason, without the record's origin */
    public BadRecordException(String reason) {
        super(reason);
    }
}
