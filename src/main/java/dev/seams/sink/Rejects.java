package dev.seams.sink;

import dev.seams.wire.TopicNames;
import java.util.Objects;

/**
 * What the sink rejects and where rejected records go (claims G10, G11; docs/sink.md): the opt-in customer rule, the
 * value size limit, and the dead-letter topic.
 *
 * @param customers     the opt-in rule {@code --customers} (mode totals; G10); null for none, the default
 * @param dlqTopic      where rejected records go ({@code --dlq-topic}; default {@code <topic>.dlq}, i.e.
 *                      {@code customer.totals.dlq}; G11)
 * @param maxValueBytes largest accepted record value in bytes, mode totals ({@code --max-value-bytes}, default
 *                      {@value TotalsValidator#DEFAULT_MAX_VALUE_BYTES})
 */
public record Rejects(CustomerRange customers, String dlqTopic, int maxValueBytes) {

    /**
     * @throws NullPointerException     if the dead-letter topic is null
     * @throws IllegalArgumentException if maxValueBytes < 1
     */
    public Rejects {
        Objects.requireNonNull(dlqTopic, "dlqTopic");
        if (maxValueBytes < 1) {
            throw new IllegalArgumentException("max value bytes must be >= 1, got " + maxValueBytes);
        }
    }

    /**
     * @param mode a sink mode
     * @return every customer accepted, dead letters into {@code <mode topic>.dlq}, the default value limit
     */
    public static Rejects defaults(SinkMode mode) {
        return new Rejects(null, TopicNames.deadLetters(mode.topic()), TotalsValidator.DEFAULT_MAX_VALUE_BYTES);
    }

    /** @return a copy with another opt-in customer range, or none for null */
    public Rejects withCustomers(CustomerRange value) {
        return new Rejects(value, dlqTopic, maxValueBytes);
    }

    /** @return a copy writing rejected records to another topic */
    public Rejects withDlqTopic(String value) {
        return new Rejects(customers, value, maxValueBytes);
    }
}
