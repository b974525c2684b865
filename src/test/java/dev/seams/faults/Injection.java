package dev.seams.faults;

import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.seams.fixture.Pipeline;
import dev.seams.truth.ClickHouse;
import dev.seams.truth.Endpoints;
import dev.seams.truth.Futures;
import dev.seams.truth.Pg;
import dev.seams.truth.RunNames;
import dev.seams.truth.Topics;
import dev.seams.truth.Totals;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Records a test writes straight into the stand's topics with a plain producer, as a broken or
 * foreign producer would (claims G10, G11, B2), and the clean-up that keeps claims order-independent.
 *
 * <p>Opening an injection resets {@code ds-sink} to the current end of {@code customer.totals}, so
 * the next sink run reads only what the test writes. Records written into {@code customer.totals}
 * would stay there and change what every later claim reads from the start of that topic (G1 counts
 * {@code bad=0}; {@link Topics#latestTotals()} parses every record). {@link #close()} therefore
 * removes them: it inserts one order per PostgreSQL customer (PG stays the truth; totals change
 * by those orders), waits until ds-streams has written a fresh snapshot of every customer after
 * the injected records, and deletes the touched partitions up to the end of the injection with
 * the admin API's {@code deleteRecords} (the log start offset moves; ds-sink, whose committed
 * offsets are then below it, restarts at the new start), and the rows the injected snapshots left
 * in the sink's tables (their versions would outrank ds-streams' next ones in FINAL). Records injected into
 * {@code orders.events} are not removed: ds-streams has consumed them and keeps its state.
 */
public final class Injection implements AutoCloseable {

    /** Amount of each clean-up order (currency units). */
    public static final String SCRUB_AMOUNT = "0.01";

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Endpoints stand;
    private final Topics topics;
    private final KafkaProducer<byte[], byte[]> producer;
    private final Map<TopicPartition, Long> totalsEnd = new HashMap<>();
    private final Set<TopicPartition> touched = new HashSet<>();
    private final Map<Long, Long> versions = new HashMap<>();
    /** ds-streams' highest version per customer when the injection opened. */
    private final Map<Long, Long> opened;

    private Injection(Endpoints stand) {
        this.stand = stand;
        this.topics = stand.topics();
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, stand.bootstrapServers());
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        this.producer = new KafkaProducer<>(stand.kafkaClientConfig().applyTo(props));
        topics.latestSnapshots().forEach((id, t) -> versions.put(id, t.version()));
        this.opened = Map.copyOf(versions);
    }

    /**
     * Opens an injection and points {@code ds-sink} at the current end of {@code customer.totals}.
     *
     * @param stand the running stand (settled: nothing is flowing)
     * @return the injection; close it, also when the test fails
     */
    public static Injection open(Endpoints stand) {
        Injection injection = new Injection(stand);
        injection.topics.resetGroup(RunNames.SINK_GROUP, injection.topics.endOffsets(RunNames.CUSTOMER_TOTALS));
        return injection;
    }

    /**
     * Writes one record and waits for the broker's acknowledgement.
     *
     * @param topic   the topic
     * @param key     key bytes (null for none)
     * @param value   value bytes (null: a tombstone)
     * @param headers headers to attach (may be null)
     * @return where it landed
     * @throws IllegalStateException if the broker refused it or did not answer within 60 s
     */
    public RecordMetadata send(String topic, byte[] key, byte[] value, Headers headers) {
        RecordMetadata metadata = Futures.get(producer.send(new ProducerRecord<>(topic, null, key, value, headers)),
                "cannot write to " + topic);
        if (RunNames.CUSTOMER_TOTALS.equals(topic)) {
            TopicPartition tp = new TopicPartition(topic, metadata.partition());
            touched.add(tp);
            totalsEnd.merge(tp, metadata.offset() + 1, Math::max);
        }
        return metadata;
    }

    /** {@link #send(String, byte[], byte[], Headers)} with a UTF-8 key. */
    public RecordMetadata send(String topic, String key, byte[] value, Headers headers) {
        return send(topic, key == null ? null : key.getBytes(StandardCharsets.UTF_8), value, headers);
    }

    /**
     * @return every record of the topic (read_committed) at or after the given offsets, in partition
     *     order; partitions absent from {@code from} are read from their start
     */
    public List<ConsumerRecord<byte[], byte[]>> since(String topic, Map<TopicPartition, Long> from) {
        return topics.recordsSince(topic, "read_committed", from);
    }

    /** @return the SHA-256 of the bytes as lowercase hex, or {@code "null"} for null (a tombstone) */
    public static String sha256(byte[] bytes) {
        if (bytes == null) {
            return "null";
        }
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * The next snapshot ds-streams would write for these totals, e.g.
     * {@code {"customer_id":1,"orders":12,"total":"501.33","version":41}}, with {@link #nextVersion}.
     */
    public byte[] snapshot(long customerId, Totals totals) {
        return ("{\"customer_id\":" + customerId + ",\"orders\":" + totals.orders() + ",\"total\":\""
                + totals.total().toPlainString() + "\",\"version\":" + nextVersion(customerId) + "}").getBytes(StandardCharsets.UTF_8);
    }

    /**
     * @param customerId a customer
     * @return the version the customer's next snapshot takes: one above the highest ds-streams wrote
     *     for it when this injection opened, then one above the last this injection handed out
     *     (ds-streams' versions are per-customer sequences, B10)
     */
    public synchronized long nextVersion(long customerId) {
        return versions.merge(customerId, 1L, Long::sum);
    }

    /**
     * Removes what was written to {@code customer.totals} (see the class comment) and waits until
     * the pipeline matches PostgreSQL again.
     */
    @Override
    public void close() {
        producer.close(Duration.ofSeconds(10));
        if (touched.isEmpty()) {
            return;
        }
        Pg pg = Pg.of(stand);
        Set<Long> customers = pg.truth().keySet();
        long eventsBefore = topics.totalEndOffset(RunNames.ORDERS_EVENTS);
        try (Connection c = stand.pg(); Statement st = c.createStatement()) {
            st.executeUpdate("INSERT INTO orders (customer_id, amount) SELECT DISTINCT customer_id, " + SCRUB_AMOUNT
                    + " FROM orders");
        } catch (SQLException e) {
            throw new IllegalStateException("cannot insert the clean-up orders", e);
        }
        Pipeline.awaitOrdersEvents(stand, eventsBefore + customers.size());
        await("a ds-streams snapshot of every customer after the injected records").atMost(Duration.ofMinutes(3))
                .pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(250)).ignoreExceptions()
                .until(() -> freshCustomers().containsAll(customers));
        Map<TopicPartition, RecordsToDelete> delete = new HashMap<>();
        totalsEnd.forEach((tp, end) -> delete.put(tp, RecordsToDelete.beforeOffset(end)));
        Futures.get(stand.admin().deleteRecords(delete).all(), "cannot delete the injected records " + totalsEnd);
        forgetInjectedRows();
        Pipeline.awaitStreamsMatchesPg(stand);
    }

    /**
     * Removes from the sink's tables the rows the injected snapshots left: their versions lie above what ds-streams had
     * written for the customer when the injection opened ({@link #nextVersion}), so one of them would outrank
     * ds-streams' next snapshots of the customer in {@code customer_totals FINAL}, and a later claim that changes the
     * customer would read it stale. Each table is copied without them, emptied and filled from the copy: not an
     * {@code ALTER ... DELETE}, whose mutation leaves a part of injected rows only as an empty part, on which ClickHouse
     * 18.16's next {@code ALTER ... MODIFY COLUMN} fails ("File not found: ... total converting.mrk"; B15's widening of
     * {@code total} met it, docs/findings.md), even once that part is merged away.
     */
    private void forgetInjectedRows() {
        List<String> injected = versions.entrySet().stream().filter(v -> !v.getValue().equals(opened.get(v.getKey())))
                .map(v -> "(customer_id = " + v.getKey() + " AND version > " + opened.getOrDefault(v.getKey(), 0L) + ")").toList();
        if (injected.isEmpty()) {
            return;
        }
        ClickHouse ch = ClickHouse.of(stand.clickhouseTarget());
        for (String table : List.of("raw_totals", "customer_totals")) {
            String kept = table + "_without_injected";
            ch.execute("DROP TABLE IF EXISTS " + kept);
            ch.execute("CREATE TABLE " + kept + " AS " + table);
            ch.execute("INSERT INTO " + kept + " SELECT * FROM " + table + " WHERE NOT (" + String.join(" OR ", injected) + ")");
            ch.truncate(table);
            ch.execute("INSERT INTO " + table + " SELECT * FROM " + kept);
            ch.execute("DROP TABLE " + kept);
        }
    }

    /** Customers with a committed ds-streams snapshot after the injected records of their partition. */
    private Set<Long> freshCustomers() throws IOException {
        Set<Long> fresh = new HashSet<>();
        for (ConsumerRecord<byte[], byte[]> r : since(RunNames.CUSTOMER_TOTALS, totalsEnd)) {
            TopicPartition tp = new TopicPartition(r.topic(), r.partition());
            if (r.offset() >= totalsEnd.getOrDefault(tp, 0L)) {
                JsonNode v = JSON.readTree(r.value());
                fresh.add(v.get("customer_id").asLong());
            }
        }
        return fresh;
    }
}
