package dev.seams.wire;

/**
 * The pipeline's topic names, declared once (docs/event-contract.md): what Debezium writes, what ds-streams reads
 * and writes, what the sinks read, and where each one's dead letters go.
 */
public final class TopicNames {

    /** Debezium's order events (the connector's {@code orders.events} route; ds-streams' and the inbox's input). */
    public static final String ORDERS_EVENTS = "orders.events";
    /** Dead letters of {@link #ORDERS_EVENTS}: records ds-streams cannot read as an {@link OrderEvent} (claim B2). */
    public static final String ORDERS_EVENTS_DLQ = "orders.events.dlq";
    /** ds-streams' per-customer totals changelog (output; ds-sink's input in mode totals). */
    public static final String CUSTOMER_TOTALS = "customer.totals";
    /** Dead letters of {@link #CUSTOMER_TOTALS}: records the sink rejects (claims G10, G11). */
    public static final String CUSTOMER_TOTALS_DLQ = deadLetters(CUSTOMER_TOTALS);

    private TopicNames() {
    }

    /**
     * @param topic a topic a sink consumes
     * @return its default dead-letter topic, {@code <topic>.dlq} (e.g. {@code customer.totals.dlq})
     */
    public static String deadLetters(String topic) {
        return topic + ".dlq";
    }
}
