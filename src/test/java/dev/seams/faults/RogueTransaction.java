package dev.seams.faults;

import dev.seams.kafka.KafkaClientConfig;
import dev.seams.stand.JvmProcess;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * A producer that begins a transaction, writes one record and then hangs until it is killed
 * (claim B1, the hanging transaction): run as its own JVM by {@link JvmProcess}, SIGKILLed by the
 * test, so the transaction is neither committed nor aborted by the client and pins the partition's
 * last stable offset until the coordinator aborts it after {@code transaction.timeout.ms}.
 *
 * <p>Arguments: bootstrap servers, topic, key, value, transaction timeout in ms, the transactional id's prefix (the
 * run's names, truth/RunNames; the pid follows), and optionally a file of client properties (SASL/SSL, the run's
 * {@code Endpoints#kafkaClientProperties()}). Prints
 * {@code rogue: transaction open, record at <partition>@<offset>} once the record is written.
 */
public final class RogueTransaction {

    private RogueTransaction() {
    }

    /** Writes the record inside an open transaction and blocks forever. */
    public static void main(String[] args) throws Exception {
        Map<String, Object> config = Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, args[0],
                ProducerConfig.TRANSACTIONAL_ID_CONFIG, args[5] + ProcessHandle.current().pid(),
                ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, Integer.parseInt(args[4]),
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName(),
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(
                KafkaClientConfig.load(args.length > 6 ? Path.of(args[6]) : null).applyTo(config));
        producer.initTransactions();
        producer.beginTransaction();
        RecordMetadata written = producer.send(new ProducerRecord<>(args[1],
                args[2].getBytes(StandardCharsets.UTF_8), args[3].getBytes(StandardCharsets.UTF_8))).get();
        System.out.println("rogue: transaction open, record at " + written.partition() + "@" + written.offset());
        System.out.flush();
        new CountDownLatch(1).await();
    }
}
