package dev.seams.it;

import static dev.seams.it.DeadLetterEvidence.CASE_HEADER;
import static dev.seams.it.DeadLetterEvidence.LETTER_COLUMNS;
import static dev.seams.it.DeadLetterEvidence.TRACE_HEADER;
import static dev.seams.it.DeadLetterEvidence.at;
import static dev.seams.it.DeadLetterEvidence.failedAtWithin;
import static dev.seams.it.DeadLetterEvidence.header;
import static dev.seams.it.DeadLetterEvidence.letterRow;
import static dev.seams.it.DeadLetterEvidence.originOf;
import static dev.seams.it.DeadLetterEvidence.originalHeaders;
import static dev.seams.it.DeadLetterEvidence.utf8;

import dev.seams.check.Reconciliation;
import dev.seams.faults.Injection;
import dev.seams.fixture.Pipeline;
import dev.seams.fixture.StandContext;
import dev.seams.report.Anomaly;
import dev.seams.report.Claim;
import dev.seams.report.ClaimEvidence;
import dev.seams.stand.Stand;
import dev.seams.truth.RunNames;
import dev.seams.truth.Topics;
import dev.seams.wire.DeadLetters;
import java.math.BigDecimal;
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
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Bad input before Streams is not silently lost (claim B2; the seed's admitted gap before Streams): invalid records
 * injected into {@code orders.events} between good versions of the same orders go to {@code orders.events.dlq} with
 * their origin, exact reason, failed-at, the producer's headers and byte-identical key and body, while ds-streams goes
 * on in the same process and its totals reconcile with PostgreSQL through the real pipeline (Debezium, ds-streams).
 */
@ExtendWith(StandContext.Resolver.class)
class StreamsDeadLettersIT {

    /** One invalid orders.events record of B2. */
    private record BadEvent(String label, String json, String expectedReason) {
    }

    @Test
    @Claim(id = "B2", title = "Bad input before Streams is not silently lost", exercises = {"streams/TotalsTopology",
            "streams/DeadLetterHandler", "wire/OrderEvent"})
    void b2StreamsDeadLetters(ClaimEvidence e, StandContext s) throws SQLException {
        Stand stand = s.stand();
        Topics topics = s.topics();
        s.settle();
        String streamsLogBefore = stand.streams().logText();
        Instant started = Instant.now();
        Map<TopicPartition, Long> dlqMark = topics.endOffsets(RunNames.ORDERS_EVENTS_DLQ);
        Map<TopicPartition, Long> eventsMark = topics.endOffsets(RunNames.ORDERS_EVENTS);
        // given: good versions of five orders, counted
        List<Long> ids = reserveOrderIds(stand, 5);
        insertOrders(stand, ids);
        Pipeline.awaitOrdersEvents(stand, topicsSum(eventsMark) + ids.size());
        try (Injection injection = Injection.open(stand)) {
            // when: a bad version of each order in orders.events, then an update of each
            Injected injected = injectBadVersions(injection, ids);
            try (Connection c = stand.pg(); Statement st = c.createStatement()) {
                st.executeUpdate("UPDATE orders SET amount = amount + 1 WHERE order_id BETWEEN " + ids.get(0)
                        + " AND " + ids.get(ids.size() - 1));
            }
            s.settle();
            // then: one dead letter per bad record, exact, with its origin; ds-streams kept running; its totals = PG
            List<ConsumerRecord<byte[], byte[]>> letters = injection.since(RunNames.ORDERS_EVENTS_DLQ, dlqMark);
            long eventsProduced = injection.since(RunNames.ORDERS_EVENTS, eventsMark).size();
            boolean sameProcess = stand.streams().isAlive() && stand.streams().logText().startsWith(streamsLogBefore);
            recordLetters(e, s, injected, letters, eventsProduced, sameProcess, started);
        }
    }

    /** The bad records: a broken version of an order each, with the dead letter's exact reason. */
    private static final List<BadEvent> BAD = List.of(
            new BadEvent("not JSON", "not-a-json{{{", "order event: not valid JSON: Unrecognized token 'not': was expecting "
                    + "(JSON String, Number, Array, Object or token 'null', 'true' or 'false')"),
            new BadEvent("customer_id missing", "{\"order_id\":%d,\"amount\":\"1.00\"}", "order event: field \"customer_id\" is missing"),
            new BadEvent("customer_id not numeric", "{\"order_id\":%d,\"customer_id\":\"abc\",\"amount\":\"1.00\"}",
                    "order event: field \"customer_id\" is not a 64-bit integer: \"abc\""),
            new BadEvent("amount missing", "{\"order_id\":%d,\"customer_id\":1}", "order event: field \"amount\" is missing"),
            new BadEvent("amount not numeric", "{\"order_id\":%d,\"customer_id\":1,\"amount\":\"abc\"}",
                    "order event: field \"amount\" is not a decimal: \"abc\""));

    private static void insertOrders(Stand stand, List<Long> ids) throws SQLException {
        try (Connection c = stand.pg(); PreparedStatement insert = c.prepareStatement(
                "INSERT INTO orders (order_id, customer_id, amount) VALUES (?, ?, ?)")) {
            for (int i = 0; i < ids.size(); i++) {
                insert.setLong(1, ids.get(i));
                insert.setInt(2, 1 + i);
                insert.setBigDecimal(3, new BigDecimal("10.0" + (i + 1)));
                insert.executeUpdate();
            }
        }
    }

    /**
     * The bad versions written.
     *
     * @param ids          the orders
     * @param caseByOrigin each bad record's origin ({@code partition@offset}) → its index in {@link #BAD}
     * @param badValues    each bad record's value bytes
     */
    private record Injected(List<Long> ids, Map<String, Integer> caseByOrigin, List<byte[]> badValues) {
    }

    private static Injected injectBadVersions(Injection injection, List<Long> ids) {
        List<BadEvent> bad = BAD;
        Map<String, Integer> caseByOrigin = new LinkedHashMap<>();
        List<byte[]> badValues = new ArrayList<>();
        for (int i = 0; i < bad.size(); i++) {
            byte[] value = utf8(bad.get(i).json().formatted(ids.get(i)));
            badValues.add(value);
            RecordMetadata md = injection.send(RunNames.ORDERS_EVENTS, Long.toString(ids.get(i)), value, originalHeaders("b2-" + i));
            caseByOrigin.put(at(md), i);
        }
        return new Injected(ids, caseByOrigin, badValues);
    }

    private static void recordLetters(ClaimEvidence e, StandContext s, Injected injected, List<ConsumerRecord<byte[], byte[]>> letters,
                                      long eventsProduced, boolean sameProcess, Instant started) {
        List<BadEvent> bad = BAD;
        List<Long> ids = injected.ids();
        Map<String, Integer> caseByOrigin = injected.caseByOrigin();
        List<byte[]> badValues = injected.badValues();
        Topics topics = s.topics();
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
            boolean origin = RunNames.ORDERS_EVENTS.equals(header(l, DeadLetters.ORIGIN_TOPIC));
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
        e.check("dlq_origin_offsets", letters.stream().map(DeadLetterEvidence::originOf).sorted().toList().toString())
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
        e.table("Dead letters in orders.events.dlq", LETTER_COLUMNS, letters.stream().map(DeadLetterEvidence::letterRow).toList());
        e.table("Each dead letter checked", List.of("origin", "record", "origin topic, failed-at", "original headers", "key, body"),
                perLetter);
        e.note("Each bad record is a broken version of an order already counted; the order's update follows it on "
                + "the same key. The dead letters are written by Kafka Streams' own producer (KIP-1034 response of "
                + "the deserialization handler) inside the exactly_once_v2 transaction, and read here read_committed. "
                + "The reconciliation is the real pipeline's (Debezium, ds-streams) against PostgreSQL.");
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
