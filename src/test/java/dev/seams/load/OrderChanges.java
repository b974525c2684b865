package dev.seams.load;

import static org.awaitility.Awaitility.await;

import dev.seams.seed.OrderSeeder;
import dev.seams.truth.Endpoints;
import dev.seams.truth.RunNames;
import dev.seams.truth.Topics;
import dev.seams.truth.Totals;
import dev.seams.wire.InvalidJsonException;
import dev.seams.wire.OrderEvent;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;

/**
 * One load's changes as {@code orders.events} holds them, and PostgreSQL's truth for its orders
 * (claim B4: "every change applied once" is counted per change against this set, never as
 * {@code count() - distinct}). The load is found by position and by id, not by what ran before:
 * the records at or after offsets taken before the load, whose order id is above the id watermark
 * taken before the load ({@link #orderIdWatermark}) — {@link OrderLoad} updates and deletes only
 * orders it inserted, so those are exactly its changes, whatever other claims left in the topic.
 *
 * <p>It can also copy itself, byte for byte (key, value, headers, partition), into a topic of its
 * own ({@link #copyTo}) and re-send chosen records there at new offsets ({@link #resend}), as
 * Debezium re-sends after a Connect crash — without disturbing ds-streams, which reads
 * {@code orders.events}.
 */
public final class OrderChanges {

    /**
     * One change of an order, named as the source names it: the order, the change's source LSN
     * ({@code __lsn}) and Debezium's operation ({@code __op}). Independent of the sink's own key format.
     *
     * @param orderId the order
     * @param lsn     the source LSN, or null if the record has none
     * @param op      {@code c}, {@code u}, {@code d}, {@code r}, or null if the record has none
     */
    public record Change(long orderId, Long lsn, String op) {

        /** @return the change an order event carries */
        public static Change of(OrderEvent event) {
            return new Change(event.orderId(), event.lsn(), event.op());
        }

        /** @return e.g. {@code 42@24023128:u} */
        @Override
        public String toString() {
            return orderId + "@" + lsn + ":" + op;
        }
    }

    private final String topic;
    private final Map<TopicPartition, Long> start;
    private final Map<TopicPartition, Long> end;
    private final List<ConsumerRecord<byte[], byte[]>> records;
    private final List<Change> changes;
    private final Set<Long> orderIds;

    private OrderChanges(String topic, Map<TopicPartition, Long> start, Map<TopicPartition, Long> end,
                         List<ConsumerRecord<byte[], byte[]>> records) {
        this.topic = topic;
        this.start = Map.copyOf(start);
        this.end = Map.copyOf(end);
        this.records = List.copyOf(records);
        this.changes = records.stream().map(r -> Change.of(OrderEvent.ofValue(r.value()))).toList();
        this.orderIds = new TreeSet<>(changes.stream().map(Change::orderId).toList());
    }

    /**
     * @return the highest order id PostgreSQL has handed out so far (the {@code orders} id
     *     sequence, deleted orders included); every order inserted later has a higher id
     */
    public static long orderIdWatermark(Endpoints stand) {
        try (Connection c = stand.pg(); Statement st = c.createStatement(); ResultSet rs = st.executeQuery(
                "SELECT coalesce(pg_sequence_last_value(pg_get_serial_sequence('orders', 'order_id')), 0)")) {
            rs.next();
            return rs.getLong(1);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read the orders id sequence", e);
        }
    }

    /**
     * Waits (up to 3 min) until {@code orders.events} holds {@code expected} changes of orders
     * above the watermark at or after {@code start}, and reads them.
     *
     * @param start     the topic's end offsets taken before the load
     * @param watermark {@link #orderIdWatermark} taken before the load
     * @param expected  the load's number of changes ({@link OrderLoad.Applied#changes()})
     * @return the load's changes, in partition and offset order
     * @throws org.awaitility.core.ConditionTimeoutException if they do not all arrive
     * @throws IllegalStateException                         if more than {@code expected} arrive
     */
    public static OrderChanges awaitLoad(Endpoints stand, Map<TopicPartition, Long> start, long watermark, long expected) {
        Topics topics = stand.topics();
        OrderChanges found = await("orders.events holds the load's " + expected + " changes").atMost(Duration.ofMinutes(3))
                .pollInterval(Duration.ofSeconds(1))
                .until(() -> read(topics, start, watermark), c -> c.size() >= expected);
        if (found.size() != expected) {
            throw new IllegalStateException("orders.events holds " + found.size() + " changes of the load, expected " + expected);
        }
        return found;
    }

    private static OrderChanges read(Topics topics, Map<TopicPartition, Long> start, long watermark) {
        Map<TopicPartition, Long> end = topics.endOffsets(RunNames.ORDERS_EVENTS);
        List<ConsumerRecord<byte[], byte[]>> mine = new ArrayList<>();
        topics.readFrom(RunNames.ORDERS_EVENTS, "read_committed", start, r -> {
            OrderEvent event;
            try {
                event = OrderEvent.ofValue(r.value());
            } catch (InvalidJsonException e) {
                return;   // not an order event (another claim's bad input, B2): not the load's
            }
            if (event != null && event.orderId() > watermark) {
                mine.add(r);
            }
        });
        mine.sort(Comparator.<ConsumerRecord<byte[], byte[]>>comparingInt(ConsumerRecord::partition)
                .thenComparingLong(ConsumerRecord::offset));
        return new OrderChanges(RunNames.ORDERS_EVENTS, start, end, mine);
    }

    /**
     * Copies every change, byte for byte and to the same partition number, into a new topic with
     * as many partitions (one order's changes stay in one partition, in order).
     *
     * @param copy the new topic's name; it must not exist
     * @return the changes as the copy holds them (start offsets 0)
     */
    public OrderChanges copyTo(Endpoints stand, String copy) {
        stand.topics().create(new NewTopic(copy, start.size(), stand.replicationFactor()), false);
        Map<TopicPartition, Long> copyStart = new TreeMap<>(Comparator.comparingInt(TopicPartition::partition));
        start.keySet().forEach(tp -> copyStart.put(new TopicPartition(copy, tp.partition()), 0L));
        resend(stand, copy, records);
        Topics topics = stand.topics();
        List<ConsumerRecord<byte[], byte[]>> copied = new ArrayList<>();
        topics.readFrom(copy, "read_committed", copyStart, copied::add);
        copied.sort(Comparator.<ConsumerRecord<byte[], byte[]>>comparingInt(ConsumerRecord::partition)
                .thenComparingLong(ConsumerRecord::offset));
        return new OrderChanges(copy, copyStart, topics.endOffsets(copy), copied);
    }

    /**
     * Produces the records again into {@code topic}, each to its own partition number with its
     * key, value and headers unchanged, in the given order (acknowledged before returning).
     * @throws IllegalStateException if the broker refused a record
     *
     * @param records records to re-send, in the order they are to be written
     */
    public static void resend(Endpoints stand, String topic, Collection<ConsumerRecord<byte[], byte[]>> records) {
        List<java.util.concurrent.Future<?>> sent = new ArrayList<>();
        try (KafkaProducer<byte[], byte[]> producer = stand.topics().producer(null)) {
            for (ConsumerRecord<byte[], byte[]> r : records) {
                sent.add(producer.send(new ProducerRecord<>(topic, r.partition(), r.key(), r.value(), r.headers())));
            }
            producer.flush();
            for (java.util.concurrent.Future<?> f : sent) {
                f.get();   // a record the broker refused fails the test's setup, it is never silently missing
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("cannot re-send into " + topic, e.getCause());
        }
    }

    /**
     * What Debezium re-sends after a Connect crash: every change after the last source position it
     * had flushed, i.e. a suffix of the changes by source LSN across all partitions.
     *
     * @param n how many of the newest changes
     * @return the {@code n} records with the highest {@code __lsn} (ties by partition and offset),
     *     in LSN order — per partition a suffix in offset order, so that, re-sent, every order's
     *     last record is still its latest change
     */
    public List<ConsumerRecord<byte[], byte[]>> newest(int n) {
        Comparator<Integer> byLsn = Comparator.comparing(i -> changes.get(i).lsn(), Comparator.nullsFirst(Comparator.naturalOrder()));
        List<Integer> order = new ArrayList<>(IntStream.range(0, records.size()).boxed().toList());
        order.sort(byLsn.thenComparing(i -> i));
        return order.subList(Math.max(0, order.size() - n), order.size()).stream().map(records::get).toList();
    }

    /**
     * @return PostgreSQL's orders among this set's order ids, read now: order id → order (deleted
     *     orders are absent)
     */
    public Map<Long, OrderSeeder.Order> truthOrders(Endpoints stand) {
        Map<Long, OrderSeeder.Order> truth = new TreeMap<>();
        query(stand, "SELECT order_id, customer_id, amount FROM orders WHERE order_id = ANY(?)",
                rs -> truth.put(rs.getLong(1), new OrderSeeder.Order(rs.getLong(1), rs.getLong(2), rs.getBigDecimal(3))));
        return truth;
    }

    /** @return PostgreSQL's customer id → (count(*), sum(amount)) over this set's orders, read now */
    public Map<Long, Totals> truthCustomers(Endpoints stand) {
        Map<Long, Totals> truth = new TreeMap<>();
        query(stand, "SELECT customer_id, count(*), sum(amount) FROM orders WHERE order_id = ANY(?) GROUP BY customer_id",
                rs -> truth.put(rs.getLong(1), new Totals(rs.getLong(2), rs.getBigDecimal(3))));
        return truth;
    }

    private interface Row {
        void read(ResultSet rs) throws SQLException;
    }

    private void query(Endpoints stand, String sql, Row row) {
        try (Connection c = stand.pg(); PreparedStatement st = c.prepareStatement(sql)) {
            st.setArray(1, c.createArrayOf("int8", orderIds.toArray()));
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    row.read(rs);
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read the load's orders", e);
        }
    }

    /** @return the topic these records are in */
    public String topic() {
        return topic;
    }

    /** @return the topic's offsets where the set starts (taken before the load) */
    public Map<TopicPartition, Long> start() {
        return start;
    }

    /** @return the topic's end offsets when the set was read */
    public Map<TopicPartition, Long> end() {
        return end;
    }

    /** @return the records, in partition and offset order */
    public List<ConsumerRecord<byte[], byte[]>> records() {
        return records;
    }

    /** @return every change, one per record (a record re-sent in the set appears twice) */
    public List<Change> changes() {
        return changes;
    }

    /** @return the orders the changes touch */
    public Set<Long> orderIds() {
        return orderIds;
    }

    /** @return the number of records */
    public int size() {
        return records.size();
    }

    /** @return the number of records between the start and the end offsets (the set's and any other's) */
    public long span() {
        return end.entrySet().stream().mapToLong(en -> en.getValue() - start.getOrDefault(en.getKey(), 0L)).sum();
    }
}
