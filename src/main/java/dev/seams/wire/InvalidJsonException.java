package dev.seams.wire;

import org.apache.kafka.common.errors.SerializationException;

/**
 * A record value that is not the JSON shape this package expects: not JSON at all, not a JSON
 * object, or a required field that is missing, null, of the wrong type or out of range.
 *
 * <p>The message always names the kind of value ({@code "order event"}, {@code "customer totals"})
 * and, when one field is at fault, that field and the offending value, e.g.
 * {@code order event: field "amount" is not a decimal: "abc"}. Nothing is ever replaced by a
 * silent default (claims B2, G10).
 *
 * <p>It extends Kafka's {@link SerializationException}, so when a deserializer throws it Kafka
 * Streams routes the record to the configured deserialization exception handler
 * (see {@code streams.StreamsSettings}).
 */
public class InvalidJsonException extends SerializationException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message what is wrong, naming the value kind and the field
     * @param cause   the underlying parse error, or {@code null}
     */
    public InvalidJsonException(String message, Throwable cause) {
        super(message, cause);
    }
}
