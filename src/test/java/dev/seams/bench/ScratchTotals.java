package dev.seams.bench;

import dev.seams.stand.Stand;
import dev.seams.wire.CustomerTotals;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;

/**
 * A scratch topic of {@code customer.totals} records in exactly the shape ds-streams writes
 * ({@link CustomerTotals#toJsonBytes()}: {@code {"customer_id":3,"orders":27,"total":"1112.08","version":42}},
 * key = the customer id as text), {@value Stand#PARTITIONS} partitions like the real topic, written
 * the way ds-streams writes (a transactional producer, one transaction per
 * {@value #TRANSACTION_RECORDS} records, so the log holds commit markers), plus the rows they carry
 * with each record's partition and offset: what a direct insert writes (issue 13 P1, P2).
 *
 * <p>Records cycle through {@code customers} customers; the k-th record of a customer has
 * version k and k orders, and a total of k × 12.34.
 */
public final class ScratchTotals {

    /** Records per producer transaction. */
    static final int TRANSACTION_RECORDS = 5_000;

    /** One record as a sink writes it: the snapshot and where it sits in the topic. */
    public record Row(CustomerTotals totals, int partition, long offset) {
    }

    /** Customers the shared records cycle through. */
    static final int CUSTOMERS = 1_000;
    private static ScratchTotals shared;

    private final String topic;
    private final List<Row> rows;

    private ScratchTotals(String topic, List<Row> rows) {
        this.topic = topic;
        this.rows = rows;
    }

    /**
     * Creates the topic and writes the records.
     *
     * @param topic     a topic name that does not exist yet
     * @param records   how many records
     * @param customers how many customers they cycle through
     * @return the topic and its rows, in produce order
     */
    public static ScratchTotals produce(Stand stand, String topic, int records, int customers) throws Exception {
        stand.admin().createTopics(List.of(new NewTopic(topic, Stand.PARTITIONS, stand.replicationFactor()))).all().get();
        List<CustomerTotals> snapshots = new ArrayList<>(records);
        for (int i = 0; i < records; i++) {
            long version = i / customers + 1;
            snapshots.add(new CustomerTotals(i % customers + 1, version, BigDecimal.valueOf(version * 1234, 2), version));
        }
        List<Future<RecordMetadata>> sent = new ArrayList<>(records);
        try (KafkaProducer<byte[], byte[]> producer = stand.topics().producer("bench-" + topic)) {
            producer.initTransactions();
            for (int i = 0; i < records; i += TRANSACTION_RECORDS) {
                producer.beginTransaction();
                for (CustomerTotals t : snapshots.subList(i, Math.min(records, i + TRANSACTION_RECORDS))) {
                    sent.add(producer.send(new ProducerRecord<>(topic,
                            Long.toString(t.customerId()).getBytes(StandardCharsets.UTF_8), t.toJsonBytes())));
                }
                producer.commitTransaction();
            }
        }
        List<Row> rows = new ArrayList<>(records);
        for (int i = 0; i < records; i++) {
            RecordMetadata m = metadata(sent.get(i));
            rows.add(new Row(snapshots.get(i), m.partition(), m.offset()));
        }
        return new ScratchTotals(topic, List.copyOf(rows));
    }

    /**
     * @return the records P1 and P2 share in this JVM ({@link Benchmarks#records()} of them over
     *     {@value #CUSTOMERS} customers), produced on first use
     */
    public static synchronized ScratchTotals shared(Stand stand) throws Exception {
        if (shared == null) {
            shared = produce(stand, "bench.totals." + System.currentTimeMillis(), Benchmarks.records(), CUSTOMERS);
        }
        return shared;
    }

    private static RecordMetadata metadata(Future<RecordMetadata> future) throws InterruptedException {
        try {
            return future.get();
        } catch (ExecutionException e) {
            throw new IllegalStateException("a scratch record was not written", e.getCause());
        }
    }

    /** @return the topic */
    public String topic() {
        return topic;
    }

    /** @return the rows, in produce order */
    public List<Row> rows() {
        return rows;
    }
}
