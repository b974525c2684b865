package dev.seams.streams;

import dev.seams.wire.DeadLetters;
import dev.seams.wire.OrderEvent;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.DeserializationExceptionHandler;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.apache.kafka.streams.errors.LogAndContinueExceptionHandler;

/**
 * The deserialization exception handler of ds-streams (claim B2; seed section "DLQ: битое событие
 * не роняет пайплайн", whose Streams dropped such records to stderr): an {@code orders.events}
 * record that is not a valid {@link OrderEvent} (not JSON, customer_id or amount missing, null or
 * non-numeric, an amount beyond what PostgreSQL's numeric holds) is logged, skipped, and sent to the dead-letter
 * topic named by {@value StreamsConfig#ERRORS_DEAD_LETTER_QUEUE_TOPIC_NAME_CONFIG}
 * ({@code orders.events.dlq}, see {@link StreamsSettings}).
 *
 * <p>It is Kafka Streams' own {@link LogAndContinueExceptionHandler} with its KIP-1034 dead letter
 * (raw key and value, original headers, {@code __streams.errors.*} headers), to which it adds the
 * pipeline's common headers ({@link DeadLetters}: {@code dlq-reason} = the exception's message,
 * {@code dlq-origin-topic/partition/offset}, {@code dlq-failed-at}), so one reader serves the
 * sink's DLQ and this one. The record is handed back in the handler's {@link Response}, so Streams
 * writes it with its own producer: under {@code exactly_once_v2} the dead letter commits in the
 * same transaction as the input offset, never twice and never without the skip.
 *
 * <p>Without {@value StreamsConfig#ERRORS_DEAD_LETTER_QUEUE_TOPIC_NAME_CONFIG} it only logs and
 * skips, like its parent.
 */
public class DeadLetterHandler extends LogAndContinueExceptionHandler {

    private final Clock clock;

    /** Creates the handler (Kafka Streams instantiates it from the config); the UTC system clock stamps {@code dlq-failed-at}. */
    public DeadLetterHandler() {
        this(Clock.systemUTC());
    }

    /** @param clock stamps {@code dlq-failed-at} (tests pass a fixed clock) */
    DeadLetterHandler(Clock clock) {
        this.clock = clock;
    }

    /**
     * Logs and skips the record (processing resumes) and returns its dead letter, if a DLQ topic is configured.
     *
     * @param context   where the record was read (topic, partition, offset, raw key and value, headers)
     * @param record    the raw record
     * @param exception why it could not be deserialized; its message becomes {@code dlq-reason}
     * @return {@code resume} with zero or one dead letter for Streams to produce
     */
    @Override
    public DeserializationExceptionHandler.Response handleError(ErrorHandlerContext context,
                                                                ConsumerRecord<byte[], byte[]> record,
                                                                Exception exception) {
        DeserializationExceptionHandler.Response parent = super.handleError(context, record, exception);
        List<ProducerRecord<byte[], byte[]>> letters = new ArrayList<>();
        for (ProducerRecord<byte[], byte[]> letter : parent.deadLetterQueueRecords()) {
            letters.add(DeadLetters.of(letter.topic(), letter.key(), letter.value(), letter.timestamp(), letter.headers(),
                    String.valueOf(exception.getMessage()), context.topic(), context.partition(), context.offset(),
                    clock.instant()));
        }
        return DeserializationExceptionHandler.Response.resume(letters);
    }
}
