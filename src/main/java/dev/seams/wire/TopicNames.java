package dev.seams.wire;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * The pipeline's topic names, declared once (docs/event-contract.md): what Debezium writes, what ds-streams reads
 * and writes, what the sinks read, and where each one's dead letters go. The constants are the shipped names; an
 * instance puts a prefix before each of them, so that an isolated run of the pipeline can share a cluster with
 * others (docs/stand.md "An existing stand": every name a run creates carries the run's prefix).
 *
 * @param prefix put before every topic name; empty for the shipped names ({@link #SHIPPED})
 */
public record TopicNames(String prefix) {

    /** Debezium's order events (the connector's {@code orders.events} route; ds-streams' and the inbox's input). */
    public static final String ORDERS_EVENTS = "orders.events";
    /** Dead letters of {@link #ORDERS_EVENTS}: records ds-streams cannot read as an {@link OrderEvent} (claim B2). */
    public static final String ORDERS_EVENTS_DLQ = "orders.events.dlq";
    /** ds-streams' per-customer totals changelog (output; ds-sink's input in mode totals). */
    public static final String CUSTOMER_TOTALS = "customer.totals";
    /** Dead letters of {@link #CUSTOMER_TOTALS}: records the sink rejects (claims G10, G11). */
    public static final String CUSTOMER_TOTALS_DLQ = deadLetters(CUSTOMER_TOTALS);
    /** What a topic name may hold besides its length limit (Kafka's {@code Topic.validate}): ASCII letters, digits, {@code . _ -}. */
    private static final Pattern LEGAL = Pattern.compile("[a-zA-Z0-9._-]*");
    /** The shipped names, without a prefix (declared after {@code LEGAL}, which its construction reads). */
    public static final TopicNames SHIPPED = new TopicNames("");

    /**
     * @throws NullPointerException     if prefix is null
     * @throws IllegalArgumentException if it holds a character Kafka refuses in a topic name
     */
    public TopicNames {
        Objects.requireNonNull(prefix, "prefix");
        if (!LEGAL.matcher(prefix).matches()) {
            throw new IllegalArgumentException("a topic prefix may hold ASCII letters, digits, '.', '_' and '-' only, got '"
                    + prefix + "'");
        }
    }

    /** @return {@link #ORDERS_EVENTS} with the prefix */
    public String ordersEvents() {
        return prefix + ORDERS_EVENTS;
    }

    /** @return {@link #ORDERS_EVENTS_DLQ} with the prefix */
    public String ordersEventsDlq() {
        return prefix + ORDERS_EVENTS_DLQ;
    }

    /** @return {@link #CUSTOMER_TOTALS} with the prefix */
    public String customerTotals() {
        return prefix + CUSTOMER_TOTALS;
    }

    /** @return {@link #CUSTOMER_TOTALS_DLQ} with the prefix */
    public String customerTotalsDlq() {
        return prefix + CUSTOMER_TOTALS_DLQ;
    }

    /**
     * @param topic a topic a sink consumes
     * @return its default dead-letter topic, {@code <topic>.dlq} (e.g. {@code customer.totals.dlq})
     */
    public static String deadLetters(String topic) {
        return topic + ".dlq";
    }
}
