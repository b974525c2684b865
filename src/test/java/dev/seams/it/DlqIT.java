package dev.seams.it;

import dev.seams.cli.ExitStatus;
import dev.seams.dlq.DeadLetters;
import dev.seams.report.Anomaly;
import dev.seams.report.Claim;
import dev.seams.report.ClaimEvidence;
import dev.seams.report.FaultNotObservedException;
import dev.seams.sink.CustomerRange;
import dev.seams.sink.SinkMode;
import dev.seams.sink.SinkOptions;
import dev.seams.sink.SinkSummary;
import dev.seams.stand.ClickHouse;
import dev.seams.stand.Injection;
import dev.seams.stand.Pipeline;
import dev.seams.stand.Reconciliation;
import dev.seams.stand.SinkCli;
import dev.seams.stand.Stand;
import dev.seams.stand.StandContext;
import dev.seams.stand.Topics;
import dev.seams.stand.Totals;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Bad records never stop the pipeline and never vanish (seed section "DLQ: битое событие не
 * роняет пайплайн"; the seed's admitted gap before Streams): G10 (unknown field tolerated, invalid
 * value rejected), G11 (DLQ routing, one entry per payload, plus the negative control and a failing
 * DLQ write), B2 (Streams-level DLQ). Every test follows each record it produced by its offset:
 * into ClickHouse or into a dead-letter topic, never neither.
 *
 * <p>The sink-side claims (G10, G11) write records straight into {@code customer.totals} with a
 * plain producer; {@link Injection} resets {@code ds-sink} to the end of {@code customer.totals}
 * first and removes the injected records afterwards, so the claims run in any order. What reaches
 * ClickHouse in those claims is therefore what the test itself wrote, never a pipeline result: their
 * figures say which record was inserted or dead-lettered, they are no parity with PostgreSQL. B2 runs
 * through the real pipeline (Debezium, ds-streams) and reconciles with PostgreSQL.
 */
@ExtendWith(StandContext.Resolver.class)
class DlqIT {

    /** Size of the "1 MB" payload: 10^6 bytes, under the broker's default message.max.bytes (1048588). */
    private static final int ONE_MB = 1_000_000;
    /** The customer whose good records surround the bad ones. */
    private static final long CUSTOMER = 1;
    /** The seed's opt-in rule ({@code --customers 1..5}), passed wherever the range rule is tested. */
    private static final CustomerRange SEED_RANGE = new CustomerRange(1, 5);
    private static final String CASE_HEADER = "seams-case";
    private static final String TRACE_HEADER = "trace-id";
    /** raw_totals rows with the position of the record each came from (sink/TotalsMapper keeps it). */
    private static final String RAW_ROWS = "SELECT customer_id, orders, toString(total), kafka_partition, kafka_offset FROM raw_totals "
            + "ORDER BY kafka_partition, kafka_offset";
    private static final List<String> LETTER_COLUMNS = List.of("dlq offset", "origin topic", "origin partition",
            "origin offset", "dlq-reason");

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /** {@code {"customer_id":1,"orders":1,"total":"1.00","note":"\xC3("}}: invalid UTF-8 in an unknown field. */
    private static byte[] invalidUtf8() {
        byte[] head = utf8("{\"customer_id\":1,\"orders\":1,\"total\":\"1.00\",\"note\":\"");
        byte[] value = Arrays.copyOf(head, head.length + 4);
        value[head.length] = (byte) 0xC3;
        value[head.length + 1] = 0x28;
        value[head.length + 2] = '"';
        value[head.length + 3] = '}';
        return value;
    }

    /** A JSON object of exactly {@value #ONE_MB} bytes, valid but for its size. */
    private static byte[] oneMegabyte() {
        String head = "{\"customer_id\":1,\"orders\":1,\"total\":\"1.00\",\"note\":\"";
        return utf8(head + "x".repeat(ONE_MB - head.length() - 2) + "\"}");
    }

    /** A record that is no valid totals snapshot, with the exact reason the sink must give it. */
    private record Payload(String name, byte[] value, String expectedReason) {
    }

    /** @return G11's bad payloads, at least those docs/claims.md names, in the order they are written */
    private static List<Payload> payloads() {
        return List.of(
                new Payload("not-a-json", utf8("not-a-json{{{"), "customer totals: not valid JSON: Unrecognized token 'not': "
                        + "was expecting (JSON String, Number, Array, Object or token 'null', 'true' or 'false')"),
                new Payload("empty-object", utf8("{}"), "customer totals: field \"customer_id\" is missing"),
                new Payload("customer-id-only", utf8("{\"customer_id\":1}"), "customer totals: field \"orders\" is missing"),
                new Payload("no-total", utf8("{\"customer_id\":1,\"orders\":1}"), "customer totals: field \"total\" is missing"),
                new Payload("json-array", utf8("[{\"customer_id\":1,\"orders\":1,\"total\":\"1.00\"}]"),
                        "customer totals: not a JSON object: [{\"customer_id\":1,\"orders\":1,\"total\":\"1.00\"}]"),
                new Payload("one-megabyte", oneMegabyte(), "value too large: " + ONE_MB + " bytes > limit 65536"),
                new Payload("invalid-utf8", invalidUtf8(), "customer totals: not valid JSON: Invalid UTF-8 middle byte 0x28"),
                new Payload("tombstone", null, "null value (tombstone) where a totals snapshot was expected"),
                new Payload("null-total", utf8("{\"customer_id\":1,\"orders\":1,\"total\":null}"),
                        "customer totals: field \"total\" is null"),
                new Payload("comma-decimal", utf8("{\"customer_id\":1,\"orders\":1,\"total\":\"12,34\"}"),
                        "customer totals: field \"total\" is not a decimal: \"12,34\""));
    }

    /** Headers a producer of the bad record attached; the dead letter must keep them. */
    private static RecordHeaders originalHeaders(String name) {
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
    private record SinkSide(Stand stand, Topics topics, ClickHouse ch, Map<TopicPartition, Long> dlqMark) {
        static SinkSide settle(StandContext s) {
            try (Connection c = s.stand().pg(); Statement st = c.createStatement()) {
                st.executeUpdate("INSERT INTO orders (customer_id, amount) SELECT v.c, 10.00 FROM (VALUES (1), (2)) AS v(c) "
                        + "WHERE NOT EXISTS (SELECT 1 FROM orders o WHERE o.customer_id = v.c)");
            } catch (SQLException ex) {
                throw new IllegalStateException("cannot give customers 1 and 2 an order", ex);
            }
            s.settle();
            s.ch().truncate("raw_totals", "customer_totals");
            return new SinkSide(s.stand(), s.topics(), s.ch(), s.topics().endOffsets(Stand.CUSTOMER_TOTALS_DLQ));
        }
    }

    /** One row per dead letter for the report. */
    private static List<Object> letterRow(ConsumerRecord<byte[], byte[]> letter) {
        return List.of(letter.offset(), header(letter, DeadLetters.ORIGIN_TOPIC), header(letter, DeadLetters.ORIGIN_PARTITION),
                header(letter, DeadLetters.ORIGIN_OFFSET), header(letter, DeadLetters.REASON));
    }

    /** @return the header's text, {@code -} if there is no letter or no such header */
    private static String header(ConsumerRecord<byte[], byte[]> letter, String name) {
        String text = letter == null ? null : DeadLetters.text(letter.headers(), name);
        return text == null ? "-" : text;
    }

    /** @return {@code <partition>@<offset>} the dead letter names as its origin */
    private static String originOf(ConsumerRecord<byte[], byte[]> letter) {
        return header(letter, DeadLetters.ORIGIN_PARTITION) + "@" + header(letter, DeadLetters.ORIGIN_OFFSET);
    }

    private static String at(RecordMetadata md) {
        return md.partition() + "@" + md.offset();
    }

    /** @return the dead letter whose origin is that record, or null */
    private static ConsumerRecord<byte[], byte[]> letterOf(List<ConsumerRecord<byte[], byte[]>> letters, RecordMetadata origin) {
        return letters.stream().filter(l -> originOf(l).equals(at(origin))).findFirst().orElse(null);
    }

    /** @return raw_totals as {@code customer:orders/total@partition@offset} (the record each row came from), in position order */
    private static List<String> rawRows(ClickHouse ch) {
        return ch.rows(RAW_ROWS).stream().map(r -> r.get(0) + ":" + new Totals(Long.parseLong(r.get(1)), new BigDecimal(r.get(2)))
                + "@" + r.get(3) + "@" + r.get(4)).toList();
    }

    /** @return the raw_totals row text a valid record must produce: its values and its position */
    private static String rawRow(long customer, Totals totals, RecordMetadata record) {
        return customer + ":" + totals + "@" + at(record);
    }

    /** @return whether raw_totals holds any row of that record */
    private static boolean insertedAt(List<String> raw, RecordMetadata record) {
        return raw.stream().anyMatch(r -> r.endsWith("@" + at(record)));
    }

    private static String finalOf(Map<Long, Totals> fin, long customer) {
        Totals t = fin.get(customer);
        return t == null ? "-" : t.toString();
    }

    /** @return whether dlq-failed-at is ISO-8601 UTC ending in Z and lies in [from, to] */
    private static boolean failedAtWithin(ConsumerRecord<byte[], byte[]> letter, Instant from, Instant to) {
        String text = header(letter, DeadLetters.FAILED_AT);
        try {
            Instant at = Instant.parse(text);
            return text.endsWith("Z") && !at.isBefore(from) && !at.isAfter(to);
        } catch (DateTimeParseException ex) {
            return false;
        }
    }

    /** One bad payload of G11 and the good snapshot written right after it, where each landed. */
    private record Routed(Payload payload, RecordMetadata bad, RecordMetadata good) {
    }

    /**
     * G11 with every payload in ONE sink run, each record's fate checked on its own: the payloads are written
     * into {@code customer.totals} one after the other, each followed by a good snapshot of the same customer
     * (same key, so the same partition, in this order), then the sink CLI runs once until caught up. Each
     * payload gets its own entry {@code G11[<payload>]} — its dead letter (origin, exact reason, failed-at, the
     * original headers, key and body byte for byte), nothing of it in ClickHouse, the good record after it
     * inserted from its own position — and this entry holds the run's totals.
     */
    @Test
    @Claim(id = "G11", variant = "every payload in one sink run", title = "DLQ routing", exercises = {"sink/Sink",
            "sink/TotalsValidator", "sink/DeadLetterWriter", "dlq/DeadLetters", "cli/SinkCommand"})
    void g11DlqRouting(ClaimEvidence e, StandContext s) {
        SinkSide side = SinkSide.settle(s);
        Instant started = Instant.now();
        try (Injection injection = Injection.open(side.stand())) {
            Map<TopicPartition, Long> totalsMark = side.topics().endOffsets(Stand.CUSTOMER_TOTALS);
            Totals goodTotals = s.pg().truth().get(CUSTOMER);
            List<Routed> routed = new ArrayList<>();
            for (Payload p : payloads()) {
                RecordMetadata bad = injection.send(Stand.CUSTOMER_TOTALS, Long.toString(CUSTOMER), p.value(), originalHeaders(p.name()));
                RecordMetadata good = injection.send(Stand.CUSTOMER_TOTALS, Long.toString(CUSTOMER),
                        injection.snapshot(CUSTOMER, goodTotals), null);
                routed.add(new Routed(p, bad, good));
            }

            SinkCli run = SinkCli.run(side.stand(), "--until-caught-up");

            long written = injection.since(Stand.CUSTOMER_TOTALS, totalsMark).size();
            List<ConsumerRecord<byte[], byte[]>> letters = injection.since(Stand.CUSTOMER_TOTALS_DLQ, side.dlqMark());
            List<String> raw = rawRows(side.ch());
            Instant ended = Instant.now();
            SinkSummary summary = run.summary();
            List<String> goodRows = routed.stream().map(r -> rawRow(CUSTOMER, goodTotals, r.good())).toList();

            e.figure("summary", summary.line());
            e.figure("payloads", routed.size());
            e.check("exit_status", run.exitStatus()).isZero("the sink CLI ends normally after the bad records");
            e.check("records_written", written).isEqualTo(2L * routed.size(),
                    "records in customer.totals since the test began: each payload and the good one after it");
            e.check("sink_bad", summary.bad()).isEqualTo(routed.size(), "records the sink rejected: the payloads");
            e.check("sink_inserted", summary.inserted()).isEqualTo(routed.size(), "records inserted: the good ones");
            e.check("insert_errors", summary.insertErrors()).isZero("failed ClickHouse inserts");
            e.check("dlq_errors", summary.dlqErrors()).isZero("failed dead-letter writes");
            e.check("dlq_records", letters.size()).isEqualTo(routed.size(), "dead letters the run wrote: one per payload");
            e.check("raw_totals_rows", raw.toString()).isEqualTo(goodRows.toString(),
                    "raw_totals (customer:orders/total@partition@offset) holds each good record from its record, nothing else");
            e.check("final_customer_" + CUSTOMER, finalOf(side.ch().finalTotals(), CUSTOMER)).isEqualTo(goodTotals.toString(),
                    "customer_totals FINAL holds the good snapshots the test injected after the bad ones");
            e.table("Dead letters of this run", LETTER_COLUMNS, letters.stream().map(DlqIT::letterRow).toList());
            for (Routed r : routed) {
                recordFate(e.part(r.payload().name()), r, run, letterOf(letters, r.bad()), raw, rawRow(CUSTOMER, goodTotals, r.good()),
                        started, ended);
            }
            e.note("Every payload, each followed by a good snapshot of customer " + CUSTOMER + ", was written by the test into "
                    + "customer.totals and read by one sink run; ClickHouse is compared with what the test wrote, not with PostgreSQL.");
        }
    }

    /** One payload's entry of G11: its dead letter, checked field by field, and the good record after it. */
    private static void recordFate(ClaimEvidence e, Routed r, SinkCli run, ConsumerRecord<byte[], byte[]> letter, List<String> raw,
                                   String goodRow, Instant from, Instant to) {
        e.figure("summary", run.summary().line());
        e.figure("payload_bytes", r.payload().value() == null ? -1 : r.payload().value().length);
        e.figure("bad_offset", at(r.bad()));
        e.figure("good_offset", at(r.good()));
        e.check("exit_status", run.exitStatus()).isZero("the sink CLI run that read this payload ended normally");
        e.check("insert_errors", run.summary().insertErrors()).isZero("failed ClickHouse inserts of that run");
        e.check("dlq_errors", run.summary().dlqErrors()).isZero("failed dead-letter writes of that run");
        e.check("dlq_origin", header(letter, DeadLetters.ORIGIN_TOPIC) + "-" + originOf(letter))
                .isEqualTo(Stand.CUSTOMER_TOTALS + "-" + at(r.bad()), "dlq-origin-topic/partition/offset name the bad record");
        e.check("dlq_reason", header(letter, DeadLetters.REASON)).isEqualTo(r.payload().expectedReason(), "dlq-reason, exact");
        e.figure("dlq_failed_at", header(letter, DeadLetters.FAILED_AT));
        e.check("dlq_failed_at_during_run", failedAtWithin(letter, from, to))
                .isTrue("dlq-failed-at is ISO-8601 UTC (…Z) between the test's start and the end of the run");
        e.check("dlq_original_headers", header(letter, CASE_HEADER) + ", " + header(letter, TRACE_HEADER))
                .isEqualTo(r.payload().name() + ", dlq-it-" + r.payload().name(), "the bad record's own headers (" + CASE_HEADER + ", " + TRACE_HEADER + ") are kept");
        e.check("dlq_key_sha256", letter == null ? "-" : Injection.sha256(letter.key()))
                .isEqualTo(Injection.sha256(utf8(Long.toString(CUSTOMER))), "key, byte for byte");
        e.check("dlq_body_sha256", letter == null ? "-" : Injection.sha256(letter.value()))
                .isEqualTo(Injection.sha256(r.payload().value()), "value, byte for byte (a tombstone stays null)");
        e.check("bad_record_rows_in_raw_totals", raw.stream().filter(row -> row.endsWith("@" + at(r.bad()))).count())
                .isZero("raw_totals rows from the bad record's position");
        e.check("next_good_record_inserted", raw.contains(goodRow)).isTrue("the good snapshot after the bad record is in raw_totals, "
                + "from its own position (" + goodRow + ")");
        e.anomaly(Anomaly.LOST, (letter == null && !insertedAt(raw, r.bad()) ? 1 : 0) + (raw.contains(goodRow) ? 0 : 1));
        e.anomaly(Anomaly.WRONG_VALUE, insertedAt(raw, r.bad()) ? 1 : 0);
        e.note("Read in one sink run with the other payloads (G11[every payload in one sink run]); the bad record and the "
                + "good one after it are the test's own, not a pipeline result.");
    }

    @Test
    @Claim(id = "G11", variant = "negative-control", title = "DLQ routing: what validation prevents",
            exercises = {"sink/TotalsValidator", "sink/TotalsMapper"})
    void g11NegativeControl(ClaimEvidence e, StandContext s) {
        SinkSide side = SinkSide.settle(s);
        try (Injection injection = Injection.open(side.stand())) {
            Map<TopicPartition, Long> start = side.topics().endOffsets(Stand.CUSTOMER_TOTALS);
            Totals good = s.pg().truth().get(CUSTOMER);
            Totals falseZero = new Totals(0, BigDecimal.ZERO);
            injection.send(Stand.CUSTOMER_TOTALS, Long.toString(CUSTOMER), injection.snapshot(CUSTOMER, good), null);
            RecordMetadata bad = injection.send(Stand.CUSTOMER_TOTALS, Long.toString(CUSTOMER), utf8("{\"customer_id\":1}"),
                    originalHeaders("negative-control"));

            SinkSummary twin = s.sink(SinkMode.TOTALS, o -> o.withValidation(false));
            Totals twinFinal = side.ch().finalTotals().get(CUSTOMER);
            long twinDlq = injection.since(Stand.CUSTOMER_TOTALS_DLQ, side.dlqMark()).size();

            side.ch().truncate("raw_totals", "customer_totals");
            side.topics().resetGroup(SinkOptions.DEFAULT_GROUP, start);
            SinkSummary guarded = s.sink(SinkMode.TOTALS, o -> o);
            Totals guardedFinal = side.ch().finalTotals().get(CUSTOMER);
            List<ConsumerRecord<byte[], byte[]>> guardedLetters = injection.since(Stand.CUSTOMER_TOTALS_DLQ, side.dlqMark());

            e.figure("good_record", good.toString());
            e.figure("bad_offset", at(bad));
            e.figure("validation_off_summary", twin.line());
            e.figure("validation_off_final", String.valueOf(twinFinal));
            e.figure("validation_off_dlq_records", twinDlq);
            e.negativeControl("validation_off_false_zero_in_final", falseZero.equals(twinFinal) && !falseZero.equals(good) ? 1 : 0,
                    Anomaly.WRONG_VALUE, "without validation {\"customer_id\":1} becomes 0/0.00, gets the newest version and replaces "
                            + "the good snapshot in FINAL");
            e.figure("validation_on_summary", guarded.line());
            e.check("validation_on_bad", guarded.bad()).isEqualTo(1, "with validation the record is rejected");
            e.check("validation_on_inserted", guarded.inserted()).isEqualTo(1, "only the good snapshot is inserted");
            e.check("validation_on_dlq_records", guardedLetters.size()).isEqualTo(1, "the rejected record is dead-lettered");
            e.check("validation_on_dlq_origin", guardedLetters.isEmpty() ? "-" : originOf(guardedLetters.get(0)))
                    .isEqualTo(at(bad), "the dead letter is the bad record");
            e.check("validation_on_final", String.valueOf(guardedFinal)).isEqualTo(good.toString(),
                    "FINAL keeps the good snapshot the test injected before the bad record");
            e.anomaly(Anomaly.WRONG_VALUE, good.equals(guardedFinal) ? 0 : 1);
            e.table("{\"customer_id\":1} after a good snapshot of customer 1", List.of("sink", "FINAL orders/total", "good record", "dead letters"),
                    List.of(List.of("validation off (the seed's unvalidated consumer)", String.valueOf(twinFinal), good, twinDlq),
                            List.of("validation on", String.valueOf(guardedFinal), good, (long) guardedLetters.size())));
            e.note("Negative control: without validation the missing orders/total become 0, the record gets the highest "
                    + "version and FINAL reports customer " + CUSTOMER + " with a false zero; with validation it goes to "
                    + "the DLQ and FINAL keeps the good snapshot. Both records are the test's own, not a pipeline result.");
        }
    }

    @Test
    @Claim(id = "G11", variant = "dlq-write-fails", title = "DLQ routing: a failed dead-letter write commits nothing",
            exercises = {"sink/Sink", "sink/DeadLetterWriter", "cli/SinkCommand"})
    void g11FailingDeadLetterWrite(ClaimEvidence e, StandContext s) {
        SinkSide side = SinkSide.settle(s);
        String tiny = "customer.totals.dlq.tiny";
        createTopic(side.stand(), new NewTopic(tiny, 1, side.stand().replicationFactor()).configs(Map.of("max.message.bytes", "64")));
        try (Injection injection = Injection.open(side.stand())) {
            Map<TopicPartition, Long> start = side.topics().endOffsets(Stand.CUSTOMER_TOTALS);
            Totals goodTotals = s.pg().truth().get(CUSTOMER);
            RecordMetadata bad = injection.send(Stand.CUSTOMER_TOTALS, Long.toString(CUSTOMER),
                    utf8("{\"customer_id\":1}"), originalHeaders("dlq-write-fails"));
            RecordMetadata good = injection.send(Stand.CUSTOMER_TOTALS, Long.toString(CUSTOMER),
                    injection.snapshot(CUSTOMER, goodTotals), null);
            TopicPartition tp = new TopicPartition(Stand.CUSTOMER_TOTALS, bad.partition());

            SinkCli failing = SinkCli.run(side.stand(), "--for", "12s", "--dlq-topic", tiny);
            long committedAfterFailure = committedOffset(side.stand(), tp);
            long rawAfterFailure = side.ch().scalar("SELECT count() FROM raw_totals");
            long tinyRecords = side.topics().committedRecordCount(tiny);
            e.figure("failing_summary", failing.summary().line());
            if (failing.summary().dlqErrors() == 0) {
                throw new FaultNotObservedException("the dead-letter write into " + tiny + " (max.message.bytes=64) did not fail: "
                        + failing.summary().line());
            }

            SinkCli recovery = SinkCli.run(side.stand(), "--until-caught-up");
            long committedAfterRecovery = committedOffset(side.stand(), tp);
            List<ConsumerRecord<byte[], byte[]>> letters = injection.since(Stand.CUSTOMER_TOTALS_DLQ, side.dlqMark());
            ConsumerRecord<byte[], byte[]> letter = letterOf(letters, bad);
            List<String> raw = rawRows(side.ch());
            String goodRow = rawRow(CUSTOMER, goodTotals, good);

            e.figure("failing_dlq_errors", failing.summary().dlqErrors());
            e.check("failing_exit_status", failing.exitStatus()).isEqualTo(ExitStatus.PERMANENT_WRITE,
                    "a dead-letter write the broker refuses for good (record too large) stops the run, its batch uncommitted (docs/sink.md, exit statuses)");
            e.check("failing_inserted", failing.summary().inserted()).isZero("nothing counted as inserted: nothing was committed");
            e.check("failing_uncommitted", failing.summary().uncommitted()).isPositive("records of the batch left uncommitted");
            e.figure("committed_offset_before", start.get(tp));
            e.check("committed_offset_after_failure", committedAfterFailure).isEqualTo(start.get(tp),
                    "ds-sink's offset unchanged by the failing run");
            e.check("records_in_tiny_dlq", tinyRecords).isZero("the tiny topic refused every dead letter");
            e.figure("raw_rows_after_failure", rawAfterFailure);
            e.figure("recovery_summary", recovery.summary().line());
            e.check("recovery_exit_status", recovery.exitStatus()).isZero("the recovery run ends normally");
            e.check("recovery_bad", recovery.summary().bad()).isEqualTo(1, "the bad record is rejected again, this time for good");
            e.check("recovery_inserted", recovery.summary().inserted()).isEqualTo(1, "the next good record was inserted and committed");
            e.check("recovery_dlq_errors", recovery.summary().dlqErrors()).isZero("the default DLQ accepts the dead letter");
            e.check("committed_offset_after_recovery", committedAfterRecovery).isEqualTo(good.offset() + 1,
                    "offsets committed after the dead letter was acknowledged");
            e.check("dlq_records", letters.size()).isEqualTo(1, "the dead letter, once");
            e.check("dlq_origin", originOf(letter)).isEqualTo(at(bad), "the dead letter is the bad record");
            e.check("raw_rows_after_recovery", (long) raw.size()).isEqualTo(rawAfterFailure + 1,
                    "raw_totals: the good row once per attempt (at-least-once: the failed batch is re-read)");
            e.check("raw_rows_not_the_good_record", raw.stream().filter(r -> !r.equals(goodRow)).count())
                    .isZero("every raw_totals row is the good record at its offset; nothing of the bad one");
            e.check("final_customer_" + CUSTOMER, finalOf(side.ch().finalTotals(), CUSTOMER)).isEqualTo(goodTotals.toString(),
                    "customer_totals FINAL holds the good record the test injected, once");
            e.anomaly(Anomaly.LOST, (letter == null ? 1 : 0) + (raw.contains(goodRow) ? 0 : 1));
            e.note("Each failed attempt had inserted the good row before its dead-letter write failed, so raw_totals "
                    + "holds " + raw.size() + " copies of it (at-least-once: the batch is re-read); customer_totals FINAL has "
                    + "one row. Both records are the test's own, not a pipeline result.");
        }
    }

    /** @return ds-sink's committed offset of the partition, -1 if none */
    private static long committedOffset(Stand stand, TopicPartition tp) {
        try {
            OffsetAndMetadata om = stand.admin().listConsumerGroupOffsets(SinkOptions.DEFAULT_GROUP)
                    .partitionsToOffsetAndMetadata().get().get(tp);
            return om == null ? -1 : om.offset();
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(ex);
        } catch (java.util.concurrent.ExecutionException ex) {
            throw new IllegalStateException("cannot read the offsets of " + SinkOptions.DEFAULT_GROUP, ex);
        }
    }

    private static void createTopic(Stand stand, NewTopic topic) {
        Topics.of(stand).create(topic, true);
    }

    /**
     * One record of the G10 mix: what it is, its bytes, and its expected fate: inserted as
     * {@code valid} (its key is its customer_id), or dead-lettered with a reason {@code reasonOk} accepts.
     */
    private record Mixed(String label, Integer key, byte[] value, Totals valid, String expected, Predicate<String> reasonOk) {

        static Mixed valid(String label, int customer, byte[] value, Totals totals) {
            return new Mixed(label, customer, value, totals, "inserted", r -> false);
        }

        static Mixed rejected(String label, Integer key, byte[] value, String reason) {
            return new Mixed(label, key, value, null, "DLQ: " + reason, reason::equals);
        }

        boolean isValid() {
            return valid != null;
        }
    }

    /** @return a snapshot's JSON with the customer's next version ({@link Injection#nextVersion}); null fields are left out */
    private static byte[] snapshotJson(Injection injection, long customer, String orders, String total, String extra) {
        return utf8("{\"customer_id\":" + customer + (orders == null ? "" : ",\"orders\":" + orders)
                + (total == null ? "" : ",\"total\":\"" + total + "\"") + ",\"version\":" + injection.nextVersion(customer) + extra + "}");
    }

    @Test
    @Claim(id = "G10", title = "Unknown field tolerated, invalid value rejected", exercises = {"sink/TotalsValidator",
            "sink/CustomerRange", "streams/CustomerTotals", "sink/Sink"})
    void g10UnknownFieldToleratedInvalidValueRejected(ClaimEvidence e, StandContext s) {
        SinkSide side = SinkSide.settle(s);
        Map<Long, Totals> truth = s.pg().truth();
        Totals one = truth.get(1L);
        Totals two = truth.get(2L);
        Totals zero = new Totals(0, BigDecimal.ZERO);
        try (Injection injection = Injection.open(side.stand())) {
            String missingOrders = "customer totals: field \"orders\" is missing";
            List<Mixed> mix = List.of(
                    Mixed.valid("new field currency (customer 2)", 2, snapshotJson(injection, 2, Long.toString(two.orders()),
                            two.total().toPlainString(), ",\"currency\":\"RUB\""), two),
                    Mixed.rejected("customer_id 6, outside the seed's opt-in --customers " + SEED_RANGE, 6, snapshotJson(injection, 6, "1", "1.00", ""),
                            "customer_id 6 outside the configured range " + SEED_RANGE),
                    Mixed.rejected("customer_id missing", 1, utf8("{\"orders\":1,\"total\":\"1.00\"}"),
                            "customer totals: field \"customer_id\" is missing"),
                    Mixed.rejected("customer_id explicit 0, outside the seed's opt-in --customers " + SEED_RANGE, 0, snapshotJson(injection, 0, "1", "1.00", ""),
                            "customer_id 0 outside the configured range " + SEED_RANGE),
                    Mixed.rejected("orders missing", 1, snapshotJson(injection, 1, null, "1.00", ""), missingOrders),
                    Mixed.rejected("orders explicit 0 with total 1.00", 1, snapshotJson(injection, 1, "0", "1.00", ""),
                            "orders is 0 but total is 1.00"),
                    Mixed.rejected("orders explicit 0 with total -5.00", 1, snapshotJson(injection, 1, "0", "-5.00", ""),
                            "orders is 0 but total is -5.00"),
                    Mixed.rejected("orders -1", 1, snapshotJson(injection, 1, "-1", "1.00", ""), "orders must be >= 0, got -1"),
                    Mixed.rejected("total null", 1, utf8("{\"customer_id\":1,\"orders\":1,\"total\":null,\"version\":"
                            + injection.nextVersion(1) + "}"), "customer totals: field \"total\" is null"),
                    Mixed.rejected("version 0", 1, utf8("{\"customer_id\":1,\"orders\":1,\"total\":\"1.00\",\"version\":0}"),
                            "version must be >= 1, got 0"),
                    Mixed.rejected("no key", null, snapshotJson(injection, 1, "1", "1.00", ""), "record key null does not match customer_id 1"),
                    Mixed.valid("a refund: orders 1, total -5.00 (B11)", 1, snapshotJson(injection, 1, "1", "-5.00", ""),
                            new Totals(1, new BigDecimal("-5.00"))),
                    Mixed.valid("orders 2, total 0.00 (a refund cancels an order)", 1, snapshotJson(injection, 1, "2", "0.00", ""),
                            new Totals(2, new BigDecimal("0.00"))),
                    Mixed.valid("orders 2, total -5.00", 1, snapshotJson(injection, 1, "2", "-5.00", ""), new Totals(2, new BigDecimal("-5.00"))),
                    Mixed.rejected("total missing", 1, snapshotJson(injection, 1, "1", null, ""), "customer totals: field \"total\" is missing"),
                    Mixed.valid("total explicit 0.00 (orders 1)", 1, snapshotJson(injection, 1, "1", "0.00", ""), new Totals(1, BigDecimal.ZERO)),
                    Mixed.valid("0 orders and 0.00 (customer 3: last order deleted or moved, B11)", 3, snapshotJson(injection, 3, "0", "0.00", ""), zero),
                    Mixed.rejected("version missing", 1, utf8("{\"customer_id\":1,\"orders\":1,\"total\":\"1.00\"}"),
                            "customer totals: field \"version\" is missing"),
                    Mixed.rejected("key 2 for customer_id 1", 2, snapshotJson(injection, 1, "1", "1.00", ""),
                            "record key \"2\" does not match customer_id 1"),
                    Mixed.valid("customer 1, last snapshot", 1, injection.snapshot(1, one), one));
            Map<TopicPartition, Long> start = side.topics().endOffsets(Stand.CUSTOMER_TOTALS);
            Map<Mixed, RecordMetadata> sent = new LinkedHashMap<>();
            List<String> expectedRows = new ArrayList<>();
            Map<Long, Totals> lastValid = new TreeMap<>();
            for (Mixed m : mix) {
                RecordMetadata md = injection.send(Stand.CUSTOMER_TOTALS, m.key() == null ? null : m.key().toString(), m.value(), null);
                sent.put(m, md);
                if (m.isValid()) {
                    expectedRows.add(rawRow(m.key(), m.valid(), md));
                    lastValid.put(m.key().longValue(), m.valid());
                }
            }
            long written = injection.since(Stand.CUSTOMER_TOTALS, start).size();

            SinkSummary run = s.sink(SinkMode.TOTALS, o -> o.withCustomers(SEED_RANGE));

            List<ConsumerRecord<byte[], byte[]>> letters = injection.since(Stand.CUSTOMER_TOTALS_DLQ, side.dlqMark());
            List<String> raw = rawRows(side.ch());
            Map<Long, Totals> fin = side.ch().finalTotals();
            List<List<Object>> fates = new ArrayList<>();
            long wrongFate = 0;
            long lost = 0;
            for (Map.Entry<Mixed, RecordMetadata> entry : sent.entrySet()) {
                Mixed m = entry.getKey();
                RecordMetadata md = entry.getValue();
                ConsumerRecord<byte[], byte[]> letter = letterOf(letters, md);
                boolean inserted = insertedAt(raw, md);
                String fate = letter != null ? "DLQ: " + header(letter, DeadLetters.REASON) : inserted ? "inserted" : "missing";
                boolean right = m.isValid()
                        ? letter == null && raw.contains(rawRow(m.key(), m.valid(), md))
                        : !inserted && letter != null && m.reasonOk().test(header(letter, DeadLetters.REASON));
                wrongFate += right ? 0 : 1;
                lost += letter == null && !inserted ? 1 : 0;
                fates.add(List.of(m.label(), at(md), m.expected(), fate));
            }
            long validCount = mix.stream().filter(Mixed::isValid).count();

            e.figure("summary", run.line());
            e.figure("customer_range", SEED_RANGE.toString());
            e.check("records_written", written).isEqualTo(mix.size(), "records in customer.totals since the test began: the mix");
            e.check("sink_inserted", run.inserted()).isEqualTo(validCount, "valid records inserted");
            e.check("sink_bad", run.bad()).isEqualTo(mix.size() - validCount, "invalid records rejected");
            e.check("dlq_records", letters.size()).isEqualTo(mix.size() - validCount, "dead letters: one per invalid record");
            e.check("insert_errors", run.insertErrors()).isZero("failed ClickHouse inserts");
            e.check("dlq_errors", run.dlqErrors()).isZero("failed dead-letter writes");
            e.check("raw_totals_rows", raw.stream().sorted().toList().toString())
                    .isEqualTo(expectedRows.stream().sorted().toList().toString(),
                            "raw_totals rows (customer:orders/total@partition@offset) = the valid records, each from its own record");
            e.check("records_with_wrong_fate", wrongFate).isZero("records not inserted/dead-lettered as expected, with the expected reason");
            lastValid.forEach((customer, totals) -> e.check("final_customer_" + customer, finalOf(fin, customer))
                    .isEqualTo(totals.toString(), "customer_totals FINAL holds the last valid record the test wrote for customer " + customer));
            e.anomaly(Anomaly.LOST, lost);
            e.table("Each record's fate", List.of("record", "origin", "expected", "actual"), fates);
            e.table("Dead letters of this run", LETTER_COLUMNS, letters.stream().map(DlqIT::letterRow).toList());
            e.note("Missing and explicit zero are told apart by the reason; an explicit total 0.00 is valid, so is a snapshot "
                    + "of 0 orders and 0.00 (a customer whose last order was deleted or moved); the unknown field currency is "
                    + "ignored, not refused. The range rule is the seed's opt-in --customers " + SEED_RANGE + ", passed explicitly. "
                    + "Every record is the test's own: FINAL is compared with the last valid record written per customer, not with PG.");
        }
    }

    /** One invalid orders.events record of B2. */
    private record BadEvent(String label, String json, String expectedReason) {
    }

    @Test
    @Claim(id = "B2", title = "Bad input before Streams is not silently lost", exercises = {"streams/TotalsTopology",
            "streams/DeadLetterHandler", "streams/OrderEvent"})
    void b2StreamsDeadLetters(ClaimEvidence e, StandContext s) throws SQLException {
        Stand stand = s.stand();
        Topics topics = s.topics();
        s.settle();
        String streamsLogBefore = stand.streams().logText();
        Instant started = Instant.now();
        Map<TopicPartition, Long> dlqMark = topics.endOffsets(Stand.ORDERS_EVENTS_DLQ);
        Map<TopicPartition, Long> eventsMark = topics.endOffsets(Stand.ORDERS_EVENTS);
        List<Long> ids = reserveOrderIds(stand, 5);
        List<BadEvent> bad = List.of(
                new BadEvent("not JSON", "not-a-json{{{", "order event: not valid JSON: Unrecognized token 'not': was expecting "
                        + "(JSON String, Number, Array, Object or token 'null', 'true' or 'false')"),
                new BadEvent("customer_id missing", "{\"order_id\":%d,\"amount\":\"1.00\"}", "order event: field \"customer_id\" is missing"),
                new BadEvent("customer_id not numeric", "{\"order_id\":%d,\"customer_id\":\"abc\",\"amount\":\"1.00\"}",
                        "order event: field \"customer_id\" is not a 64-bit integer: \"abc\""),
                new BadEvent("amount missing", "{\"order_id\":%d,\"customer_id\":1}", "order event: field \"amount\" is missing"),
                new BadEvent("amount not numeric", "{\"order_id\":%d,\"customer_id\":1,\"amount\":\"abc\"}",
                        "order event: field \"amount\" is not a decimal: \"abc\""));

        // good versions first (counted), then a bad version of each order, then an update of each
        try (Connection c = stand.pg(); PreparedStatement insert = c.prepareStatement(
                "INSERT INTO orders (order_id, customer_id, amount) VALUES (?, ?, ?)")) {
            for (int i = 0; i < ids.size(); i++) {
                insert.setLong(1, ids.get(i));
                insert.setInt(2, 1 + i);
                insert.setBigDecimal(3, new BigDecimal("10.0" + (i + 1)));
                insert.executeUpdate();
            }
        }
        Pipeline.awaitOrdersEvents(stand, topicsSum(eventsMark) + ids.size());
        try (Injection injection = Injection.open(stand)) {
            Map<String, Integer> caseByOrigin = new LinkedHashMap<>();
            List<byte[]> badValues = new ArrayList<>();
            for (int i = 0; i < bad.size(); i++) {
                byte[] value = utf8(bad.get(i).json().formatted(ids.get(i)));
                badValues.add(value);
                RecordMetadata md = injection.send(Stand.ORDERS_EVENTS, Long.toString(ids.get(i)), value, originalHeaders("b2-" + i));
                caseByOrigin.put(at(md), i);
            }
            try (Connection c = stand.pg(); Statement st = c.createStatement()) {
                st.executeUpdate("UPDATE orders SET amount = amount + 1 WHERE order_id BETWEEN " + ids.get(0)
                        + " AND " + ids.get(ids.size() - 1));
            }
            s.settle();

            List<ConsumerRecord<byte[], byte[]>> letters = injection.since(Stand.ORDERS_EVENTS_DLQ, dlqMark);
            long eventsProduced = injection.since(Stand.ORDERS_EVENTS, eventsMark).size();
            boolean sameProcess = stand.streams().isAlive() && stand.streams().logText().startsWith(streamsLogBefore);
            List<List<Object>> perLetter = new ArrayList<>();
            long defects = 0;
            Map<Integer, String> reasonByCase = new TreeMap<>();
            for (ConsumerRecord<byte[], byte[]> l : letters) {
                Integer i = caseByOrigin.get(originOf(l));
                if (i == null) {
                    defects++;
                    perLetter.add(List.of(originOf(l), "not one of the test's records", "-", "-", "-"));
                    continue;
                }
                reasonByCase.put(i, header(l, DeadLetters.REASON));
                boolean origin = Stand.ORDERS_EVENTS.equals(header(l, DeadLetters.ORIGIN_TOPIC));
                boolean headersKept = ("b2-" + i).equals(header(l, CASE_HEADER)) && ("dlq-it-b2-" + i).equals(header(l, TRACE_HEADER));
                boolean bytes = Arrays.equals(l.key(), utf8(Long.toString(ids.get(i))))
                        && Injection.sha256(l.value()).equals(Injection.sha256(badValues.get(i)));
                boolean failedAt = failedAtWithin(l, started, Instant.now());
                defects += origin && headersKept && bytes && failedAt ? 0 : 1;
                perLetter.add(List.of(originOf(l), bad.get(i).label(), origin && failedAt ? "ok" : "WRONG",
                        headersKept ? "kept" : "LOST", bytes ? "identical" : "DIFFERENT"));
            }
            long notDeadLettered = caseByOrigin.keySet().stream()
                    .filter(o -> letters.stream().noneMatch(l -> originOf(l).equals(o))).count();

            e.check("events_produced", eventsProduced).isEqualTo(3L * ids.size(),
                    "orders.events records of the test: an insert, a bad version and an update per order");
            e.check("dlq_records", letters.size()).isEqualTo(bad.size(), "dead letters in orders.events.dlq: one per bad record");
            e.check("dlq_origin_offsets", letters.stream().map(DlqIT::originOf).sorted().toList().toString())
                    .isEqualTo(caseByOrigin.keySet().stream().sorted().toList().toString(), "the dead letters' origins are the bad records");
            for (int i = 0; i < bad.size(); i++) {
                e.check("dlq_reason[" + bad.get(i).label() + "]", reasonByCase.getOrDefault(i, "-"))
                        .isEqualTo(bad.get(i).expectedReason(), "dlq-reason, exact");
            }
            e.check("dead_letter_defects", defects).isZero("dead letters with a wrong origin topic or failed-at, a lost "
                    + "original header, or key/body not byte-identical");
            e.check("streams_same_process", sameProcess).isTrue("ds-streams kept running: same process, same log");
            e.figure("streams_dlq_exception_header", letters.isEmpty() ? "-" : header(letters.get(0), "__streams.errors.exception"));
            e.anomaly(Anomaly.LOST, notDeadLettered);
            Reconciliation.customers(s.pg().truth(), topics.latestTotals())
                    .record(e, "PostgreSQL vs ds-streams' latest snapshot in customer.totals");
            e.table("Dead letters in orders.events.dlq", LETTER_COLUMNS, letters.stream().map(DlqIT::letterRow).toList());
            e.table("Each dead letter checked", List.of("origin", "record", "origin topic, failed-at", "original headers", "key, body"),
                    perLetter);
            e.note("Each bad record is a broken version of an order already counted; the order's update follows it on "
                    + "the same key. The dead letters are written by Kafka Streams' own producer (KIP-1034 response of "
                    + "the deserialization handler) inside the exactly_once_v2 transaction, and read here read_committed. "
                    + "The reconciliation is the real pipeline's (Debezium, ds-streams) against PostgreSQL.");
        }
    }

    private static long topicsSum(Map<TopicPartition, Long> offsets) {
        return offsets.values().stream().mapToLong(Long::longValue).sum();
    }

    /** Takes ids from the orders sequence, so orders can be inserted with them later and never collide. */
    private static List<Long> reserveOrderIds(Stand stand, int n) throws SQLException {
        List<Long> ids = new ArrayList<>();
        try (Connection c = stand.pg(); Statement st = c.createStatement(); ResultSet rs = st.executeQuery(
                "SELECT nextval(pg_get_serial_sequence('orders', 'order_id')) FROM generate_series(1, " + n + ")")) {
            while (rs.next()) {
                ids.add(rs.getLong(1));
            }
        }
        return ids;
    }
}
