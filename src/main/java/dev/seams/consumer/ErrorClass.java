package dev.seams.consumer;

import java.util.Locale;

/**
 * How a failure of the sinks' targets or of Kafka is handled (docs/sink.md; claims B5,
 * B12). Classified by {@code sink.ClickHouseErrors}, {@code inbox.PgErrors} and {@link KafkaErrors}.
 */
public enum ErrorClass {
    /** Transient: retried with {@link Backoff}, nothing committed meanwhile; the run goes on. */
    RETRIABLE,
    /** Will fail again the same way: the run stops with a distinct exit status and the batch's position. */
    PERMANENT;

    /** @return {@code retriable} or {@code permanent}, as the log lines write it */
    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT);
    }
}
