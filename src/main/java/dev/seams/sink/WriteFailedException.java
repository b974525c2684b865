package dev.seams.sink;

import dev.seams.consumer.Backoff;
import dev.seams.consumer.Classification;
import dev.seams.consumer.RunStoppedException;
import java.util.Objects;

/**
 * A batch write that its target did not acknowledge — a ClickHouse insert or a dead-letter write —
 * with the failure's {@link Classification}. Nothing of the batch may be committed then: a
 * retriable failure re-reads the batch after a {@link Backoff}, a permanent one stops the run
 * ({@link RunStoppedException}).
 */
public final class WriteFailedException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final transient Classification classification;

    /**
     * @param what           the write, e.g. {@code insert of 57 rows into customer_totals}
     * @param classification its class and name
     * @param cause          what the client threw
     */
    public WriteFailedException(String what, Classification classification, Throwable cause) {
        super(what + " failed (" + Objects.requireNonNull(classification, "classification") + "): " + cause, cause);
        this.classification = classification;
    }

    /** @return the failure's class and name */
    public Classification classification() {
        return classification;
    }
}
