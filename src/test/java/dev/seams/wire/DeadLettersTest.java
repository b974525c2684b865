package dev.seams.wire;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;

/** The dead-letter format both links write (claims G11, B2). */
class DeadLettersTest {

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void keepsBodyTimestampAndOriginalHeadersThenAddsReasonAndOrigin() {
        byte[] key = {'1'};
        byte[] value = {(byte) 0xC3, 0x28, 0x00};
        RecordHeaders original = new RecordHeaders();
        original.add("trace-id", utf8("t-1"));
        original.add("empty", null);

        ProducerRecord<byte[], byte[]> letter = DeadLetters.of("customer.totals.dlq", key, value, 1_700_000_000_000L,
                original, "customer totals: field \"total\" is missing", "customer.totals", 2, 147,
                Instant.parse("2026-12-01T10:00:00.123Z"));

        assertThat(letter.topic()).isEqualTo("customer.totals.dlq");
        assertThat(letter.partition()).isNull();
        assertThat(letter.key()).isSameAs(key);
        assertThat(letter.value()).isSameAs(value);
        assertThat(letter.timestamp()).isEqualTo(1_700_000_000_000L);
        assertThat(letter.headers().toArray()).extracting(Header::key).containsExactly("trace-id", "empty",
                DeadLetters.REASON, DeadLetters.ORIGIN_TOPIC, DeadLetters.ORIGIN_PARTITION, DeadLetters.ORIGIN_OFFSET,
                DeadLetters.FAILED_AT);
        assertThat(DeadLetters.text(letter.headers(), "trace-id")).isEqualTo("t-1");
        assertThat(DeadLetters.text(letter.headers(), "empty")).isNull();
        assertThat(DeadLetters.text(letter.headers(), DeadLetters.REASON)).isEqualTo("customer totals: field \"total\" is missing");
        assertThat(DeadLetters.text(letter.headers(), DeadLetters.ORIGIN_TOPIC)).isEqualTo("customer.totals");
        assertThat(DeadLetters.text(letter.headers(), DeadLetters.ORIGIN_PARTITION)).isEqualTo("2");
        assertThat(DeadLetters.text(letter.headers(), DeadLetters.ORIGIN_OFFSET)).isEqualTo("147");
        assertThat(DeadLetters.text(letter.headers(), DeadLetters.FAILED_AT)).isEqualTo("2026-12-01T10:00:00.123Z");
    }

    @Test
    void aTombstoneStaysNullAndAMissingTimestampIsLeftToTheProducer() {
        ProducerRecord<byte[], byte[]> letter = DeadLetters.of("d", null, null, -1L, null, "tombstone", "t", 0, 0,
                Instant.EPOCH);

        assertThat(letter.key()).isNull();
        assertThat(letter.value()).isNull();
        assertThat(letter.timestamp()).isNull();
        assertThat(DeadLetters.text(letter.headers(), DeadLetters.FAILED_AT)).isEqualTo("1970-01-01T00:00:00Z");
    }

    @Test
    void aLongReasonIsCut() {
        ProducerRecord<byte[], byte[]> letter = DeadLetters.of("d", null, null, null, null, "r".repeat(5_000), "t", 0, 0,
                Instant.EPOCH);

        String reason = DeadLetters.text(letter.headers(), DeadLetters.REASON);
        assertThat(reason).hasSize(DeadLetters.MAX_REASON_CHARS).endsWith("r...");
    }
}
