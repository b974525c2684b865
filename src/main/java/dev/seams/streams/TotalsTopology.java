package dev.seams.streams;

import dev.seams.wire.CustomerTotals;
import dev.seams.wire.OrderEvent;
import dev.seams.wire.TopicNames;
import java.util.List;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The ds-streams topology: per-customer order count and amount sum from Debezium's order events.
 *
 * <pre>
 * orders.events (key: order_id JSON text, value: {@link OrderEvent} JSON; a deletion in any form reads as null)
 *   -&gt; KTable "orders-by-id"                    latest event per order_id
 *   -&gt; groupBy customer_id "orders-by-customer" (repartition topic ds-streams-orders-by-customer-repartition)
 *   -&gt; aggregate adder/subtractor "totals-by-customer" (changelog ds-streams-totals-by-customer-changelog)
 *   -&gt; customer.totals (key: customer_id as a string, e.g. "3"; value: {@link CustomerTotals} JSON)
 * </pre>
 *
 * <p>Idempotent per order_id (claim B3): the source is a table keyed by order_id, so a
 * re-delivered identical event leaves the totals unchanged, an UPDATE subtracts the old version and
 * adds the new one (from one customer to another if customer_id changed), and a DELETE — the
 * connector's rewritten old row ({@code "__deleted":"true"}), a tombstone or the JSON value
 * {@code null}, all read as null by {@link JsonSerdes#orderEvent()} — subtracts the last version;
 * a repeated DELETE of an order no longer in the table changes nothing. Totals therefore always
 * equal PostgreSQL's {@code count(*)} and {@code sum(amount)} per customer.
 *
 * <p>Every change of a customer's aggregate emits one {@code customer.totals} record holding the
 * new cumulative snapshot and its version (claims G2, B10; with {@code statestore.cache.max.bytes=0},
 * see {@link StreamsSettings}). Measured on Kafka Streams 4.2 ({@code TotalsTopologyTest}): an
 * UPDATE that keeps the customer is one repartition record carrying old and new value (KIP-904), so
 * subtractor and adder run back to back and ONE snapshot is emitted, its version 2 above the last;
 * an UPDATE that moves the order emits one snapshot for each customer; a re-delivered identical
 * event is emitted again, unchanged but for the version (+2). When a customer's last order is
 * deleted or moved away the aggregate is not removed: {@code {"customer_id":N,"orders":0,"total":"0.00","version":V}}
 * is emitted, so the sink's latest row for that customer matches PostgreSQL (B11).
 *
 * <p>A value that is not a valid {@link OrderEvent} fails deserialization and is handled by the
 * configured deserialization exception handler (logged, skipped and sent to {@link TopicNames#ORDERS_EVENTS_DLQ},
 * claim B2, {@link DeadLetterHandler}); it does not touch
 * the table, so an earlier valid version of that order stays counted. A record with a null key is
 * dropped by Kafka Streams' table source (with a warning).
 */
public final class TotalsTopology {

    /** State store with the latest event per order_id. */
    public static final String ORDERS_STORE = "orders-by-id";
    /** Name of the regrouping step; its repartition topic is {@code <application.id>-orders-by-customer-repartition}. */
    public static final String ORDERS_BY_CUSTOMER = "orders-by-customer";
    /** State store with the aggregate per customer; its changelog is {@code <application.id>-totals-by-customer-changelog}. */
    public static final String TOTALS_STORE = "totals-by-customer";

    /**
     * @param applicationId the Streams application id ({@link StreamsSettings#APPLICATION_ID} by default)
     * @return the repartition topic of the regrouping by customer, {@code <application.id>-orders-by-customer-repartition}
     *     (Kafka Streams' naming of internal topics)
     */
    public static String repartitionTopic(String applicationId) {
        return applicationId + "-" + ORDERS_BY_CUSTOMER + "-repartition";
    }

    /**
     * @param applicationId the Streams application id
     * @return the changelog topics of the state stores, {@code <application.id>-<store>-changelog}: what a restore reads
     */
    public static List<String> changelogTopics(String applicationId) {
        return List.of(applicationId + "-" + ORDERS_STORE + "-changelog", applicationId + "-" + TOTALS_STORE + "-changelog");
    }

    private TotalsTopology() {
    }

    /**
     * Builds the topology. Processor and store names are fixed (constants above), so internal
     * topic names stay stable across releases and restarts with an old state directory (G14).
     *
     * @return a new topology reading {@link TopicNames#ORDERS_EVENTS} and writing {@link TopicNames#CUSTOMER_TOTALS}
     */
    public static Topology build() {
        return build(TopicNames.SHIPPED);
    }

    /**
     * {@link #build()} on prefixed topics (an isolated run on a shared cluster, {@code seams streams --topic-prefix}).
     *
     * @param topics the topics to read and write
     * @return a new topology reading {@link TopicNames#ordersEvents()} and writing {@link TopicNames#customerTotals()}
     */
    public static Topology build(TopicNames topics) {
        Serde<String> strings = Serdes.String();
        Serde<OrderEvent> orders = JsonSerdes.orderEvent();
        Serde<CustomerTotals> totals = JsonSerdes.customerTotals();

        StreamsBuilder builder = new StreamsBuilder();
        builder.table(topics.ordersEvents(),
                        Consumed.with(strings, orders).withName("orders-source"),
                        Materialized.<String, OrderEvent, KeyValueStore<Bytes, byte[]>>as(ORDERS_STORE)
                                .withKeySerde(strings)
                                .withValueSerde(orders))
                .groupBy((orderId, order) -> KeyValue.pair(Long.toString(order.customerId()), order),
                        Grouped.with(ORDERS_BY_CUSTOMER, strings, orders))
                .aggregate(CustomerTotals::empty,
                        (customerId, order, aggregate) -> aggregate.plus(order),
                        (customerId, order, aggregate) -> aggregate.minus(order),
                        Named.as("totals-aggregate"),
                        Materialized.<String, CustomerTotals, KeyValueStore<Bytes, byte[]>>as(TOTALS_STORE)
                                .withKeySerde(strings)
                                .withValueSerde(totals))
                .toStream(Named.as("totals-to-stream"))
                .to(topics.customerTotals(), Produced.with(strings, totals).withName("totals-sink"));
        return builder.build();
    }
}
