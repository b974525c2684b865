package dev.seams.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seams.cli.SinkCommand;
import dev.seams.dlq.DeadLetters;
import dev.seams.report.ClaimEvidence;
import dev.seams.report.Evidence;
import dev.seams.report.EvidenceExtension;
import dev.seams.report.FaultNotObservedException;
import dev.seams.sink.ClickHouseTarget;
import dev.seams.sink.CustomerRange;
import dev.seams.sink.SinkMode;
import dev.seams.sink.SinkOptions;
import dev.seams.sink.SinkSummary;
import dev.seams.stand.ClickHouse;
import dev.seams.stand.CustomerReconciliation;
import dev.seams.stand.Injection;
import dev.seams.stand.Pg;
import dev.seams.stand.Pipeline;
import dev.seams.stand.Stand;
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
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;

/**
 * Bad records never stop the pipeline and never vanish (seed section "DLQ: битое событие не
 * роняет пайплайн"; the seed's admitted gap before Streams): G10 (unknown field tolerated, invalid
 * value rejected), G11 (DLQ routing, one evidence entry per payload, plus the negative control and a
 * failing DLQ write), B2 (Streams-level DLQ). Every test counts each record it produced: either in
 * ClickHouse (or the Streams aggregate) or in a dead-letter topic, never neither.
 *
 * <p>Records are written straight into {@code customer.totals} / {@code orders.events} with a plain
 * producer; {@link Injection} resets {@code ds-sink} to the end of {@code customer.totals} first
 * and removes the injected records afterwards, so the claims run in any order.
 */
@ExtendWith(EvidenceExtension.class)
class DlqIT {

    /** Size of the "1 MB" payload: 10^6 bytes, under the broker's default message.max.bytes (1048588). */
    private static final int ONE_MB = 1_000_000;
    /** The customer whose good records surround the bad ones. */
    private static final int CUSTOMER = 1;
    private static final String CASE_HEADER = "seams-case";

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

    static Stream<Arguments> payloads() {
        return Stream.of(
                Arguments.of("not-a-json", utf8("not-a-json{{{"), "customer totals: not valid JSON: Unrecognized token 'not': "
                        + "was expecting (JSON String, Number, Array, Object or token 'null', 'true' or 'false')"),
                Arguments.of("empty-object", utf8("{}"), "customer totals: field \"customer_id\" is missing"),
                Arguments.of("customer-id-only", utf8("{\"customer_id\":1}"), "customer totals: field \"orders\" is missing"),
                Arguments.of("no-total", utf8("{\"customer_id\":1,\"orders\":1}"), "customer totals: field \"total\" is missing"),
                Arguments.of("json-array", utf8("[{\"customer_id\":1,\"orders\":1,\"total\":\"1.00\"}]"),
                        "customer totals: not a JSON object: [{\"customer_id\":1,\"orders\":1,\"total\":\"1.00\"}]"),
                Arguments.of("one-megabyte", oneMegabyte(), "value too large: " + ONE_MB + " bytes > limit 65536"),
                Arguments.of("invalid-utf8", invalidUtf8(), "customer totals: not valid JSON: Invalid UTF-8 middle byte 0x28"),
                Arguments.of("tombstone", null, "null value (tombstone) where a totals snapshot was expected"),
                Arguments.of("null-total", utf8("{\"customer_id\":1,\"orders\":1,\"total\":null}"),
                        "customer totals: field \"total\" is null"),
                Arguments.of("three-decimals", utf8("{\"customer_id\":1,\"orders\":1,\"total\":\"12.345\"}"),
                        "customer totals: field \"total\" has more than 2 decimal places: \"12.345\""));
    }

    /** Headers a producer of the bad record attached; the dead letter must keep them. */
    private static RecordHeaders originalHeaders(String name) {
        RecordHeaders headers = new RecordHeaders();
        headers.add(CASE_HEADER, utf8(name));
        headers.add("trace-id", utf8("dlq-it-" + name));
        return headers;
    }

    /** The sink through its command line, as an operator runs it: exit status and summary. */
    private record CliRun(int exitStatus, SinkSummary summary) {
    }

    private static CliRun sinkCli(Stand stand, String... extra) {
        ClickHouseTarget ch = stand.clickhouseTarget();
        List<String> args = new ArrayList<>(List.of("--bootstrap-servers", stand.bootstrapServers(),
                "--clickhouse", ch.endpoint(), "--clickhouse-user", ch.user(), "--clickhouse-password", ch.password(),
                "--clickhouse-database", ch.database(), "--mode", "totals"));
        args.addAll(List.of(extra));
        SinkCommand command = new SinkCommand();
        int status = new CommandLine(command).execute(args.toArray(String[]::new));
        return new CliRun(status, command.summary());
    }

    /**
     * The common start of a sink-side claim: customers 1 and 2 have orders in PostgreSQL (one of
     * 10.00 is inserted for a customer that has none, e.g. on a fresh stand), the stand settled
     * (ds-streams matches PG), the sink's tables emptied, the end of {@code customer.totals.dlq} marked.
     */
    private record SinkSide(Stand stand, Topics topics, ClickHouse ch, Pg pg, Map<TopicPartition, Long> dlqMark) {
        static SinkSide settle() {
            Stand stand = Stand.get();
            Topics topics = Topics.of(stand);
            ClickHouse ch = ClickHouse.of(stand);
            try (Connection c = stand.pg(); Statement st = c.createStatement()) {
                st.executeUpdate("INSERT INTO orders (customer_id, amount) SELECT v.c, 10.00 FROM (VALUES (1), (2)) AS v(c) "
                        + "WHERE NOT EXISTS (SELECT 1 FROM orders o WHERE o.customer_id = v.c)");
            } catch (SQLException ex) {
                throw new IllegalStateException("cannot give customers 1 and 2 an order", ex);
            }
            Pipeline.awaitStreamsMatchesPg(stand);
            ch.truncate("raw_totals", "customer_totals");
            return new SinkSide(stand, topics, ch, Pg.of(stand), topics.endOffsets(Stand.CUSTOMER_TOTALS_DLQ));
        }
    }

    /** One row per dead letter for the report. */
    private static List<Object> letterRow(ConsumerRecord<byte[], byte[]> letter) {
        return List.of(letter.offset(),
                String.valueOf(DeadLetters.text(letter.headers(), DeadLetters.ORIGIN_TOPIC)),
                String.valueOf(DeadLetters.text(letter.headers(), DeadLetters.ORIGIN_PARTITION)),
                String.valueOf(DeadLetters.text(letter.headers(), DeadLetters.ORIGIN_OFFSET)),
                String.valueOf(DeadLetters.text(letter.headers(), DeadLetters.REASON)));
    }

    private static final List<String> LETTER_COLUMNS = List.of("dlq offset", "origin topic", "origin partition",
            "origin offset", "dlq-reason");

    private static String finalOf(Map<Integer, Totals> fin, int customer) {
        Totals t = fin.get(customer);
        return t == null ? "-" : t.toString();
    }

    @ParameterizedTest(name = "G11 DLQ routing [{0}]")
    @MethodSource("payloads")
    void g11DlqRouting(String name, byte[] value, String expectedReason) {
        ClaimEvidence e = Evidence.claim("G11[" + name + "]", "DLQ routing");
        SinkSide side = SinkSide.settle();
        Instant started = Instant.now();
        try (Injection injection = Injection.open(side.stand())) {
            Map<TopicPartition, Long> totalsMark = side.topics().endOffsets(Stand.CUSTOMER_TOTALS);
            Totals truth = side.pg().truth().get(CUSTOMER);
            RecordMetadata bad = injection.send(Stand.CUSTOMER_TOTALS, Integer.toString(CUSTOMER), value, originalHeaders(name));
            RecordMetadata good = injection.send(Stand.CUSTOMER_TOTALS, Integer.toString(CUSTOMER),
                    Injection.snapshot(CUSTOMER, truth), null);
            long produced = injection.since(Stand.CUSTOMER_TOTALS, totalsMark).size();

            CliRun run = sinkCli(side.stand(), "--until-idle", "5s");

            List<ConsumerRecord<byte[], byte[]>> letters = injection.since(Stand.CUSTOMER_TOTALS_DLQ, side.dlqMark());
            ConsumerRecord<byte[], byte[]> letter = letters.isEmpty() ? null : letters.get(0);
            List<List<String>> raw = side.ch().rows("SELECT customer_id, orders, toString(total), version FROM raw_totals ORDER BY version");
            Map<Integer, Totals> fin = side.ch().finalTotals();
            long inClickHouse = raw.size();
            long inDlq = letters.size();
            String failedAt = letter == null ? null : DeadLetters.text(letter.headers(), DeadLetters.FAILED_AT);

            e.figure("summary", run.summary().line());
            e.figure("exit_status", run.exitStatus());
            e.expected("exit_status", 0);
            e.figure("payload_bytes", value == null ? -1 : value.length);
            e.figure("bad_offset", bad.partition() + "@" + bad.offset());
            e.figure("good_offset", good.partition() + "@" + good.offset());
            e.figure("dlq_records", inDlq);
            e.expected("dlq_records", 1L);
            e.figure("dlq_reason", letter == null ? "-" : DeadLetters.text(letter.headers(), DeadLetters.REASON));
            e.expected("dlq_reason", expectedReason);
            e.figure("dlq_origin", letter == null ? "-" : DeadLetters.text(letter.headers(), DeadLetters.ORIGIN_TOPIC) + "-"
                    + DeadLetters.text(letter.headers(), DeadLetters.ORIGIN_PARTITION) + "@"
                    + DeadLetters.text(letter.headers(), DeadLetters.ORIGIN_OFFSET));
            e.expected("dlq_origin", Stand.CUSTOMER_TOTALS + "-" + bad.partition() + "@" + bad.offset());
            e.figure("body_sha256", letter == null ? "-" : Injection.sha256(letter.value()));
            e.expected("body_sha256", Injection.sha256(value));
            e.figure("produced", produced);
            e.figure("in_clickhouse", inClickHouse);
            e.figure("in_dlq", inDlq);
            e.expected("in_clickhouse", 1L);
            e.figure("pg_customer_" + CUSTOMER, truth.toString());
            e.figure("final_customer_" + CUSTOMER, finalOf(fin, CUSTOMER));
            e.expected("final_customer_" + CUSTOMER, truth.toString());
            e.anomaly("lost", produced - inClickHouse - inDlq);
            e.anomaly("wrong_value", truth.equals(fin.get(CUSTOMER)) ? 0 : 1);
            e.table("Dead letters of this run", LETTER_COLUMNS, letters.stream().map(DlqIT::letterRow).toList());

            assertThat(run.exitStatus()).as("sink exit status").isZero();
            assertThat(produced).as("records written to customer.totals during the test (bad + good, nothing else)").isEqualTo(2);
            assertThat(run.summary().bad()).as("bad").isEqualTo(1);
            assertThat(run.summary().inserted()).as("inserted: the good record after the bad one").isEqualTo(1);
            assertThat(run.summary().dlqErrors()).as("dlq_errors").isZero();
            assertThat(run.summary().insertErrors()).as("insert_errors").isZero();
            assertThat(letters).as("dead letters written by the run").hasSize(1);
            assertThat(DeadLetters.text(letter.headers(), DeadLetters.REASON)).as("dlq-reason").isEqualTo(expectedReason);
            assertThat(DeadLetters.text(letter.headers(), DeadLetters.ORIGIN_TOPIC)).isEqualTo(Stand.CUSTOMER_TOTALS);
            assertThat(DeadLetters.text(letter.headers(), DeadLetters.ORIGIN_PARTITION)).isEqualTo(Integer.toString(bad.partition()));
            assertThat(DeadLetters.text(letter.headers(), DeadLetters.ORIGIN_OFFSET)).isEqualTo(Long.toString(bad.offset()));
            assertThat(Instant.parse(failedAt)).as("dlq-failed-at, ISO-8601 UTC").isBetween(started, Instant.now());
            assertThat(failedAt).endsWith("Z");
            assertThat(DeadLetters.text(letter.headers(), CASE_HEADER)).as("original header kept").isEqualTo(name);
            assertThat(DeadLetters.text(letter.headers(), "trace-id")).as("original header kept").isEqualTo("dlq-it-" + name);
            assertThat(letter.key()).as("key, byte for byte").isEqualTo(utf8(Integer.toString(CUSTOMER)));
            assertThat(Injection.sha256(letter.value())).as("value SHA-256, byte for byte").isEqualTo(Injection.sha256(value));
            assertThat(raw).as("raw_totals: only the good record").containsExactly(List.of(Integer.toString(CUSTOMER),
                    Long.toString(truth.orders()), truth.total().toPlainString(), Long.toString(good.offset())));
            assertThat(fin.get(CUSTOMER)).as("customer_totals FINAL of customer %d vs PG", CUSTOMER).isEqualTo(truth);
            assertThat(inClickHouse + inDlq).as("every produced record is in ClickHouse or in the DLQ").isEqualTo(produced);
        }
    }

    @Test
    @DisplayName("G11 DLQ routing [negative control: validation off]")
    void g11NegativeControl() {
        ClaimEvidence e = Evidence.claim("G11[negative-control]", "DLQ routing: what validation prevents");
        SinkSide side = SinkSide.settle();
        try (Injection injection = Injection.open(side.stand())) {
            Map<TopicPartition, Long> start = side.topics().endOffsets(Stand.CUSTOMER_TOTALS);
            Totals truth = side.pg().truth().get(CUSTOMER);
            injection.send(Stand.CUSTOMER_TOTALS, Integer.toString(CUSTOMER), Injection.snapshot(CUSTOMER, truth), null);
            injection.send(Stand.CUSTOMER_TOTALS, Integer.toString(CUSTOMER), utf8("{\"customer_id\":1}"),
                    originalHeaders("negative-control"));

            SinkSummary twin = Pipeline.sink(side.stand(), SinkMode.TOTALS, o -> o.withValidation(false));
            Totals twinFinal = side.ch().finalTotals().get(CUSTOMER);
            long twinDlq = injection.since(Stand.CUSTOMER_TOTALS_DLQ, side.dlqMark()).size();

            side.ch().truncate("raw_totals", "customer_totals");
            side.topics().resetGroup(SinkOptions.DEFAULT_GROUP, start);
            SinkSummary guarded = Pipeline.sink(side.stand(), SinkMode.TOTALS, o -> o);
            Totals guardedFinal = side.ch().finalTotals().get(CUSTOMER);
            long guardedDlq = injection.since(Stand.CUSTOMER_TOTALS_DLQ, side.dlqMark()).size();
            Totals falseZero = new Totals(0, BigDecimal.ZERO);

            e.figure("pg_customer_" + CUSTOMER, truth.toString());
            e.figure("validation_off_summary", twin.line());
            e.figure("validation_off_final", String.valueOf(twinFinal));
            e.expected("validation_off_final", falseZero.toString());
            e.figure("validation_off_dlq_records", twinDlq);
            e.figure("validation_on_summary", guarded.line());
            e.figure("validation_on_final", String.valueOf(guardedFinal));
            e.expected("validation_on_final", truth.toString());
            e.figure("validation_on_dlq_records", guardedDlq);
            e.expected("validation_on_dlq_records", 1L);
            e.anomaly("wrong_value", truth.equals(guardedFinal) ? 0 : 1);
            e.table("{\"customer_id\":1} after the real snapshot of customer 1", List.of("sink", "FINAL orders/total", "PG", "dead letters"),
                    List.of(List.of("validation off (the seed's unvalidated consumer)", String.valueOf(twinFinal), truth, twinDlq),
                            List.of("validation on", String.valueOf(guardedFinal), truth, guardedDlq)));
            e.note("Negative control: without validation the missing orders/total become 0, the record gets the "
                    + "highest version and FINAL reports customer " + CUSTOMER + " with a false zero; with validation "
                    + "it goes to the DLQ and FINAL keeps PG's totals.");

            assertThat(twin.inserted()).as("validation off: both records inserted").isEqualTo(2);
            assertThat(twin.bad()).as("validation off: nothing rejected").isZero();
            assertThat(twinFinal).as("validation off: the false zero lands in FINAL").isEqualTo(falseZero).isNotEqualTo(truth);
            assertThat(twinDlq).as("validation off: no dead letter").isZero();
            assertThat(guarded.inserted()).as("validation on: only the real snapshot").isEqualTo(1);
            assertThat(guarded.bad()).as("validation on: the record is rejected").isEqualTo(1);
            assertThat(guardedFinal).as("validation on: FINAL equals PG").isEqualTo(truth);
            assertThat(guardedDlq).as("validation on: one dead letter").isEqualTo(1);
        }
    }

    @Test
    @DisplayName("G11 DLQ routing [a failing DLQ write commits nothing]")
    void g11FailingDeadLetterWrite() {
        ClaimEvidence e = Evidence.claim("G11[dlq-write-fails]", "DLQ routing: a failed dead-letter write commits nothing");
        SinkSide side = SinkSide.settle();
        String tiny = "customer.totals.dlq.tiny";
        createTopic(side.stand(), new NewTopic(tiny, 1, (short) 1).configs(Map.of("max.message.bytes", "64")));
        try (Injection injection = Injection.open(side.stand())) {
            Map<TopicPartition, Long> start = side.topics().endOffsets(Stand.CUSTOMER_TOTALS);
            Totals truth = side.pg().truth().get(CUSTOMER);
            RecordMetadata bad = injection.send(Stand.CUSTOMER_TOTALS, Integer.toString(CUSTOMER),
                    utf8("{\"customer_id\":1}"), originalHeaders("dlq-write-fails"));
            RecordMetadata good = injection.send(Stand.CUSTOMER_TOTALS, Integer.toString(CUSTOMER),
                    Injection.snapshot(CUSTOMER, truth), null);
            TopicPartition tp = new TopicPartition(Stand.CUSTOMER_TOTALS, bad.partition());

            CliRun failing = sinkCli(side.stand(), "--for", "12s", "--dlq-topic", tiny);
            long committedAfterFailure = committedOffset(side.stand(), tp);
            long rawAfterFailure = side.ch().scalar("SELECT count() FROM raw_totals");
            long tinyRecords = side.topics().committedRecordCount(tiny);
            if (failing.summary().dlqErrors() == 0) {
                throw new FaultNotObservedException("the dead-letter write into " + tiny + " (max.message.bytes=64) did not fail: "
                        + failing.summary().line());
            }

            CliRun recovery = sinkCli(side.stand(), "--until-idle", "5s");
            long committedAfterRecovery = committedOffset(side.stand(), tp);
            List<ConsumerRecord<byte[], byte[]>> letters = injection.since(Stand.CUSTOMER_TOTALS_DLQ, side.dlqMark());
            long rawAfterRecovery = side.ch().scalar("SELECT count() FROM raw_totals");
            Totals fin = side.ch().finalTotals().get(CUSTOMER);

            e.figure("failing_summary", failing.summary().line());
            e.figure("failing_exit_status", failing.exitStatus());
            e.expected("failing_exit_status", 1);
            e.figure("committed_offset_before", start.get(tp));
            e.figure("committed_offset_after_failure", committedAfterFailure);
            e.expected("committed_offset_after_failure", start.get(tp));
            e.figure("raw_rows_after_failure", rawAfterFailure);
            e.figure("records_in_tiny_dlq", tinyRecords);
            e.figure("recovery_summary", recovery.summary().line());
            e.figure("committed_offset_after_recovery", committedAfterRecovery);
            e.expected("committed_offset_after_recovery", good.offset() + 1);
            e.figure("dlq_records", (long) letters.size());
            e.expected("dlq_records", 1L);
            e.figure("raw_rows_after_recovery", rawAfterRecovery);
            e.figure("final_customer_" + CUSTOMER, String.valueOf(fin));
            e.expected("final_customer_" + CUSTOMER, truth.toString());
            e.anomaly("lost", letters.size() == 1 ? 0 : 1);
            e.anomaly("wrong_value", truth.equals(fin) ? 0 : 1);
            e.note("Each failed attempt had inserted the good row before its dead-letter write failed, so raw_totals "
                    + "holds " + rawAfterRecovery + " copies of it (at-least-once: the batch is re-read); "
                    + "customer_totals FINAL has one row equal to PG.");

            assertThat(failing.summary().dlqErrors()).as("dlq_errors of the failing run").isPositive();
            assertThat(failing.summary().inserted()).as("nothing counted as inserted: nothing was committed").isZero();
            assertThat(failing.summary().uncommitted()).as("records of the batch left uncommitted").isPositive();
            assertThat(failing.exitStatus()).as("exit status after a run that ended uncommitted").isEqualTo(1);
            assertThat(committedAfterFailure).as("ds-sink offset unchanged by the failing run").isEqualTo(start.get(tp));
            assertThat(tinyRecords).as("the tiny topic refused every dead letter").isZero();
            assertThat(recovery.exitStatus()).isZero();
            assertThat(recovery.summary().bad()).isEqualTo(1);
            assertThat(recovery.summary().inserted()).isEqualTo(1);
            assertThat(recovery.summary().dlqErrors()).isZero();
            assertThat(committedAfterRecovery).as("offsets committed after the dead letter was acknowledged").isEqualTo(good.offset() + 1);
            assertThat(letters).as("the dead letter, once").hasSize(1);
            assertThat(DeadLetters.text(letters.get(0).headers(), DeadLetters.ORIGIN_OFFSET)).isEqualTo(Long.toString(bad.offset()));
            assertThat(rawAfterRecovery).as("raw_totals: the good row once per attempt").isEqualTo(rawAfterFailure + 1);
            assertThat(fin).as("customer_totals FINAL vs PG").isEqualTo(truth);
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
        try {
            stand.admin().createTopics(List.of(topic)).all().get();
        } catch (java.util.concurrent.ExecutionException ex) {
            if (!(ex.getCause() instanceof TopicExistsException)) {
                throw new IllegalStateException("cannot create " + topic.name(), ex);
            }
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(ex);
        }
    }

    /** One record of the G10 mix: what it is, its bytes, and its expected fate. */
    private record Mixed(String label, int key, byte[] value, String expectedReason) {
        /** @return the raw_totals row id {@code customer@version} this record must produce at that offset */
        String rowId(long offset) {
            return key + "@" + offset;
        }

        boolean valid() {
            return expectedReason == null;
        }
    }

    @Test
    @DisplayName("G10 Unknown field tolerated, invalid value rejected")
    void g10UnknownFieldToleratedInvalidValueRejected() {
        ClaimEvidence e = Evidence.claim("G10", "Unknown field tolerated, invalid value rejected");
        SinkSide side = SinkSide.settle();
        Map<Integer, Totals> truth = side.pg().truth();
        Totals one = truth.get(1);
        Totals two = truth.get(2);
        List<Mixed> mix = List.of(
                new Mixed("new field currency (customer 2, PG totals)", 2, utf8("{\"customer_id\":2,\"orders\":" + two.orders()
                        + ",\"total\":\"" + two.total().toPlainString() + "\",\"currency\":\"RUB\"}"), null),
                new Mixed("customer_id 6, outside --customers 1..5", 6, utf8("{\"customer_id\":6,\"orders\":1,\"total\":\"1.00\"}"),
                        "customer_id 6 outside the configured range 1..5"),
                new Mixed("customer_id missing", 1, utf8("{\"orders\":1,\"total\":\"1.00\"}"),
                        "customer totals: field \"customer_id\" is missing"),
                new Mixed("customer_id explicit 0", 1, utf8("{\"customer_id\":0,\"orders\":1,\"total\":\"1.00\"}"),
                        "customer_id 0 outside the configured range 1..5"),
                new Mixed("orders missing", 1, utf8("{\"customer_id\":1,\"total\":\"1.00\"}"),
                        "customer totals: field \"orders\" is missing"),
                new Mixed("orders explicit 0", 1, utf8("{\"customer_id\":1,\"orders\":0,\"total\":\"0.00\"}"),
                        "orders must be >= 1, got 0"),
                new Mixed("total missing", 1, utf8("{\"customer_id\":1,\"orders\":1}"), "customer totals: field \"total\" is missing"),
                new Mixed("total explicit 0.00 (valid)", 1, utf8("{\"customer_id\":1,\"orders\":1,\"total\":\"0.00\"}"), null),
                new Mixed("customer 1, PG totals", 1, Injection.snapshot(1, one), null));
        try (Injection injection = Injection.open(side.stand())) {
            Map<TopicPartition, Long> start = side.topics().endOffsets(Stand.CUSTOMER_TOTALS);
            Map<String, Mixed> byOrigin = new LinkedHashMap<>();
            List<String> expectedRows = new ArrayList<>();
            for (Mixed m : mix) {
                RecordMetadata md = injection.send(Stand.CUSTOMER_TOTALS, Integer.toString(m.key()), m.value(), null);
                byOrigin.put(md.partition() + "@" + md.offset(), m);
                if (m.valid()) {
                    expectedRows.add(m.rowId(md.offset()));
                }
            }
            long produced = injection.since(Stand.CUSTOMER_TOTALS, start).size();

            SinkSummary run = Pipeline.sink(side.stand(), SinkMode.TOTALS, o -> o.withCustomers(CustomerRange.parse("1..5")));

            List<ConsumerRecord<byte[], byte[]>> letters = injection.since(Stand.CUSTOMER_TOTALS_DLQ, side.dlqMark());
            Map<String, String> reasonByOrigin = new LinkedHashMap<>();
            letters.forEach(l -> reasonByOrigin.put(DeadLetters.text(l.headers(), DeadLetters.ORIGIN_PARTITION) + "@"
                    + DeadLetters.text(l.headers(), DeadLetters.ORIGIN_OFFSET), DeadLetters.text(l.headers(), DeadLetters.REASON)));
            List<String> rawRows = side.ch().rows("SELECT customer_id, version FROM raw_totals ORDER BY version").stream()
                    .map(r -> r.get(0) + "@" + r.get(1)).toList();
            Map<Integer, Totals> fin = side.ch().finalTotals();
            Map<Integer, Totals> affectedTruth = Map.of(1, one, 2, two);
            Map<Integer, Totals> affectedFinal = new LinkedHashMap<>(fin);
            CustomerReconciliation rec = CustomerReconciliation.of(affectedTruth, affectedFinal);
            List<List<Object>> table = new ArrayList<>();
            long wrongFate = 0;
            for (Map.Entry<String, Mixed> entry : byOrigin.entrySet()) {
                Mixed m = entry.getValue();
                String reason = reasonByOrigin.get(entry.getKey());
                long offset = Long.parseLong(entry.getKey().substring(entry.getKey().indexOf('@') + 1));
                boolean inserted = m.valid() && rawRows.contains(m.rowId(offset));
                String fate = reason != null ? "DLQ: " + reason : inserted ? "inserted" : "missing";
                boolean right = m.valid() ? inserted && reason == null : m.expectedReason().equals(reason);
                wrongFate += right ? 0 : 1;
                table.add(List.of(m.label(), entry.getKey(), m.valid() ? "inserted" : "DLQ: " + m.expectedReason(), fate));
            }
            long validCount = mix.stream().filter(Mixed::valid).count();

            e.figure("summary", run.line());
            e.figure("produced", produced);
            e.figure("inserted", run.inserted());
            e.expected("inserted", validCount);
            e.figure("dlq_records", (long) letters.size());
            e.expected("dlq_records", produced - validCount);
            e.figure("raw_rows", (long) rawRows.size());
            e.figure("final_customer_1", finalOf(fin, 1));
            e.expected("final_customer_1", one.toString());
            e.figure("final_customer_2", finalOf(fin, 2));
            e.expected("final_customer_2", two.toString());
            e.anomaly("lost", produced - rawRows.size() - letters.size());
            e.anomaly("wrong_value", wrongFate + rec.wrongValue());
            e.table("Each record's fate", List.of("record", "origin", "expected", "actual"), table);
            e.table("Affected customers: PG vs customer_totals FINAL", CustomerReconciliation.COLUMNS, rec.rows());
            e.note("Missing and explicit zero are told apart by the reason; an explicit total 0.00 is valid; "
                    + "the unknown field currency is ignored, not refused.");

            assertThat(produced).as("records written during the test").isEqualTo(mix.size());
            assertThat(run.inserted()).as("valid records inserted").isEqualTo(validCount);
            assertThat(run.bad()).as("invalid records rejected").isEqualTo(mix.size() - validCount);
            assertThat(run.dlqErrors()).isZero();
            assertThat(run.insertErrors()).isZero();
            assertThat(rawRows).as("raw_totals rows (customer@version) = the valid records at their offsets")
                    .containsExactlyInAnyOrderElementsOf(expectedRows);
            assertThat(wrongFate).as("records whose fate differs from the expected one: %s", table).isZero();
            assertThat(fin.get(1)).as("FINAL customer 1 vs PG").isEqualTo(one);
            assertThat(fin.get(2)).as("FINAL customer 2 vs PG (the record with the new field)").isEqualTo(two);
            assertThat((long) rawRows.size() + letters.size()).as("every record is in ClickHouse or the DLQ").isEqualTo(produced);
        }
    }

    /** One invalid orders.events record of B2. */
    private record BadEvent(String label, String json, String expectedReason) {
    }

    @Test
    @DisplayName("B2 Bad input before Streams is not silently lost")
    void b2StreamsDeadLetters() throws SQLException {
        ClaimEvidence e = Evidence.claim("B2", "Bad input before Streams is not silently lost");
        Stand stand = Stand.get();
        Topics topics = Topics.of(stand);
        Pg pg = Pg.of(stand);
        Pipeline.awaitStreamsMatchesPg(stand);
        String streamsLogBefore = stand.streams().logText();
        Map<TopicPartition, Long> dlqMark = topics.endOffsets(Stand.ORDERS_EVENTS_DLQ);
        Map<TopicPartition, Long> eventsMark = topics.endOffsets(Stand.ORDERS_EVENTS);
        List<Long> ids = reserveOrderIds(stand, 5);
        List<BadEvent> bad = List.of(
                new BadEvent("not JSON", "not-a-json{{{", "order event: not valid JSON: Unrecognized token 'not': was expecting "
                        + "(JSON String, Number, Array, Object or token 'null', 'true' or 'false')"),
                new BadEvent("customer_id missing", "{\"order_id\":%d,\"amount\":\"1.00\"}", "order event: field \"customer_id\" is missing"),
                new BadEvent("customer_id not numeric", "{\"order_id\":%d,\"customer_id\":\"abc\",\"amount\":\"1.00\"}",
                        "order event: field \"customer_id\" is not a 32-bit integer: \"abc\""),
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
                caseByOrigin.put(md.partition() + "@" + md.offset(), i);
            }
            try (Connection c = stand.pg(); Statement st = c.createStatement()) {
                st.executeUpdate("UPDATE orders SET amount = amount + 1 WHERE order_id BETWEEN " + ids.get(0)
                        + " AND " + ids.get(ids.size() - 1));
            }
            Pipeline.awaitStreamsMatchesPg(stand);

            List<ConsumerRecord<byte[], byte[]>> letters = injection.since(Stand.ORDERS_EVENTS_DLQ, dlqMark);
            long eventsProduced = injection.since(Stand.ORDERS_EVENTS, eventsMark).size();
            Map<Integer, Totals> truth = pg.truth();
            Map<Integer, Totals> streams = topics.latestTotals();
            Map<Integer, Totals> affectedTruth = new LinkedHashMap<>();
            Map<Integer, Totals> affectedStreams = new LinkedHashMap<>();
            for (int i = 1; i <= ids.size(); i++) {
                affectedTruth.put(i, truth.get(i));
                affectedStreams.put(i, streams.get(i));
            }
            CustomerReconciliation rec = CustomerReconciliation.of(affectedTruth, affectedStreams);
            boolean sameProcess = stand.streams().isAlive() && stand.streams().logText().startsWith(streamsLogBefore);
            Optional<ConsumerRecord<byte[], byte[]>> first = letters.stream().findFirst();
            List<String> origins = letters.stream().map(l -> DeadLetters.text(l.headers(), DeadLetters.ORIGIN_PARTITION) + "@"
                    + DeadLetters.text(l.headers(), DeadLetters.ORIGIN_OFFSET)).toList();

            e.figure("events_produced", eventsProduced);
            e.expected("events_produced", 3L * ids.size());
            e.figure("dlq_records", (long) letters.size());
            e.expected("dlq_records", (long) bad.size());
            e.figure("dlq_reasons", letters.stream().map(l -> DeadLetters.text(l.headers(), DeadLetters.REASON)).toList().toString());
            e.figure("dlq_origin_offsets", origins.stream().sorted().toList().toString());
            e.expected("dlq_origin_offsets", caseByOrigin.keySet().stream().sorted().toList().toString());
            e.figure("streams_same_process", sameProcess);
            e.expected("streams_same_process", true);
            e.figure("streams_dlq_exception_header", first.map(l -> DeadLetters.text(l.headers(), "__streams.errors.exception")).orElse("-"));
            e.anomaly("lost", eventsProduced - letters.size() - 2L * ids.size());
            e.anomaly("stale", rec.stale()).anomaly("wrong_value", rec.wrongValue());
            e.table("Dead letters in orders.events.dlq", LETTER_COLUMNS, letters.stream().map(DlqIT::letterRow).toList());
            e.table("Affected customers: PG vs ds-streams' latest snapshot", CustomerReconciliation.COLUMNS, rec.rows());
            e.note("Each bad record is a broken version of an order already counted; the order's update follows it on "
                    + "the same key. The dead letters are written by Kafka Streams' own producer (KIP-1034 response of "
                    + "the deserialization handler) inside the exactly_once_v2 transaction, and read here read_committed.");

            assertThat(eventsProduced).as("orders.events records of the test: 5 inserts, 5 bad, 5 updates").isEqualTo(3L * ids.size());
            assertThat(letters).as("dead letters in orders.events.dlq").hasSize(bad.size());
            assertThat(origins).as("origins of the dead letters").containsExactlyInAnyOrderElementsOf(caseByOrigin.keySet());
            for (ConsumerRecord<byte[], byte[]> l : letters) {
                int i = caseByOrigin.get(DeadLetters.text(l.headers(), DeadLetters.ORIGIN_PARTITION) + "@"
                        + DeadLetters.text(l.headers(), DeadLetters.ORIGIN_OFFSET));
                assertThat(DeadLetters.text(l.headers(), DeadLetters.REASON)).as("dlq-reason of %s", bad.get(i).label())
                        .isEqualTo(bad.get(i).expectedReason());
                assertThat(DeadLetters.text(l.headers(), DeadLetters.ORIGIN_TOPIC)).isEqualTo(Stand.ORDERS_EVENTS);
                assertThat(Instant.parse(DeadLetters.text(l.headers(), DeadLetters.FAILED_AT))).isBefore(Instant.now());
                assertThat(DeadLetters.text(l.headers(), CASE_HEADER)).as("original header kept").isEqualTo("b2-" + i);
                assertThat(l.key()).as("key byte for byte").isEqualTo(utf8(Long.toString(ids.get(i))));
                assertThat(Injection.sha256(l.value())).as("body byte for byte").isEqualTo(Injection.sha256(badValues.get(i)));
            }
            assertThat(rec.matches()).as("affected customers, PG vs ds-streams: %s", rec.rows()).isTrue();
            assertThat(sameProcess).as("ds-streams kept running: same process, same log").isTrue();
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
