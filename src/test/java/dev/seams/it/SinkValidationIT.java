package dev.seams.it;

import static dev.seams.it.DeadLetterEvidence.LETTER_COLUMNS;
import static dev.seams.it.DeadLetterEvidence.at;
import static dev.seams.it.DeadLetterEvidence.finalOf;
import static dev.seams.it.DeadLetterEvidence.header;
import static dev.seams.it.DeadLetterEvidence.insertedAt;
import static dev.seams.it.DeadLetterEvidence.letterOf;
import static dev.seams.it.DeadLetterEvidence.letterRow;
import static dev.seams.it.DeadLetterEvidence.rawRow;
import static dev.seams.it.DeadLetterEvidence.rawRows;
import static dev.seams.it.DeadLetterEvidence.utf8;

import dev.seams.faults.Injection;
import dev.seams.fixture.StandContext;
import dev.seams.it.DeadLetterEvidence.SinkSide;
import dev.seams.report.Anomaly;
import dev.seams.report.Claim;
import dev.seams.report.ClaimEvidence;
import dev.seams.sink.CustomerRange;
import dev.seams.sink.SinkMode;
import dev.seams.sink.SinkSummary;
import dev.seams.truth.ClickHouse;
import dev.seams.truth.RunNames;
import dev.seams.truth.Totals;
import dev.seams.wire.DeadLetters;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Unknown field tolerated, invalid value rejected (claim G10): a mix of valid and invalid snapshots written straight
 * into {@code customer.totals} (new fields, missing and explicit zeros, negative and refund totals, keys that do not
 * match, versions missing or 0, customers outside the seed's opt-in range), one sink run; each record is inserted from
 * its own position or dead-lettered with its exact reason, never neither ({@link DeadLetterEvidence}). Every record is
 * the test's own: FINAL is compared with the last valid record written per customer, not with PostgreSQL.
 */
@ExtendWith(StandContext.Resolver.class)
class SinkValidationIT {

    /** The seed's opt-in rule ({@code --customers 1..5}), passed wherever the range rule is tested. */
    private static final CustomerRange SEED_RANGE = new CustomerRange(1, 5);

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
            "sink/CustomerRange", "wire/CustomerTotals", "sink/Sink"})
    void g10UnknownFieldToleratedInvalidValueRejected(ClaimEvidence e, StandContext s) {
        SinkSide side = SinkSide.settle(s);
        try (Injection injection = Injection.open(side.stand())) {
            // given: a mix of valid and invalid snapshots of the sink's contract, each the test's own record
            List<Mixed> mix = mix(injection, s.pg().truth());
            // when: written to customer.totals and consumed by the sink with the seed's opt-in --customers
            Sent sent = send(injection, mix, side.topics().endOffsets(RunNames.CUSTOMER_TOTALS));
            SinkSummary run = s.sink(SinkMode.TOTALS, o -> o.withCustomers(SEED_RANGE));
            // then: each valid record inserted from its own record, each invalid one dead-lettered with its reason
            List<ConsumerRecord<byte[], byte[]>> letters = injection.since(RunNames.CUSTOMER_TOTALS_DLQ, side.dlqMark());
            recordFates(e, side, mix, sent, run, letters);
        }
    }

    /** @return the mix: the customers' valid snapshots around every kind of invalid one, customer 1's last valid */
    private static List<Mixed> mix(Injection injection, Map<Long, Totals> truth) {
        Totals one = truth.get(1L);
        Totals two = truth.get(2L);
        Totals zero = new Totals(0, BigDecimal.ZERO);
        String missingOrders = "customer totals: field \"orders\" is missing";
        return List.of(
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
    }

    /**
     * What was written.
     *
     * @param records      each record of the mix and where it went
     * @param expectedRows the raw_totals rows the valid records make
     * @param lastValid    customer → the last valid totals written for it
     * @param written      records in customer.totals since the start
     */
    private record Sent(Map<Mixed, RecordMetadata> records, List<String> expectedRows, Map<Long, Totals> lastValid, long written) {
    }

    private static Sent send(Injection injection, List<Mixed> mix, Map<TopicPartition, Long> start) {
        Map<Mixed, RecordMetadata> sent = new LinkedHashMap<>();
        List<String> expectedRows = new ArrayList<>();
        Map<Long, Totals> lastValid = new TreeMap<>();
        for (Mixed m : mix) {
            RecordMetadata md = injection.send(RunNames.CUSTOMER_TOTALS, m.key() == null ? null : m.key().toString(), m.value(), null);
            sent.put(m, md);
            if (m.isValid()) {
                expectedRows.add(rawRow(m.key(), m.valid(), md));
                lastValid.put(m.key().longValue(), m.valid());
            }
        }
        long written = injection.since(RunNames.CUSTOMER_TOTALS, start).size();
        return new Sent(sent, expectedRows, lastValid, written);
    }

    private static void recordFates(ClaimEvidence e, SinkSide side, List<Mixed> mix, Sent delivered, SinkSummary run,
                                    List<ConsumerRecord<byte[], byte[]>> letters) {
        Map<Mixed, RecordMetadata> sent = delivered.records();
        long written = delivered.written();
        List<String> expectedRows = delivered.expectedRows();
        Map<Long, Totals> lastValid = delivered.lastValid();
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
        e.table("Dead letters of this run", LETTER_COLUMNS, letters.stream().map(DeadLetterEvidence::letterRow).toList());
        e.note("Missing and explicit zero are told apart by the reason; an explicit total 0.00 is valid, so is a snapshot "
                + "of 0 orders and 0.00 (a customer whose last order was deleted or moved); the unknown field currency is "
                + "ignored, not refused. The range rule is the seed's opt-in --customers " + SEED_RANGE + ", passed explicitly. "
                + "Every record is the test's own: FINAL is compared with the last valid record written per customer, not with PG.");
    }
}
