package dev.seams.sink;

import dev.seams.wire.TopicNames;

/**
 * What the sink reads and where it writes (docs/sink.md).
 *
 * <ul>
 *   <li>{@link #TOTALS}: the changelog {@code customer.totals} into {@code raw_totals} (MergeTree)
 *       and {@code customer_totals} (ReplacingMergeTree(version)) — claims G1, G2, G7, G8.</li>
 *   <li>{@link #DEDUP_DEMO}: the order events {@code orders.events} into {@code order_counts_raw}
 *       (SummingMergeTree, cnt=1 per event) and {@code order_dedup} (ReplacingMergeTree(version) by
 *       order_id) — claim G3, the source's "2N против N" experiment.</li>
 * </ul>
 */
public enum SinkMode {
    TOTALS("totals", TopicNames.CUSTOMER_TOTALS),
    DEDUP_DEMO("dedup-demo", TopicNames.ORDERS_EVENTS);

    private final String cliName;
    private final String topic;

    SinkMode(String cliName, String topic) {
        this.cliName = cliName;
        this.topic = topic;
    }

    /** @return the name used on the command line and in the summary line, e.g. {@code dedup-demo} */
    public String cliName() {
        return cliName;
    }

    /** @return the Kafka topic this mode consumes */
    public String topic() {
        return topic;
    }

    /**
     * @param name a command-line name ({@code totals} or {@code dedup-demo})
     * @return the mode
     * @throws IllegalArgumentException for any other name
     */
    public static SinkMode fromCliName(String name) {
        for (SinkMode mode : values()) {
            if (mode.cliName.equals(name)) {
                return mode;
            }
        }
        throw new IllegalArgumentException("unknown sink mode '" + name + "' (expected totals or dedup-demo)");
    }
}
