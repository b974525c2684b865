package dev.seams.it;

import dev.seams.fixture.StandContext;
import dev.seams.sinks.SinkTrait;
import dev.seams.truth.ClickHouse;
import dev.seams.truth.Endpoints;
import dev.seams.truth.RunNames;
import dev.seams.truth.Topics;
import dev.seams.truth.Totals;
import dev.seams.wire.DeadLetters;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.internals.RecordHeaders;

/**
 * What the dead-letter claims (G11 in {@code DlqIT}, G10 in {@code SinkValidationIT}, B2 in
 * {@code StreamsDeadLettersIT}) read and show of a record's fate: its dead letter's headers (origin, reason, failed-at,
 * the producer's own headers kept), the raw_totals row of a valid record at its own position, and the common start
 * of a sink-side claim ({@link SinkSide}).
 */
final class DeadLetterEvidence {

    /** A header the producer of a bad record attaches (the test's case); its dead letter must keep it. */
    static final String CASE_HEADER = "seams-case";
    /** Another such header, as a tracing system would attach. */
    static final String TRACE_HEADER = "trace-id";
    /** raw_totals rows with the position of the record each came from (sink/TotalsMapper keeps it). */
    static final String RAW_ROWS = "SELECT customer_id, orders, toString(total), kafka_partition, kafka_offset FROM raw_totals "
            + "ORDER BY kafka_partition, kafka_offset";
    /** The columns of a table of dead letters ({@link #letterRow}). */
    static final List<String> LETTER_COLUMNS = List.of("dlq offset", "origin topic", "origin partition",
            "origin offset", "dlq-reason");

    private DeadLetterEvidence() {
    }

    /** @return the text's UTF-8 bytes */
    static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /** Headers a producer of the bad record attached; the dead letter must keep them. */
    static RecordHeaders originalHeaders(String name) {
        RecordHeaders headers = new RecordHeaders();
        headers.add(CASE_HEADER, utf8(name));
        headers.add(TRACE_HEADER, utf8("dlq-it-" + name));
        return headers;
    }

    /**
     * The common start of a sink-side claim: customers 1 and 2 have orders in PostgreSQL (one of
     * 10.00 is inserted for a customer that has none, e.g. on a fresh stand), the stand settled
     * (ds-streams matches PG), the sink's tables emptied, the end of {@code customer.totals.dlq} marked.
     */
    record SinkSide(Endpoints stand, Topics topics, ClickHouse ch, Map<TopicPartition, Long> dlqMark) {
        /**
         * Settles the pipeline for a claim that injects records the sink must reject (G10, G11).
         *
         * @throws dev.seams.report.NotApplicableException if the sink under test has no dead-letter queue: the claim is
         *     NOT_RUN, and nothing is injected into {@code customer.totals}
         */
        static SinkSide settle(StandContext s) {
            s.requireSink(SinkTrait.DEAD_LETTER_QUEUE, "the claim injects records the sink must reject into the DLQ, with reasons");
            try (Connection c = s.endpoints().pg(); Statement st = c.createStatement()) {
                st.executeUpdate("INSERT INTO orders (customer_id, amount) SELECT v.c, 10.00 FROM (VALUES (1), (2)) AS v(c) "
                        + "WHERE NOT EXISTS (SELECT 1 FROM orders o WHERE o.customer_id = v.c)");
            } catch (SQLException ex) {
                throw new IllegalStateException("cannot give customers 1 and 2 an order", ex);
            }
            s.settle();
            s.ch().truncate("raw_totals", "customer_totals");
            return new SinkSide(s.endpoints(), s.topics(), s.ch(), s.topics().endOffsets(RunNames.CUSTOMER_TOTALS_DLQ));
        }
    }

    /** One row per dead letter for the report. */
    static List<Object> letterRow(ConsumerRecord<byte[], byte[]> letter) {
        return List.of(letter.offset(), header(letter, DeadLetters.ORIGIN_TOPIC), header(letter, DeadLetters.ORIGIN_PARTITION),
                header(letter, DeadLetters.ORIGIN_OFFSET), header(letter, DeadLetters.REASON));
    }

    /** @return the header's text, {@code -} if there is no letter or no such header */
    static String header(ConsumerRecord<byte[], byte[]> letter, String name) {
        String text = letter == null ? null : DeadLetters.text(letter.headers(), name);
        return text == null ? "-" : text;
    }

    /** @return {@code <partition>@<offset>} the dead letter names as its origin */
    static String originOf(ConsumerRecord<byte[], byte[]> letter) {
        return header(letter, DeadLetters.ORIGIN_PARTITION) + "@" + header(letter, DeadLetters.ORIGIN_OFFSET);
    }

    static String at(RecordMetadata md) {
        return md.partition() + "@" + md.offset();
    }

    /** @return the dead letter whose origin is that record, or null */
    static ConsumerRecord<byte[], byte[]> letterOf(List<ConsumerRecord<byte[], byte[]>> letters, RecordMetadata origin) {
        return letters.stream().filter(l -> originOf(l).equals(at(origin))).findFirst().orElse(null);
    }

    /** @return raw_totals as {@code customer:orders/total@partition@offset} (the record each row came from), in position order */
    static List<String> rawRows(ClickHouse ch) {
        return ch.rows(RAW_ROWS).stream().map(r -> r.get(0) + ":" + new Totals(Long.parseLong(r.get(1)), new BigDecimal(r.get(2)))
                + "@" + r.get(3) + "@" + r.get(4)).toList();
    }

    /** @return the raw_totals row text a valid record must produce: its values and its position */
    static String rawRow(long customer, Totals totals, RecordMetadata record) {
        return customer + ":" + totals + "@" + at(record);
    }

    /** @return whether raw_totals holds any row of that record */
    static boolean insertedAt(List<String> raw, RecordMetadata record) {
        return raw.stream().anyMatch(r -> r.endsWith("@" + at(record)));
    }

    static String finalOf(Map<Long, Totals> fin, long customer) {
        Totals t = fin.get(customer);
        return t == null ? "-" : t.toString();
    }

    /** @return whether dlq-failed-at is ISO-8601 UTC ending in Z and lies in [from, to] */
    static boolean failedAtWithin(ConsumerRecord<byte[], byte[]> letter, Instant from, Instant to) {
        String text = header(letter, DeadLetters.FAILED_AT);
        try {
            Instant at = Instant.parse(text);
            return text.endsWith("Z") && !at.isBefore(from) && !at.isAfter(to);
        } catch (DateTimeParseException ex) {
            return false;
        }
    }

}
