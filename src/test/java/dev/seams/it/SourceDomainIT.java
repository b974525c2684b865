package dev.seams.it;

import dev.seams.check.Reconciliation;
import dev.seams.fixture.StandContext;
import dev.seams.load.TopicAdmin;
import dev.seams.report.Anomaly;
import dev.seams.report.Claim;
import dev.seams.report.ClaimEvidence;
import dev.seams.sink.ClickHouseTarget;
import dev.seams.sink.CustomerRange;
import dev.seams.sink.SinkMode;
import dev.seams.sink.SinkSummary;
import dev.seams.truth.Endpoints;
import dev.seams.truth.Pg;
import dev.seams.truth.Rejection;
import dev.seams.truth.RunNames;
import dev.seams.truth.Topics;
import dev.seams.truth.Totals;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The sink carries everything the source can produce (claim B11): PostgreSQL's {@code orders}
 * (containers/postgres/001-orders.sql) has no CHECK constraint but the one refusing {@code 'NaN'} (B15), so every {@code integer} customer
 * and every {@code numeric(12,2)} amount — negative (a refund), zero, the largest — is legitimate,
 * and so are the snapshots ds-streams derives from them: a customer emptied by DELETE or by an
 * UPDATE that moves its only order away ({@code 0/0.00}), a negative or zero total. Each is a change
 * of this claim's own customers (ids no other claim uses), applied to PG; then ds-streams settles
 * and the sink runs: nothing it reads goes to a DLQ and {@code customer_totals FINAL} equals PG.
 *
 * <p>Negative control: the same records read by the sink configured with the seed's opt-in rule
 * {@code --customers 1..5} (the range of the seed's stand), in a scratch group, database and DLQ:
 * it rejects them and its FINAL loses those customers. The seed's other rules (orders &gt;= 1,
 * total &gt;= 0) no longer exist in the product, so they have no twin.
 */
@ExtendWith(StandContext.Resolver.class)
class SourceDomainIT {

    private static final String TWIN = RunNames.of("seams_b11_seed_rules");
    private static final String TWIN_DLQ = TWIN + ".dlq";
    private static final CustomerRange SEED_RANGE = new CustomerRange(1, 5);
    private static final BigDecimal LARGEST = new BigDecimal("9999999999.99");
    private static final String EMPTY = "0/0.00";

    /**
     * One customer of this claim and what is done to it.
     *
     * @param customer its id
     * @param change   the change, for the report
     */
    private record Case(long customer, String change) {
    }

    private static final Case DELETED = new Case(901, "two orders inserted, then both DELETEd (the last one too)");
    private static final Case MOVED_AWAY = new Case(902, "its only order moved to customer 903 by UPDATE customer_id");
    private static final Case MOVED_TO = new Case(903, "received customer 902's order");
    private static final Case REFUND = new Case(904, "a refund of -5.00 and no other order");
    private static final List<Case> CASES = List.of(DELETED, MOVED_AWAY, MOVED_TO, REFUND,
            new Case(905, "20.00 and a refund of -20.00: 2 orders, total 0.00"),
            new Case(906, "10.00 and a refund of -15.00: a negative total"),
            new Case(907, "12.00, then its amount UPDATEd to -3.00"),
            new Case(908, "one order of 0.00"),
            new Case(909, "two orders of 9999999999.99, the largest numeric(12,2)"),
            new Case(910, "one order of -9999999999.99"),
            new Case(-901, "a negative customer id (integer allows it)"),
            new Case(Integer.MAX_VALUE, "the largest integer customer id"));

    @Test
    @Claim(id = "B11", title = "The sink carries everything the source can produce", exercises = {"sink/TotalsValidator",
            "sink/TotalsMapper", "wire/CustomerTotals", "streams/TotalsTopology", "containers/postgres/001-orders.sql",
            "containers/clickhouse/001-tables.sql"})
    void b11SinkCarriesTheSourceDomain(ClaimEvidence e, StandContext s) {
        Endpoints stand = s.endpoints();
        Topics topics = s.topics();
        s.settle();
        s.sink(SinkMode.TOTALS, o -> o.withUntilCaughtUp());   // ds-sink at the end: its next run reads this claim's records
        Map<TopicPartition, Long> totalsMark = topics.endOffsets(RunNames.CUSTOMER_TOTALS);
        Map<TopicPartition, Long> eventsDlqMark = topics.endOffsets(RunNames.ORDERS_EVENTS_DLQ);
        long eventsBefore = topics.totalEndOffset(RunNames.ORDERS_EVENTS);

        int changes = applyChanges(s.pg());
        s.settle();
        long events = topics.totalEndOffset(RunNames.ORDERS_EVENTS) - eventsBefore;
        long snapshots = topics.readFrom(RunNames.CUSTOMER_TOTALS, "read_committed", totalsMark, r -> { });

        Reconciliation twin = seedRulesTwin(e, s, totalsMark);
        Map<TopicPartition, Long> dlqMark = topics.endOffsets(RunNames.CUSTOMER_TOTALS_DLQ);
        SinkSummary run = s.sink(SinkMode.TOTALS, o -> o.withUntilCaughtUp());
        List<Rejection> rejected = Rejection.since(topics, RunNames.CUSTOMER_TOTALS_DLQ, dlqMark).stream()
                .filter(r -> r.atOrAfter(totalsMark)).toList();
        long streamsDeadLetters = topics.readFrom(RunNames.ORDERS_EVENTS_DLQ, "read_committed", eventsDlqMark, r -> { });
        Map<Long, Totals> truth = s.pg().truth();
        Map<Long, Totals> fin = s.ch().finalTotals();

        e.check("orders_check_constraints", s.pg().checkConstraints("orders").toString()).isEqualTo(
                "[orders_amount_is_a_number: CHECK ((amount <> 'NaN'::numeric))]", "CHECK constraints on orders: only the one "
                        + "refusing 'NaN' (B15), so every number its column types hold is a legitimate source value");
        e.check("orders_events_of_the_changes", events).isEqualTo(changes, "one orders.events record per change PG applied");
        e.figure("customer_totals_records_of_the_changes", snapshots);
        e.figure("summary", run.line());
        e.check("sink_bad_records", run.bad()).isZero("records of this claim's changes the sink rejected");
        e.check("source_records_in_the_sink_dlq", rejected.size()).isZero(
                "dead letters in customer.totals.dlq whose origin is at or after this claim's start offsets");
        e.check("source_records_in_the_streams_dlq", streamsDeadLetters).isZero(
                "records in orders.events.dlq (ds-streams' DLQ, B2) written since this claim's start");
        e.check("emptied_by_delete_final", finalText(fin, DELETED)).isEqualTo(EMPTY,
                "customer_totals FINAL of the customer whose last order was deleted: 0/0.00 (or no row, shown as 0/0.00)");
        e.check("emptied_by_move_final", finalText(fin, MOVED_AWAY)).isEqualTo(EMPTY,
                "customer_totals FINAL of the customer whose only order moved away: 0/0.00 (or no row)");
        e.check("refund_final", finalText(fin, REFUND)).isEqualTo(String.valueOf(truth.get(REFUND.customer())),
                "customer_totals FINAL of the customer with only a refund vs PG");
        e.table("This claim's customers: the change, PostgreSQL, customer_totals FINAL",
                List.of("customer_id", "change", "PG orders/total", "FINAL orders/total"), CASES.stream().map(c -> List.<Object>of(
                        c.customer(), c.change(), truth.containsKey(c.customer()) ? truth.get(c.customer()).toString() : "- (no order)",
                        fin.containsKey(c.customer()) ? fin.get(c.customer()).toString() : "- (no row)")).toList());
        Reconciliation.customerTotalsFinal(stand).record(e, "PostgreSQL vs customer_totals FINAL, every customer");
        e.negativeControl("seed_rule_twin_customers_wrong", twin.lost() + twin.stale() + twin.wrongValue(), Anomaly.LOST,
                "this claim's customers the twin (--customers 1..5) leaves lost, stale or wrong in its FINAL");
        e.note("PostgreSQL accepted every change (" + changes + " statements), so each is in the source's domain; "
                + "ds-streams wrote " + snapshots + " snapshots for them, the sink wrote them all and rejected none.");
    }

    /**
     * The negative control: the sink with the seed's range rule reads the same records (a scratch
     * group reset to the claim's start offsets, scratch tables and DLQ topic).
     *
     * @return its FINAL vs PG, this claim's customers only
     */
    private static Reconciliation seedRulesTwin(ClaimEvidence e, StandContext s, Map<TopicPartition, Long> totalsMark) {
        Topics topics = s.topics();
        ClickHouseTarget tables = s.ch().scratch(TWIN, "raw_totals", "customer_totals");
        TopicAdmin.of(s.endpoints()).ensureTopic(TWIN_DLQ, 1);
        Map<TopicPartition, Long> twinDlqMark = topics.endOffsets(TWIN_DLQ);
        topics.resetGroup(TWIN, totalsMark);
        SinkSummary run = s.twinSink(SinkMode.TOTALS, o -> o.withGroupId(TWIN).withClickhouse(tables).withDlqTopic(TWIN_DLQ)
                .withCustomers(SEED_RANGE).withUntilCaughtUp());
        List<Rejection> rejected = Rejection.since(topics, TWIN_DLQ, twinDlqMark);
        e.figure("seed_rule_twin_summary", run.line());
        e.figure("seed_rule_twin_rejected_records", rejected.size());
        e.table("Seed-rule twin (--customers " + SEED_RANGE + "): its dead letters", List.of("origin", "reason"), rejected.stream()
                .limit(Reconciliation.MAX_REPORTED_KEYS).map(r -> List.<Object>of(r.originPartition() + "@" + r.originOffset(),
                        String.valueOf(r.reason()))).toList());
        return Reconciliation.customers(s.pg().truth(),
                Reconciliation.customerRows(s.ch(), Reconciliation.customerFinal(TWIN + ".customer_totals")), SourceDomainIT::isMine);
    }

    /** Applies every case's change to PG, each statement its own transaction; @return the statements (one orders.events record each) */
    private static int applyChanges(Pg pg) {
        List<Long> inserted = new ArrayList<>();
        List<Integer> changed = new ArrayList<>();
        for (String amount : List.of("10.00", "20.00")) {
            inserted.add(pg.insertOrder(DELETED.customer(), money(amount)));
        }
        changed.add(pg.execute("DELETE FROM orders WHERE order_id = " + inserted.get(0)));
        changed.add(pg.execute("DELETE FROM orders WHERE order_id = " + inserted.get(1)));
        inserted.add(pg.insertOrder(MOVED_AWAY.customer(), money("15.00")));
        changed.add(pg.execute("UPDATE orders SET customer_id = " + MOVED_TO.customer() + " WHERE order_id = " + inserted.get(2)));
        inserted.add(pg.insertOrder(907, money("12.00")));
        changed.add(pg.execute("UPDATE orders SET amount = -3.00 WHERE order_id = " + inserted.get(3)));
        Map<Long, List<BigDecimal>> orders = Map.of(REFUND.customer(), List.of(money("-5.00")),
                905L, List.of(money("20.00"), money("-20.00")), 906L, List.of(money("10.00"), money("-15.00")),
                908L, List.of(money("0.00")), 909L, List.of(LARGEST, LARGEST), 910L, List.of(LARGEST.negate()),
                -901L, List.of(money("1.00")), (long) Integer.MAX_VALUE, List.of(money("1.00")));
        new TreeMap<>(orders).forEach((customer, amounts) -> amounts.forEach(a -> inserted.add(pg.insertOrder(customer, a))));
        if (changed.stream().anyMatch(n -> n != 1)) {
            throw new IllegalStateException("an UPDATE or DELETE of this claim changed " + changed + " rows, not 1 each");
        }
        return inserted.size() + changed.size();
    }

    private static BigDecimal money(String text) {
        return new BigDecimal(text);
    }

    private static boolean isMine(long customer) {
        return CASES.stream().anyMatch(c -> c.customer() == customer);
    }

    /** @return the case's FINAL row as {@code orders/total}; no row reads as {@value #EMPTY} */
    private static String finalText(Map<Long, Totals> fin, Case c) {
        return fin.containsKey(c.customer()) ? fin.get(c.customer()).toString() : EMPTY;
    }
}
