package dev.seams.wire;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.util.Objects;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

/**
 * The one dead-letter record format of the pipeline, used by both links that reject records: the
 * sink ({@code customer.totals} → {@code customer.totals.dlq}, claims G10, G11) and Kafka Streams
 * ({@code orders.events} → {@code orders.events.dlq}, claim B2). Seed section "DLQ: битое событие
 * не роняет пайплайн": the body goes as it is, the context goes into headers.
 *
 * <p>A dead letter carries the rejected record's key and value byte for byte (a {@code null}
 * value stays {@code null}), its timestamp, every original header in its original order, and then
 * these headers, each UTF-8 text:
 * <ul>
 *   <li>{@value #REASON}: why it was rejected, e.g. {@code customer totals: field "total" is missing};</li>
 *   <li>{@value #ORIGIN_TOPIC}, {@value #ORIGIN_PARTITION}, {@value #ORIGIN_OFFSET}: where it was read
 *       (partition and offset in decimal);</li>
 *   <li>{@value #FAILED_AT}: when it was rejected, ISO-8601 in UTC ({@code 2026-12-01T10:00:00.123Z}).</li>
 * </ul>
 * With them, a dead letter can be inspected and replayed without any other source.
 */
public final class DeadLetters {

    /** Header: the precise reason for the rejection. */
    public static final String REASON = "dlq-reason";
    /** Header: the topic the rejected record was read from. */
    public static final String ORIGIN_TOPIC = "dlq-origin-topic";
    /** Header: the partition it was read from, decimal. */
    public static final String ORIGIN_PARTITION = "dlq-origin-partition";
    /** Header: its offset in that partition, decimal. */
    public static final String ORIGIN_OFFSET = "dlq-origin-offset";
    /** Header: when it was rejected, ISO-8601 UTC. */
    public static final String FAILED_AT = "dlq-failed-at";

    /** Reasons longer than this many characters are cut (a header is not a place for a payload). */
    static final int MAX_REASON_CHARS = 1_000;

    private DeadLetters() {
    }

    /**
     * Builds the dead letter of a rejected record.
     *
     * @param dlqTopic        the dead-letter topic
     * @param key             the rejected record's key, as read (may be null)
     * @param value           its value, as read (null for a tombstone)
     * @param timestamp       its timestamp in ms since the epoch; null or negative (none) lets the producer stamp it
     * @param originalHeaders its headers, copied in order (may be null)
     * @param reason          why it was rejected; cut to {@value #MAX_REASON_CHARS} characters
     * @param originTopic     the topic it was read from
     * @param originPartition the partition it was read from
     * @param originOffset    its offset there
     * @param failedAt        when it was rejected
     * @return a record for {@code dlqTopic}, partition left to the producer
     * @throws NullPointerException if dlqTopic, reason, originTopic or failedAt is null
     */
    public static ProducerRecord<byte[], byte[]> of(String dlqTopic, byte[] key, byte[] value, Long timestamp,
                                                    Headers originalHeaders, String reason, String originTopic,
                                                    int originPartition, long originOffset, Instant failedAt) {
        ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(Objects.requireNonNull(dlqTopic, "dlqTopic"),
                null, timestamp == null || timestamp < 0 ? null : timestamp, key, value);
        if (originalHeaders != null) {
            for (Header header : originalHeaders) {
                record.headers().add(header.key(), header.value());
            }
        }
        String why = Objects.requireNonNull(reason, "reason");
        if (why.length() > MAX_REASON_CHARS) {
            why = why.substring(0, MAX_REASON_CHARS - 3) + "...";
        }
        add(record.headers(), REASON, why);
        add(record.headers(), ORIGIN_TOPIC, Objects.requireNonNull(originTopic, "originTopic"));
        add(record.headers(), ORIGIN_PARTITION, Integer.toString(originPartition));
        add(record.headers(), ORIGIN_OFFSET, Long.toString(originOffset));
        add(record.headers(), FAILED_AT, DateTimeFormatter.ISO_INSTANT.format(Objects.requireNonNull(failedAt, "failedAt")));
        return record;
    }

    /**
     * Reads one header as UTF-8 text: the last one of that name, as Kafka's {@link Headers#lastHeader} does.
     *
     * @param headers a record's headers
     * @param name    the header name, e.g. {@link #REASON}
     * @return its text, or null if the record has no such header (or its value is null)
     */
    public static String text(Headers headers, String name) {
        Header header = headers.lastHeader(name);
        return header == null || header.value() == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }

    private static void add(Headers headers, String name, String text) {
        headers.add(name, text.getBytes(StandardCharsets.UTF_8));
    }
}
