package dev.seams.sink;

import dev.seams.consumer.KafkaErrors;
import dev.seams.kafka.KafkaClientConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The sink's dead-letter producer (claim G11): writes a batch's rejected records and waits until
 * the broker acknowledged every one ({@code acks=all}, idempotent), so the sink commits the batch's
 * offsets only after that. Bounded: a write that is not acknowledged within
 * {@value #DELIVERY_TIMEOUT_MS} ms fails. A failure is classified by {@link KafkaErrors}: retriable
 * (a timeout, a leader change) or permanent (e.g. authorization, a record too large for the topic).
 */
final class DeadLetterWriter implements AutoCloseable {

    static final int DELIVERY_TIMEOUT_MS = 20_000;

    private final KafkaProducer<byte[], byte[]> producer;

    /**
     * @param bootstrapServers Kafka bootstrap servers
     * @param clientId         the producer's client id
     * @param kafkaConfig      the user's client properties ({@link KafkaClientConfig})
     * @throws IllegalArgumentException if they change a setting of the producer's own
     */
    DeadLetterWriter(String bootstrapServers, String clientId, KafkaClientConfig kafkaConfig) {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        props.put(ProducerConfig.CLIENT_ID_CONFIG, clientId);
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        props.put(ProducerConfig.LINGER_MS_CONFIG, "0");
        props.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, "10000");
        props.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, Integer.toString(DELIVERY_TIMEOUT_MS));
        props.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, Integer.toString(DELIVERY_TIMEOUT_MS));
        props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        this.producer = new KafkaProducer<>(kafkaConfig.applyTo(props));
    }

    /**
     * Sends the dead letters and waits for every acknowledgement.
     *
     * @param letters the batch's dead letters, in read order (may be empty: returns at once)
     * @throws WriteFailedException if any is refused or not acknowledged in time, classified by
     *                              {@link KafkaErrors}; some may have been written (a re-read
     *                              batch writes them again)
     */
    void write(List<ProducerRecord<byte[], byte[]>> letters) {
        if (letters.isEmpty()) {
            return;
        }
        List<Future<RecordMetadata>> acks = new ArrayList<>(letters.size());
        try {
            for (ProducerRecord<byte[], byte[]> letter : letters) {
                acks.add(producer.send(letter));
            }
            producer.flush();
            for (Future<RecordMetadata> ack : acks) {
                ack.get(DELIVERY_TIMEOUT_MS, TimeUnit.MILLISECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw failed(letters.size(), e);
        } catch (ExecutionException e) {
            throw failed(letters.size(), e.getCause());
        } catch (TimeoutException | KafkaException e) {
            throw failed(letters.size(), e);
        }
    }

    private static WriteFailedException failed(int letters, Throwable cause) {
        return new WriteFailedException("dead-letter write of " + letters + " records", KafkaErrors.classify(cause), cause);
    }

    @Override
    public void close() {
        producer.close(Duration.ofSeconds(10));
    }
}
