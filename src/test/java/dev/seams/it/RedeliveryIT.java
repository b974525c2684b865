package dev.seams.it;

import dev.seams.check.Reconciliation;
import dev.seams.fixture.StandContext;
import dev.seams.report.Anomaly;
import dev.seams.report.Claim;
import dev.seams.report.ClaimEvidence;
import dev.seams.seed.OrderSeeder;
import dev.seams.sink.SinkMode;
import dev.seams.sink.SinkSummary;
import dev.seams.truth.ClickHouse;
import dev.seams.truth.RunNames;
import dev.seams.truth.Topics;
import dev.seams.wire.OrderEvent;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Upstream redelivery (B3; source section "Композиция гарантий"): the latest events of ten orders re-sent byte for byte,
 * as Debezium does after a Connect crash, then an UPDATE of an amount, a move to another customer and a DELETE: the
 * per-order_id aggregation absorbs them (FINAL = PostgreSQL per customer) while a naive count of every event (the
 * twin) is off. Connect killed under load and mid-snapshot: {@link ConnectFaultIT} (fault tier).
 */
@ExtendWith(StandContext.Resolver.class)
class RedeliveryIT {

    @Test
    @Claim(id = "B3", title = "Upstream redelivery does not double count", exercises = {"streams/TotalsTopology",
            "wire/OrderEvent", "sink/Sink"})
    void b3RedeliveryDoesNotDoubleCount(ClaimEvidence e, StandContext s) throws Exception {
        Topics topics = s.topics();
        ClickHouse ch = s.ch();
        Map<TopicPartition, Long> mark = topics.endOffsets(RunNames.ORDERS_EVENTS);   // the seeded orders' events all lie after it
        List<OrderSeeder.Order> seeded = s.pg().seed(20, 5, 161);
        Set<Long> ids = seeded.stream().map(OrderSeeder.Order::orderId).collect(Collectors.toSet());
        s.settle();

        // (a) re-deliver the latest event of the 10 newest orders, byte for byte, as Debezium does after a Connect crash
        TreeMap<Long, ConsumerRecord<byte[], byte[]>> latest = new TreeMap<>();
        for (ConsumerRecord<byte[], byte[]> r : eventsOf(topics, mark, ids)) {
            if (!OrderEvent.isDeletion(r.value())) {
                latest.put(orderIdOf(r), r);
            }
        }
        List<ConsumerRecord<byte[], byte[]>> redelivered = new ArrayList<>(latest.descendingMap().values()).subList(0, Math.min(10, latest.size()));
        try (KafkaProducer<byte[], byte[]> producer = topics.producer(null)) {
            for (ConsumerRecord<byte[], byte[]> r : redelivered) {
                producer.send(new ProducerRecord<>(RunNames.ORDERS_EVENTS, r.partition(), r.key(), r.value(), r.headers())).get();
            }
        }
        // (b) UPDATE of an amount, UPDATE moving an order to another customer, DELETE
        long[] changed = redelivered.stream().mapToLong(RedeliveryIT::orderIdOf).toArray();
        try (Connection c = s.endpoints().pg(); Statement st = c.createStatement()) {
            st.executeUpdate("UPDATE orders SET amount = amount + 1.11 WHERE order_id = " + changed[0]);
            st.executeUpdate("UPDATE orders SET customer_id = CASE WHEN customer_id = 5 THEN 1 ELSE customer_id + 1 END WHERE order_id = " + changed[1]);
            st.executeUpdate("DELETE FROM orders WHERE order_id = " + changed[2]);
        } catch (SQLException ex) {
            throw new IllegalStateException(ex);
        }
        e.figure("ds_streams_after_redelivery", s.drain().toString());   // parity is this claim's own check, below
        ch.truncate("raw_totals", "customer_totals");
        SinkSummary run = s.sink(SinkMode.TOTALS, o -> o.withFromStart(true));

        // what orders.events now holds for the seeded orders, and the naive twin that counts every event
        List<ConsumerRecord<byte[], byte[]>> events = eventsOf(topics, mark, ids);
        Map<Long, Integer> identicalCopies = new HashMap<>();
        Map<Long, Integer> naiveCount = new TreeMap<>();
        for (ConsumerRecord<byte[], byte[]> r : events) {
            for (ConsumerRecord<byte[], byte[]> d : redelivered) {
                if (orderIdOf(r) == orderIdOf(d) && Arrays.equals(r.value(), d.value())) {
                    identicalCopies.merge(orderIdOf(r), 1, Integer::sum);
                }
            }
            if (!OrderEvent.isDeletion(r.value())) {
                naiveCount.merge(orderIdOf(r), 1, Integer::sum);
            }
        }
        long redeliveredInTopic = identicalCopies.values().stream().filter(n -> n >= 2).count();
        Map<Long, OrderSeeder.Order> pgOrders = new TreeMap<>(s.pg().orders());
        pgOrders.keySet().retainAll(ids);
        long naiveDuplicateKeys = pgOrders.keySet().stream().filter(id -> naiveCount.getOrDefault(id, 0) > 1).count();
        long naiveDeletedCounted = naiveCount.keySet().stream().filter(id -> !pgOrders.containsKey(id)).count();
        BigDecimal naiveSum = events.stream().filter(r -> !OrderEvent.isDeletion(r.value()))
                .map(r -> OrderEvent.parse(r.value()).amount()).reduce(BigDecimal.ZERO, BigDecimal::add);
        BigDecimal pgSum = pgOrders.values().stream().map(OrderSeeder.Order::amount).reduce(BigDecimal.ZERO, BigDecimal::add);

        e.figure("orders_seeded", (long) seeded.size());
        e.figure("sink_summary", run.line());
        e.check("redelivered_events_in_topic", redeliveredInTopic).isEqualTo(redelivered.size(),
                "orders whose re-delivered event sits in orders.events at least twice, byte for byte: the redelivery took effect");
        e.figure("events_of_the_seeded_orders", (long) events.size());
        e.negativeControl("naive_twin_duplicate_keys", naiveDuplicateKeys, Anomaly.DUPLICATE,
                "PG orders (of this test) that a naive count of every order event counts more than once");
        e.figure("naive_twin_deleted_orders_counted", naiveDeletedCounted);
        e.figure("naive_twin_event_sum", naiveSum.setScale(2).toPlainString());
        e.figure("pg_sum_of_the_seeded_orders", pgSum.setScale(2).toPlainString());
        Reconciliation.customerTotalsFinal(s.endpoints()).record(e, "PostgreSQL vs customer_totals FINAL after redelivery, UPDATE x2 and DELETE");
        e.table("Naive twin per order (orders of this test that it counts more than once, or counts though PG deleted them)",
                List.of("order_id", "events counted", "PG"), naiveCount.entrySet().stream()
                        .filter(x -> x.getValue() > 1 || !pgOrders.containsKey(x.getKey()))
                        .map(x -> List.<Object>of(x.getKey(), x.getValue(), pgOrders.containsKey(x.getKey())
                                ? "customer " + pgOrders.get(x.getKey()).customerId() + " " + pgOrders.get(x.getKey()).amount() : "deleted"))
                        .toList());
        e.note("The aggregation is a KTable keyed by order_id: a redelivered identical event replaces itself, an UPDATE "
                + "subtracts the old version and adds the new one, a DELETE subtracts. The naive twin counts every event of "
                + "the test's orders and is off by the redeliveries, the updates and the deleted order.");
    }

    /** @return the orders.events records (read_committed) at or after {@code from} whose key is one of these order ids */
    private static List<ConsumerRecord<byte[], byte[]>> eventsOf(Topics topics, Map<TopicPartition, Long> from, Set<Long> ids) {
        List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
        topics.readFrom(RunNames.ORDERS_EVENTS, "read_committed", from, r -> {
            Long id = keyId(r.key());
            if (id != null && ids.contains(id)) {
                records.add(r);
            }
        });
        return records;
    }

    /** @return the order id an orders.events key names (JSON text of the id), or null for another key */
    private static Long keyId(byte[] key) {
        if (key == null) {
            return null;
        }
        try {
            return Long.parseLong(new String(key, StandardCharsets.UTF_8).strip());
        } catch (NumberFormatException ex) {
            return null;
        }
    }

    private static long orderIdOf(ConsumerRecord<byte[], byte[]> r) {
        return keyId(r.key());
    }
}
