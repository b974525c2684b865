package dev.seams.it;

import static dev.seams.it.DeadLetterEvidence.CASE_HEADER;
import static dev.seams.it.DeadLetterEvidence.LETTER_COLUMNS;
import static dev.seams.it.DeadLetterEvidence.TRACE_HEADER;
import static dev.seams.it.DeadLetterEvidence.at;
import static dev.seams.it.DeadLetterEvidence.failedAtWithin;
import static dev.seams.it.DeadLetterEvidence.finalOf;
import static dev.seams.it.DeadLetterEvidence.header;
import static dev.seams.it.DeadLetterEvidence.insertedAt;
import static dev.seams.it.DeadLetterEvidence.letterOf;
import static dev.seams.it.DeadLetterEvidence.letterRow;
import static dev.seams.it.DeadLetterEvidence.originOf;
import static dev.seams.it.DeadLetterEvidence.originalHeaders;
import static dev.seams.it.DeadLetterEvidence.rawRow;
import static dev.seams.it.DeadLetterEvidence.rawRows;
import static dev.seams.it.DeadLetterEvidence.utf8;

import dev.seams.cli.ExitStatus;
import dev.seams.faults.Injection;
import dev.seams.fixture.SinkCli;
import dev.seams.fixture.StandContext;
import dev.seams.it.DeadLetterEvidence.SinkSide;
import dev.seams.report.Anomaly;
import dev.seams.report.Claim;
import dev.seams.report.ClaimEvidence;
import dev.seams.report.FaultNotObservedException;
import dev.seams.sink.SinkMode;
import dev.seams.sink.SinkSummary;
import dev.seams.sinks.SinkUnderTest;
import dev.seams.truth.ClickHouse;
import dev.seams.truth.Endpoints;
import dev.seams.truth.RunNames;
import dev.seams.truth.Totals;
import dev.seams.wire.DeadLetters;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Bad records never stop the pipeline and never vanish (seed section "DLQ: битое событие не
 * роняет пайплайн"), claim G11: DLQ routing, one entry per payload in one sink run, the negative
 * control (the seed's unvalidated consumer) and a failing dead-letter write. Every test follows each
 * record it produced by its offset: into ClickHouse or into a dead-letter topic, never neither
 * ({@link DeadLetterEvidence}). The same trade's other claims: G10 ({@code SinkValidationIT}), B2
 * ({@code StreamsDeadLettersIT}).
 *
 * <p>The records are written straight into {@code customer.totals} with a plain producer; {@link Injection} resets
 * {@code ds-sink} to the end of {@code customer.totals} first and removes the injected records afterwards, so the
 * claims run in any order. What reaches ClickHouse is therefore what the test itself wrote, never a pipeline result:
 * the figures say which record was inserted or dead-lettered, they are no parity with PostgreSQL.
 */
@ExtendWith(StandContext.Resolver.class)
class DlqIT {

    /** Size of the "1 MB" payload: 10^6 bytes, under the broker's default message.max.bytes (1048588). */
    private static final int ONE_MB = 1_000_000;
    /** The customer whose good records surround the bad ones. */
    private static final long CUSTOMER = 1;

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
            "sink/TotalsValidator", "sink/DeadLetterWriter", "wire/DeadLetters", "cli/SinkCommand"})
    void g11DlqRouting(ClaimEvidence e, StandContext s) {
        SinkUnderTest.requireDsSink("G11 reads ds-sink's command line: its exit status and its lines");
        SinkSide side = SinkSide.settle(s);
        Instant started = Instant.now();
        try (Injection injection = Injection.open(side.stand())) {
            Map<TopicPartition, Long> totalsMark = side.topics().endOffsets(RunNames.CUSTOMER_TOTALS);
            Totals goodTotals = s.pg().truth().get(CUSTOMER);
            List<Routed> routed = new ArrayList<>();
            for (Payload p : payloads()) {
                RecordMetadata bad = injection.send(RunNames.CUSTOMER_TOTALS, Long.toString(CUSTOMER), p.value(), originalHeaders(p.name()));
                RecordMetadata good = injection.send(RunNames.CUSTOMER_TOTALS, Long.toString(CUSTOMER),
                        injection.snapshot(CUSTOMER, goodTotals), null);
                routed.add(new Routed(p, bad, good));
            }

            SinkCli run = SinkCli.run(side.stand(), SinkMode.TOTALS, "--until-caught-up");

            long written = injection.since(RunNames.CUSTOMER_TOTALS, totalsMark).size();
            List<ConsumerRecord<byte[], byte[]>> letters = injection.since(RunNames.CUSTOMER_TOTALS_DLQ, side.dlqMark());
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
            e.table("Dead letters of this run", LETTER_COLUMNS, letters.stream().map(DeadLetterEvidence::letterRow).toList());
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
                .isEqualTo(RunNames.CUSTOMER_TOTALS + "-" + at(r.bad()), "dlq-origin-topic/partition/offset name the bad record");
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
            Map<TopicPartition, Long> start = side.topics().endOffsets(RunNames.CUSTOMER_TOTALS);
            Totals good = s.pg().truth().get(CUSTOMER);
            Totals falseZero = new Totals(0, BigDecimal.ZERO);
            injection.send(RunNames.CUSTOMER_TOTALS, Long.toString(CUSTOMER), injection.snapshot(CUSTOMER, good), null);
            RecordMetadata bad = injection.send(RunNames.CUSTOMER_TOTALS, Long.toString(CUSTOMER), utf8("{\"customer_id\":1}"),
                    originalHeaders("negative-control"));

            SinkSummary twin = s.twinSink(SinkMode.TOTALS, o -> o.withValidation(false));
            Totals twinFinal = side.ch().finalTotals().get(CUSTOMER);
            long twinDlq = injection.since(RunNames.CUSTOMER_TOTALS_DLQ, side.dlqMark()).size();

            side.ch().truncate("raw_totals", "customer_totals");
            side.topics().resetGroup(RunNames.SINK_GROUP, start);
            SinkSummary guarded = s.sink(SinkMode.TOTALS, o -> o);
            Totals guardedFinal = side.ch().finalTotals().get(CUSTOMER);
            List<ConsumerRecord<byte[], byte[]>> guardedLetters = injection.since(RunNames.CUSTOMER_TOTALS_DLQ, side.dlqMark());

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
        SinkUnderTest.requireDsSink("G11 reads ds-sink's command line: its exit status when a dead-letter write fails");
        SinkSide side = SinkSide.settle(s);
        String tiny = RunNames.of("customer.totals.dlq.tiny");
        createTopic(side.stand(), new NewTopic(tiny, 1, side.stand().replicationFactor()).configs(Map.of("max.message.bytes", "64")));
        try (Injection injection = Injection.open(side.stand())) {
            Map<TopicPartition, Long> start = side.topics().endOffsets(RunNames.CUSTOMER_TOTALS);
            Totals goodTotals = s.pg().truth().get(CUSTOMER);
            RecordMetadata bad = injection.send(RunNames.CUSTOMER_TOTALS, Long.toString(CUSTOMER),
                    utf8("{\"customer_id\":1}"), originalHeaders("dlq-write-fails"));
            RecordMetadata good = injection.send(RunNames.CUSTOMER_TOTALS, Long.toString(CUSTOMER),
                    injection.snapshot(CUSTOMER, goodTotals), null);
            TopicPartition tp = new TopicPartition(RunNames.CUSTOMER_TOTALS, bad.partition());

            SinkCli failing = SinkCli.run(side.stand(), SinkMode.TOTALS, "--for", "12s", "--dlq-topic", tiny);
            long committedAfterFailure = committedOffset(side.stand(), tp);
            long rawAfterFailure = side.ch().scalar("SELECT count() FROM raw_totals");
            long tinyRecords = side.topics().committedRecordCount(tiny);
            e.figure("failing_summary", failing.summary().line());
            if (failing.summary().dlqErrors() == 0) {
                throw new FaultNotObservedException("the dead-letter write into " + tiny + " (max.message.bytes=64) did not fail: "
                        + failing.summary().line());
            }

            SinkCli recovery = SinkCli.run(side.stand(), SinkMode.TOTALS, "--until-caught-up");
            long committedAfterRecovery = committedOffset(side.stand(), tp);
            List<ConsumerRecord<byte[], byte[]>> letters = injection.since(RunNames.CUSTOMER_TOTALS_DLQ, side.dlqMark());
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
    private static long committedOffset(Endpoints stand, TopicPartition tp) {
        try {
            OffsetAndMetadata om = stand.admin().listConsumerGroupOffsets(RunNames.SINK_GROUP)
                    .partitionsToOffsetAndMetadata().get().get(tp);
            return om == null ? -1 : om.offset();
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(ex);
        } catch (java.util.concurrent.ExecutionException ex) {
            throw new IllegalStateException("cannot read the offsets of " + RunNames.SINK_GROUP, ex);
        }
    }

    private static void createTopic(Endpoints stand, NewTopic topic) {
        stand.topics().create(topic, true);
    }
}
