package dev.seams.it;

import dev.seams.check.Reconciliation;
import dev.seams.cli.ExitStatus;
import dev.seams.faults.FaultMatrix;
import dev.seams.fixture.SinkCli;
import dev.seams.fixture.StandContext;
import dev.seams.report.Anomaly;
import dev.seams.report.Claim;
import dev.seams.report.ClaimEvidence;
import dev.seams.sink.SinkMode;
import dev.seams.sinks.SinkUnderTest;
import dev.seams.stand.ConnectWorker;
import dev.seams.stand.Stand;
import dev.seams.truth.ClickHouse;
import dev.seams.truth.Endpoints;
import dev.seams.truth.Pg;
import dev.seams.truth.Rejection;
import dev.seams.truth.RunNames;
import dev.seams.truth.Topics;
import dev.seams.truth.Totals;
import dev.seams.wire.CustomerTotals;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.stream.LongStream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Schema changes of the source beyond ADD COLUMN (G9), while everything runs: claim B15 (docs/source.md "Schema
 * changes"). Each is carried, or stopped visibly with a named error — never a rounded value, never a legitimate value
 * parked in a DLQ while FINAL stays behind.
 *
 * <ul>
 *   <li>{@code numeric NaN}: PostgreSQL's {@code numeric} accepts {@code 'NaN'}; the shipped DDL refuses it by name
 *       (a twin column of the same type without the rule accepts it);</li>
 *   <li>{@code unread column renamed and dropped}: a column no link reads, added, renamed and dropped between orders;</li>
 *   <li>{@code amount numeric(14,3)}: three-decimal orders after the widening reach ds-streams exactly; the sink stops
 *       with exit status 10 before ClickHouse's {@code Decimal(18, 2)} could hold them only rounded, printing the ALTER
 *       that widens the column; after that ALTER the sink carries every decimal. Twin: the same FINAL copied into
 *       columns of the shipped type by ClickHouse's own conversion, which cuts the digits.</li>
 * </ul>
 *
 * <p>The widened amount stays (as G9's column does): orders.amount {@code numeric(14,3)}, the sink's totals columns
 * {@code Decimal(19, 3)}, and, once the class ran, {@code order_dedup.amount} as well
 * ({@link #widenTheOrderTablesForTheClaimsAfter}). The class runs next to last in its tier ({@link Order},
 * {@code junit-platform.properties}), so no other claim of the run meets the changed schema but the source's failover
 * ({@code it/FailoverIT}), whose load writes amounts of two decimals.
 */
@ExtendWith(StandContext.Resolver.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Order(Integer.MAX_VALUE - 1)
class SchemaChangesIT {

    private static final String TITLE = "Schema changes beyond ADD COLUMN";
    /** The customers of the column entry, 9501..9502. */
    private static final long COLUMN_CUSTOMER = 9501;
    /** The customers of the amount entry, 9511..9514: three decimals, a refund of three, a deleted one, an old order. */
    private static final long AMOUNT_CUSTOMER = 9511;
    private static final int AMOUNT_CUSTOMERS = 4;
    private static final String TWIN = RunNames.of("seams_b15_cut_digits");
    private static final String TWIN_INT32 = RunNames.of("seams_b15_int32");
    /** The customers of the customer_id entry: one beyond 32 bits, one of the old range whose order moves to it. */
    private static final long BIG_CUSTOMER = 3_000_000_001L;
    private static final long SMALL_CUSTOMER = 9521;

    @Test
    @Order(1)
    @Claim(id = "B15", variant = "numeric NaN", title = TITLE, exercises = {"containers/postgres/001-orders.sql"})
    void b15NanIsRefusedBySourceDdl(ClaimEvidence e, StandContext s) {
        // given: the shipped orders table, and a twin column of the same type without the shipped rule
        Pg pg = s.pg();
        pg.execute("DROP TABLE IF EXISTS b15_amount_without_rule");
        pg.execute("CREATE TABLE b15_amount_without_rule (amount numeric(12, 2) NOT NULL)");
        // when: 'NaN' and 'Infinity' are inserted as amounts
        String nan = pg.refusal("INSERT INTO orders (customer_id, amount) VALUES (" + COLUMN_CUSTOMER + ", 'NaN')");
        String infinity = pg.refusal("INSERT INTO orders (customer_id, amount) VALUES (" + COLUMN_CUSTOMER + ", 'Infinity')");
        String twin = pg.refusal("INSERT INTO b15_amount_without_rule VALUES ('NaN')");
        long twinRows = pg.longs("SELECT count(*) FROM b15_amount_without_rule WHERE amount = 'NaN'").get(0);
        pg.execute("DROP TABLE b15_amount_without_rule");
        // then: PostgreSQL refuses both in orders, by name; the twin holds a NaN
        e.check("nan_refusal", String.valueOf(nan)).isEqualTo("23514: ERROR: new row for relation \"orders\" violates check "
                + "constraint \"orders_amount_is_a_number\"", "PostgreSQL refuses 'NaN' by the shipped CHECK (SQLSTATE 23514)");
        e.check("infinity_refused", infinity != null && infinity.startsWith("22003")).isTrue(
                "PostgreSQL refuses 'Infinity' in numeric(12,2) by itself (SQLSTATE 22003, numeric field overflow): " + infinity);
        e.figure("twin_refusal", String.valueOf(twin));
        e.negativeControl("twin_nan_rows", twinRows, Anomaly.WRONG_VALUE,
                "NaN amounts a numeric(12,2) column without the rule holds: a sum over them is NaN, which no sink carries");
        e.note("The source's domain forbids NaN: with the rule, no NaN reaches orders.events, so ds-streams never meets one "
                + "(without it, ds-streams would dead-letter it as \"field \\\"amount\\\" is not a decimal\").");
    }

    @Test
    @Order(2)
    @Claim(id = "B15", variant = "unread column renamed and dropped", title = TITLE, exercises = {
        "containers/debezium/orders-connector.json", "wire/OrderEvent", "sink/Sink"})
    void b15UnreadColumnRenamedAndDropped(ClaimEvidence e, StandContext s) {
        // given: the pipeline settled, its processes' identities noted
        Stand stand = s.stand();
        Topics topics = s.topics();
        Pg pg = s.pg();
        s.settle();
        String streamsLog = stand.streams().logText();
        Map<TopicPartition, Long> eventsMark = topics.endOffsets(RunNames.ORDERS_EVENTS);
        Map<TopicPartition, Long> eventsDlq = topics.endOffsets(RunNames.ORDERS_EVENTS_DLQ);
        Map<TopicPartition, Long> totalsDlq = topics.endOffsets(RunNames.CUSTOMER_TOTALS_DLQ);
        // when: a column no link reads is added, renamed and dropped, with orders, an update and a delete in between
        pg.execute("ALTER TABLE orders ADD COLUMN IF NOT EXISTS b15_note text");
        long first = pg.insertOrder(COLUMN_CUSTOMER, new BigDecimal("10.00"));
        pg.execute("UPDATE orders SET b15_note = 'gift' WHERE order_id = " + first);
        pg.execute("ALTER TABLE orders RENAME COLUMN b15_note TO b15_memo");
        long second = pg.insertOrder(COLUMN_CUSTOMER + 1, new BigDecimal("20.00"));
        pg.execute("UPDATE orders SET amount = 11.00, b15_memo = 'resent' WHERE order_id = " + first);
        pg.execute("ALTER TABLE orders DROP COLUMN b15_memo");
        pg.insertOrder(COLUMN_CUSTOMER, new BigDecimal("5.00"));
        pg.execute("UPDATE orders SET customer_id = " + COLUMN_CUSTOMER + " WHERE order_id = " + second);
        pg.execute("DELETE FROM orders WHERE order_id = " + first);
        int changes = 7;
        // then: every change carried, nothing dead-lettered, no process restarted, FINAL = PG
        e.figure("ds_streams", s.drain().toString());
        long events = topics.recordsSince(RunNames.ORDERS_EVENTS, "read_committed", eventsMark).size();
        var run = s.sink(SinkMode.TOTALS, o -> o.withUntilCaughtUp());
        e.check("orders_events_of_the_changes", events).isEqualTo((long) changes, "one orders.events record per change");
        e.check("streams_dlq_records", Rejection.since(topics, RunNames.ORDERS_EVENTS_DLQ, eventsDlq).size()).isZero(
                "records ds-streams dead-lettered since the first ALTER");
        e.check("sink_dlq_records", Rejection.since(topics, RunNames.CUSTOMER_TOTALS_DLQ, totalsDlq).size()).isZero(
                "records the sink dead-lettered since the first ALTER");
        e.figure("sink_summary", run.line());
        e.check("streams_same_process", stand.streams().isAlive() && stand.streams().logText().startsWith(streamsLog))
                .isTrue("ds-streams: the same process, its log continued");
        e.check("connector_task_state", new ConnectWorker(stand.connect()).taskStatus(RunNames.CONNECTOR).state())
                .isEqualTo("RUNNING", "the connector task's state after the DROP COLUMN");
        Map<Long, Totals> truth = pg.truth();
        Map<Long, Totals> fin = s.ch().finalTotals();
        e.check("final_customer_" + COLUMN_CUSTOMER, String.valueOf(fin.get(COLUMN_CUSTOMER)))
                .isEqualTo(String.valueOf(truth.get(COLUMN_CUSTOMER)), "customer_totals FINAL vs PG of the customer of every change");
        Reconciliation.customerTotalsFinal(stand).record(e, "PostgreSQL vs customer_totals FINAL after the RENAME and DROP");
        e.note("No link reads a column beyond order_id, customer_id and amount (OrderEvent ignores every other field, G9), "
                + "so a column renamed or dropped changes nothing downstream; the detector of a wrong FINAL is shown to fire "
                + "by this claim's amount entry, in the same run.");
    }

    @Test
    @Order(3)
    @Claim(id = "B15", variant = "amount numeric(14,3)", title = TITLE, exercises = {"wire/OrderEvent",
        "wire/CustomerTotals", "sink/TargetColumns", "sink/DecimalType", "sink/Sink", "cli/SinkCommand",
        "containers/clickhouse/001-tables.sql"})
    void b15AmountWidened(ClaimEvidence e, StandContext s) {
        SinkUnderTest.requireDsSink("B15 reads ds-sink's stop on a three-decimal total and the ALTER it prints");   // before the ALTER
        // given: an order of the old type, the pipeline settled, the sink caught up; the twin's table copied from the shipped DDL
        Endpoints stand = s.endpoints();
        Topics topics = s.topics();
        Pg pg = s.pg();
        ClickHouse ch = s.ch();
        long old = pg.insertOrder(AMOUNT_CUSTOMER + 3, new BigDecimal("12.50"));
        s.settle();
        s.sink(SinkMode.TOTALS, o -> o.withUntilCaughtUp());
        ch.scratch(TWIN, "customer_totals");
        Map<TopicPartition, Long> eventsDlq = topics.endOffsets(RunNames.ORDERS_EVENTS_DLQ);
        Map<TopicPartition, Long> totalsDlq = topics.endOffsets(RunNames.CUSTOMER_TOTALS_DLQ);
        Map<TopicPartition, Long> totalsMark = topics.endOffsets(RunNames.CUSTOMER_TOTALS);
        // when: the amount widened while everything runs, then orders with three decimals (a refund, an update, a delete)
        pg.execute("ALTER TABLE orders ALTER COLUMN amount TYPE numeric(14, 3)");
        pg.insertOrder(AMOUNT_CUSTOMER, new BigDecimal("1.005"));
        pg.insertOrder(AMOUNT_CUSTOMER, new BigDecimal("2.250"));
        pg.insertOrder(AMOUNT_CUSTOMER + 1, new BigDecimal("0.001"));
        pg.insertOrder(AMOUNT_CUSTOMER + 1, new BigDecimal("-0.003"));
        long deleted = pg.insertOrder(AMOUNT_CUSTOMER + 2, new BigDecimal("4.444"));
        pg.insertOrder(AMOUNT_CUSTOMER + 2, new BigDecimal("5.5"));
        pg.execute("DELETE FROM orders WHERE order_id = " + deleted);
        pg.execute("UPDATE orders SET amount = 3.333 WHERE order_id = " + old);
        s.settle();   // ds-streams' latest snapshot of every customer = PG, compared exactly (Totals: no rounding)
        // then: ds-streams dead-lettered nothing; the sink stops by name before ClickHouse holds a rounded total
        Map<Long, Totals> truth = pg.truth();
        SinkCli stop = SinkCli.run(stand, SinkMode.TOTALS, "--until-caught-up");
        Map<Long, Totals> stoppedFinal = ch.finalTotals();
        Map<Long, Totals> snapshots = topics.latestTotals();
        ConsumerRecord<byte[], byte[]> first = topics.recordsSince(RunNames.CUSTOMER_TOTALS, "read_committed", totalsMark).stream()
                .filter(SchemaChangesIT::threeDecimals).findFirst().orElse(null);
        Map<TopicPartition, Long> committed = topics.committed(RunNames.SINK_GROUP, RunNames.CUSTOMER_TOTALS);
        e.check("streams_dlq_records", Rejection.since(topics, RunNames.ORDERS_EVENTS_DLQ, eventsDlq).size()).isZero(
                "records ds-streams dead-lettered since the ALTER (B11: nothing the source produces is rejected)");
        e.table("This claim's customers: PostgreSQL and ds-streams' latest snapshot, exact", List.of("customer_id", "PG", "customer.totals"),
                mine().stream().map(c -> List.<Object>of(c, String.valueOf(truth.get(c)), String.valueOf(snapshots.get(c)))).toList());
        e.check("sink_exit_status", stop.exitStatus()).isEqualTo(ExitStatus.TARGET_TOO_NARROW,
                "seams sink's exit status on the first three-decimal total (10: a value does not fit its column without rounding)");
        e.figure("sink_stopped", String.valueOf(stop.stopped()));
        Matcher printed = SinkCli.ALTER.matcher(String.valueOf(stop.stopped()));
        e.check("sink_printed_alter", printed.find() ? printed.group() : "-").isEqualTo("ALTER TABLE `"
                + stand.clickhouseTarget().database() + "`.`raw_totals` MODIFY COLUMN total Decimal(19, 3)", "the ALTER the stop "
                + "prints: the first table the sink writes, its total widened by one decimal, keeping every integer digit");
        e.check("rounded_totals_in_final", rounded(truth, stoppedFinal)).isZero(
                "this claim's customers whose FINAL total is PG's rounded or cut to 2 decimals, after the stop");
        e.check("three_decimal_snapshot_found", first != null).isTrue("ds-streams wrote a customer.totals snapshot with "
                + "more than two decimals since the ALTER");
        e.figure("first_three_decimal_record", first == null ? "-" : first.topic() + "-" + first.partition() + "@"
                + first.offset() + " " + new String(first.value(), StandardCharsets.UTF_8));
        Map<TopicPartition, Long> firstUnwritable = new java.util.TreeMap<>(java.util.Comparator.comparing(TopicPartition::toString));
        topics.recordsSince(RunNames.CUSTOMER_TOTALS, "read_committed", totalsMark).stream().filter(SchemaChangesIT::threeDecimals)
                .forEach(r -> firstUnwritable.merge(new TopicPartition(r.topic(), r.partition()), r.offset(), Math::min));
        e.figure("first_three_decimal_offsets", firstUnwritable.toString());
        e.figure("committed_offsets_at_the_stop", committed.toString());
        e.check("partitions_committed_past_a_three_decimal_record", firstUnwritable.entrySet().stream()
                .filter(en -> committed.getOrDefault(en.getKey(), 0L) > en.getValue()).count()).isZero(
                "partitions of customer.totals whose committed offset lies past the first three-decimal snapshot there");
        e.check("sink_dlq_records", Rejection.since(topics, RunNames.CUSTOMER_TOTALS_DLQ, totalsDlq).size()).isZero(
                "records the sink dead-lettered since the ALTER (a legitimate total is never a bad record)");
        // when: the operator runs the ALTER each stop prints, and the sink again
        SinkCli.Widened widened = SinkCli.widenUntilCarried(stop, ch::execute,
                () -> SinkCli.run(stand, SinkMode.TOTALS, "--until-caught-up"), 4);
        SinkCli run = widened.last();
        ch.execute("INSERT INTO " + TWIN + ".customer_totals SELECT * FROM " + stand.clickhouseTarget().database() + ".customer_totals");
        Reconciliation twin = Reconciliation.customers(pg.truth(),
                Reconciliation.customerRows(ch, Reconciliation.customerFinal(TWIN + ".customer_totals")), SchemaChangesIT::isAmountCustomer);
        // then: every decimal carried to FINAL; the twin with the shipped column type shows the cut digits
        e.table("The ALTERs the stops printed, run in order", List.of("ALTER"), widened.alters().stream().map(a -> List.<Object>of(a)).toList());
        e.check("sink_exit_status_after_the_alters", run.exitStatus()).isEqualTo(ExitStatus.OK, "seams sink after the printed ALTERs");
        e.figure("sink_summary_after_the_alters", run.summary() == null ? "-" : run.summary().line());
        Map<Long, Totals> fin = ch.finalTotals();
        e.table("This claim's customers: PostgreSQL, customer_totals FINAL", List.of("customer_id", "PG", "FINAL"),
                mine().stream().map(c -> List.<Object>of(c, String.valueOf(pg.truth().get(c)), String.valueOf(fin.get(c)))).toList());
        e.check("final_customer_" + AMOUNT_CUSTOMER, String.valueOf(fin.get(AMOUNT_CUSTOMER))).isEqualTo(
                String.valueOf(pg.truth().get(AMOUNT_CUSTOMER)), "customer_totals FINAL of the customer of 1.005 + 2.250, to the last decimal");
        Reconciliation.customerTotalsFinal(stand).record(e, "PostgreSQL vs customer_totals FINAL after the ALTERs");
        e.negativeControl("cut_digits_twin_wrong_values", twin.wrongValue(), Anomaly.WRONG_VALUE,
                "this claim's customers whose total the twin (customer_totals FINAL copied into Decimal(18, 2) by ClickHouse's "
                        + "own conversion) holds cut to two decimals");
    }

    @Test
    @Order(4)
    @Claim(id = "B15", variant = "customer_id bigint", title = TITLE, exercises = {"wire/OrderEvent",
        "wire/CustomerTotals", "streams/TotalsTopology", "sink/TargetColumns", "sink/IntegerType", "sink/Sink",
        "containers/clickhouse/001-tables.sql"})
    void b15CustomerIdWidened(ClaimEvidence e, StandContext s) {
        SinkUnderTest.requireDsSink("B15 reads ds-sink's command line on a customer beyond 32 bits");   // before the ALTER
        // given: the pipeline settled and the sink caught up; the twin's table with the customer id of PostgreSQL's integer
        Endpoints stand = s.endpoints();
        Topics topics = s.topics();
        Pg pg = s.pg();
        ClickHouse ch = s.ch();
        s.settle();
        s.sink(SinkMode.TOTALS, o -> o.withUntilCaughtUp());
        ch.execute("CREATE DATABASE IF NOT EXISTS " + TWIN_INT32);
        ch.execute("DROP TABLE IF EXISTS " + TWIN_INT32 + ".customer_totals");
        ch.execute("CREATE TABLE " + TWIN_INT32 + ".customer_totals (customer_id Int32, orders UInt64, total Decimal(19, 3), "
                + "version UInt64) ENGINE = ReplacingMergeTree(version) ORDER BY customer_id");
        Map<TopicPartition, Long> eventsDlq = topics.endOffsets(RunNames.ORDERS_EVENTS_DLQ);
        Map<TopicPartition, Long> totalsDlq = topics.endOffsets(RunNames.CUSTOMER_TOTALS_DLQ);
        // when: customer_id widened to bigint while everything runs, then orders of a customer beyond 32 bits (one moved
        // there from a small customer, one updated)
        pg.execute("ALTER TABLE orders ALTER COLUMN customer_id TYPE bigint");
        long moved = pg.insertOrder(SMALL_CUSTOMER, new BigDecimal("7.00"));
        long big = pg.insertOrder(BIG_CUSTOMER, new BigDecimal("10.00"));
        pg.insertOrder(BIG_CUSTOMER, new BigDecimal("0.25"));
        pg.execute("UPDATE orders SET amount = 11.00 WHERE order_id = " + big);
        pg.execute("UPDATE orders SET customer_id = " + BIG_CUSTOMER + " WHERE order_id = " + moved);
        s.settle();   // ds-streams' latest snapshot of every customer = PG, the big one included
        // then: nothing dead-lettered, the sink writes it, FINAL = PG; the twin's Int32 column does not hold the customer
        SinkCli run = SinkCli.run(stand, SinkMode.TOTALS, "--until-caught-up");
        Map<Long, Totals> truth = pg.truth();
        Map<Long, Totals> fin = ch.finalTotals();
        ch.execute("INSERT INTO " + TWIN_INT32 + ".customer_totals SELECT customer_id, orders, total, version FROM "
                + stand.clickhouseTarget().database() + ".customer_totals");
        Reconciliation twin = Reconciliation.customers(truth,
                Reconciliation.customerRows(ch, Reconciliation.customerFinal(TWIN_INT32 + ".customer_totals")), c -> c == BIG_CUSTOMER);
        e.check("streams_dlq_records", Rejection.since(topics, RunNames.ORDERS_EVENTS_DLQ, eventsDlq).size()).isZero(
                "records ds-streams dead-lettered since the ALTER (a customer id beyond 32 bits is no bad record)");
        e.check("sink_exit_status", run.exitStatus()).isEqualTo(ExitStatus.OK, "seams sink's exit status (ClickHouse's customer_id is Int64)");
        e.figure("sink_summary", run.summary() == null ? "-" : run.summary().line());
        e.check("sink_dlq_records", Rejection.since(topics, RunNames.CUSTOMER_TOTALS_DLQ, totalsDlq).size()).isZero(
                "records the sink dead-lettered since the ALTER");
        e.check("final_customer_" + BIG_CUSTOMER, String.valueOf(fin.get(BIG_CUSTOMER))).isEqualTo(String.valueOf(truth.get(BIG_CUSTOMER)),
                "customer_totals FINAL of the customer beyond 32 bits vs PG (three orders, one moved from customer " + SMALL_CUSTOMER + ")");
        e.check("final_customer_" + SMALL_CUSTOMER, String.valueOf(fin.get(SMALL_CUSTOMER))).isEqualTo("0/0.00",
                "customer_totals FINAL of the customer whose only order moved to the big one");
        Reconciliation.customerTotalsFinal(stand).record(e, "PostgreSQL vs customer_totals FINAL after the ALTER");
        e.negativeControl("int32_twin_customers_wrong", twin.lost() + twin.wrongValue(), Anomaly.LOST,
                "the customer beyond 32 bits lost or wrong in the twin (customer_totals FINAL copied into a table whose "
                        + "customer_id is Int32, PostgreSQL's integer: ClickHouse's conversion wraps the id)");
    }

    /**
     * The widened amount stays, so the operator widens every table that holds it, not only the totals: the orders sink of
     * the source's failover ({@code it/FailoverIT}, group {@code ds-sink-orders}, runs after this class) reads
     * this class's three-decimal order events into {@code order_dedup} and reconciles it by order with PostgreSQL. That
     * sink is brought up to date here as an operator would: each stop on a value its column cannot hold is answered with
     * the ALTER the stop names, and the sink runs again (measured on PostgreSQL 17: without it the failover's orders sink
     * stopped on the first three-decimal order and its reconciliation waited in vain).
     *
     * @throws IllegalStateException if the sink stops for another reason, or still stops after four ALTERs
     */
    @AfterAll
    static void widenTheOrderTablesForTheClaimsAfter(StandContext s) {
        Supplier<SinkCli> orders = () -> SinkCli.run(s.endpoints(), SinkMode.DEDUP_DEMO, "--group", FaultMatrix.ORDERS_GROUP,
                "--until-caught-up");
        SinkCli.Widened widened = SinkCli.widenUntilCarried(orders.get(), s.ch()::execute, orders, 4);
        if (widened.last().exitStatus() != ExitStatus.OK) {
            throw new IllegalStateException("the orders sink (group " + FaultMatrix.ORDERS_GROUP + ") still stops after the ALTERs "
                    + widened.alters() + ": exit status " + widened.last().exitStatus() + ", " + (widened.last().stopped() == null
                    ? "no stop printed (see the sink's lines on stderr)" : widened.last().stopped()));
        }
    }

    private static boolean threeDecimals(ConsumerRecord<byte[], byte[]> record) {
        try {
            return CustomerTotals.fromJson(record.value()).total().scale() > 2;
        } catch (RuntimeException notASnapshot) {
            return false;
        }
    }

    /** @return this claim's customers whose FINAL total is PG's, rounded or cut to two decimals (and not PG's itself) */
    private static long rounded(Map<Long, Totals> truth, Map<Long, Totals> fin) {
        return mine().stream().filter(c -> truth.containsKey(c) && fin.containsKey(c)).filter(c -> {
            BigDecimal pg = truth.get(c).total();
            BigDecimal ch = fin.get(c).total();
            return pg.compareTo(ch) != 0 && (pg.setScale(2, RoundingMode.HALF_UP).compareTo(ch) == 0
                    || pg.setScale(2, RoundingMode.DOWN).compareTo(ch) == 0);
        }).count();
    }

    private static List<Long> mine() {
        return LongStream.range(AMOUNT_CUSTOMER, AMOUNT_CUSTOMER + AMOUNT_CUSTOMERS).boxed().toList();
    }

    private static boolean isAmountCustomer(long customer) {
        return customer >= AMOUNT_CUSTOMER && customer < AMOUNT_CUSTOMER + AMOUNT_CUSTOMERS;
    }
}
