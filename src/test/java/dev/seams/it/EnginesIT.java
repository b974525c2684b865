package dev.seams.it;

import static dev.seams.it.ScratchTables.COLUMNS;
import static dev.seams.it.ScratchTables.SETTING;
import static dev.seams.it.ScratchTables.argMaxSql;
import static dev.seams.it.ScratchTables.finalSql;
import static dev.seams.it.ScratchTables.recordServer;
import static dev.seams.it.ScratchTables.recreate;
import static dev.seams.truth.ClickHouseParts.MERGE_PARTS;
import static dev.seams.truth.ClickHouseParts.PART_LOG_COLUMNS;
import static dev.seams.truth.ClickHouseParts.activeParts;
import static dev.seams.truth.ClickHouseParts.mergeInto;
import static dev.seams.truth.ClickHouseParts.mergeLosses;
import static dev.seams.truth.ClickHouseParts.newParts;
import static dev.seams.truth.ClickHouseParts.partLog;
import static dev.seams.truth.ClickHouseParts.producing;
import static org.awaitility.Awaitility.await;

import com.clickhouse.client.api.ServerException;
import dev.seams.check.Reconciliation.CustomerRow;
import dev.seams.check.Reconciliation;
import dev.seams.fixture.StandContext;
import dev.seams.report.Anomaly;
import dev.seams.report.Claim;
import dev.seams.report.ClaimEvidence;
import dev.seams.sink.SinkMode;
import dev.seams.sink.SinkSummary;
import dev.seams.truth.ClickHouse;
import dev.seams.truth.ClickHouseParts.PartEvent;
import dev.seams.truth.Totals;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What the ClickHouse engines do with repeated versions of a row, and when (source section
 * "Идемпотентное состояние на стоке и ReplacingMergeTree": the part_log experiment and the
 * {@code optimize_on_insert} note): G5 and G6, parameterised; G6's version tie is {@code VersionTieIT}. What the
 * server did with the parts is read from its own {@code system.part_log} ({@code truth/ClickHouseParts}).
 *
 * <p>Every test works on its own scratch tables, created with {@code CREATE TABLE x AS raw_totals}
 * or {@code AS customer_totals} (same columns, same engine) and dropped first, so part names and
 * row counts are the test's own and the tests run in any order. Nothing here assumes a server
 * version: G6 probes {@code system.settings} for {@code optimize_on_insert} (ClickHouse 18.16 has
 * no such setting; current servers default it to 1) and measures what that server must do; where
 * the server lacks the setting, {@code optimize_on_insert=1} cannot be tested and its entry is
 * UNVERIFIED.
 */
@ExtendWith(StandContext.Resolver.class)
class EnginesIT {

    private static final String G5_TITLE = "Merge collapses only in the replacing engine";
    /** G6's title, shared with {@code VersionTieIT}. */
    static final String G6_TITLE = "Insert-time collapse is not a guarantee";
    private static final int G5_INSERTS = 5;
    /** ClickHouse's error code UNKNOWN_SETTING. */
    private static final int UNKNOWN_SETTING = 115;
    /** One batch with two kinds of same-batch duplicate: an identical row twice (what --dup sends) and two snapshots of customer 2. */
    private static final List<Snapshot> SAME_BATCH = List.of(new Snapshot(1, 1, "10.00", 100), new Snapshot(1, 1, "10.00", 100),
            new Snapshot(2, 1, "20.00", 101), new Snapshot(2, 2, "45.50", 105), new Snapshot(3, 1, "7.25", 102));
    private static final List<Snapshot> BATCH_A = List.of(new Snapshot(1, 1, "10.00", 100), new Snapshot(2, 1, "20.00", 101));
    /** Batch A's row of customer 1 again (an at-least-once redelivery), and a newer snapshot of customer 2. */
    private static final List<Snapshot> BATCH_B = List.of(new Snapshot(1, 1, "10.00", 100), new Snapshot(2, 2, "45.50", 105));

    /** One row the test inserts: a snapshot of a customer with its version. */
    private record Snapshot(int customer, long orders, String total, long version) {
        String sql() {
            return "(" + customer + ", " + orders + ", " + total + ", " + version + ")";
        }
    }

    /** @return the batch as an SQL VALUES list */
    private static String values(List<Snapshot> batch) {
        return batch.stream().map(Snapshot::sql).collect(Collectors.joining(", "));
    }

    /** @return the highest version of each customer of the rows: what FINAL and argMax must return, in customer order */
    private static List<CustomerRow> latest(List<Snapshot> rows) {
        Map<Integer, Snapshot> last = new TreeMap<>();
        rows.forEach(r -> last.merge(r.customer(), r, (a, b) -> b.version() > a.version() ? b : a));
        return last.values().stream().map(r -> new CustomerRow(r.customer(), new Totals(r.orders(), new BigDecimal(r.total())))).toList();
    }

    /** @return the latest rows as a per-customer truth, for counting duplicates per key with {@link Reconciliation} */
    private static Map<Long, Totals> truthOf(List<CustomerRow> rows) {
        Map<Long, Totals> truth = new TreeMap<>();
        rows.forEach(r -> truth.put(r.customerId(), r.totals()));
        return truth;
    }

    @Test
    @Claim(id = "G5", title = G5_TITLE, exercises = {"containers/clickhouse/001-tables.sql", "sink/Sink",
            "containers/clickhouse/config.d/seams-part-log.xml"})
    void g5MergeCollapsesOnlyInTheReplacingEngine(ClaimEvidence e, StandContext s) {
        ClickHouse ch = s.ch();
        s.pg().seed(30, 5, 5);
        s.settle();
        ch.truncate("raw_totals", "customer_totals");
        SinkSummary run = s.sink(SinkMode.TOTALS, o -> o.withFromStart(true));
        long n = ch.scalar("SELECT count() FROM raw_totals");
        long customers = ch.scalar("SELECT uniqExact(customer_id) FROM raw_totals");

        String raw = "g5_raw";
        String replacing = "g5_replacing";
        String since = recreate(ch, raw, "raw_totals", replacing, "customer_totals");
        Map<String, String> settings = noInsertTimeCollapse(ch);
        long chunk = (n + G5_INSERTS - 1) / G5_INSERTS;
        for (int i = 0; i < G5_INSERTS; i++) {
            for (String table : List.of(raw, replacing)) {
                ch.rows("INSERT INTO " + table + " " + COLUMNS + " SELECT customer_id, orders, total, version FROM raw_totals "
                        + "ORDER BY version, customer_id LIMIT " + (i * chunk) + ", " + chunk, settings);
            }
        }
        Map<String, List<String>> active = new HashMap<>();
        List<PartEvent> events = await("one active part per table, made by a merge in part_log").atMost(Duration.ofMinutes(1))
                .pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(500))
                .until(() -> {
                    for (String table : List.of(raw, replacing)) {
                        if (activeParts(ch, table).size() > 1) {
                            // again if a background merge held some parts when OPTIMIZE came (it is a no-op then)
                            ch.execute("OPTIMIZE TABLE " + table + " FINAL");
                        }
                        active.put(table, activeParts(ch, table));
                    }
                    ch.execute("SYSTEM FLUSH LOGS");
                    return partLog(ch, since, raw, replacing);
                }, log -> active.entrySet().stream().allMatch(t -> t.getValue().size() == 1
                        && mergeInto(log, t.getKey(), t.getValue().get(0)).isPresent()));

        List<List<Object>> newRaw = newParts(events, raw);
        List<List<Object>> newReplacing = newParts(events, replacing);
        PartEvent rawResult = producing(events, raw, active.get(raw).get(0));
        PartEvent replacingResult = producing(events, replacing, active.get(replacing).get(0));
        List<String> rawMergeLosses = mergeLosses(events, raw);
        List<String> replacingMergeLosses = mergeLosses(events, replacing);
        Map<Long, Totals> truth = s.pg().truth();
        Reconciliation rawTwin = Reconciliation.customers(truth, Reconciliation.customerRows(ch,
                "SELECT customer_id, orders, toString(total) FROM " + raw + " ORDER BY customer_id"));

        e.figure("server_version", ch.version());
        e.figure("insert_settings", settings.isEmpty() ? "none (the server has no " + SETTING + ")" : settings.toString());
        e.figure("sink_summary", run.line());
        e.figure("rows_inserted_per_table", n);
        e.check("new_parts_raw", newRaw.size()).isEqualTo(G5_INSERTS, "part_log NewPart events of " + raw + ": one part per INSERT");
        e.check("new_parts_replacing", newReplacing.toString()).isEqualTo(newRaw.toString(),
                "part_log NewPart (name, rows) of " + replacing + " vs " + raw + ": both received the same inserts");
        e.check("rows_in_new_parts_raw", newRaw.stream().mapToLong(p -> (Long) p.get(1)).sum()).isEqualTo(n,
                "rows the inserts wrote into " + raw + " vs rows sent");
        e.figure("merges_raw", events.stream().filter(ev -> ev.table().equals(raw) && ev.type() == MERGE_PARTS).count());
        e.figure("merges_replacing", events.stream().filter(ev -> ev.table().equals(replacing) && ev.type() == MERGE_PARTS).count());
        e.figure("raw_result_part", rawResult.part());
        e.figure("replacing_result_part", replacingResult.part());
        e.check("raw_merges_that_dropped_rows", rawMergeLosses.size()).isZero("MergeTree merges keep every row");
        e.check("raw_result_rows", rawResult.rows()).isEqualTo(n, "the MergeTree result part keeps every row");
        e.check("raw_count_after_merge", ch.scalar("SELECT count() FROM " + raw)).isEqualTo(n, raw + " count() after the merge");
        e.check("replacing_merges_that_dropped_rows", replacingMergeLosses.size()).isPositive(
                "the ReplacingMergeTree merges collapsed rows (part_log: result rows below the sum of its sources)");
        e.check("replacing_result_rows", replacingResult.rows()).isEqualTo(customers,
                "the ReplacingMergeTree result part: one row per key (customers in raw_totals)");
        e.negativeControl("raw_result_duplicate_customers", rawTwin.duplicate(), Anomaly.DUPLICATE,
                "customers with more than one row in the merged " + raw + " (MergeTree), against PG's customers");
        e.table("system.part_log of the two scratch tables (the source's table)", PART_LOG_COLUMNS,
                events.stream().map(PartEvent::cells).toList());
        Reconciliation.customers(truth, Reconciliation.customerRows(ch,
                "SELECT customer_id, orders, toString(total) FROM " + replacing + " ORDER BY customer_id"))
                .record(e, "PostgreSQL vs the merged " + replacing + " part, read without FINAL");
        e.note(raw + " is `CREATE TABLE ... AS raw_totals` (MergeTree), " + replacing + " is `AS customer_totals` "
                + "(ReplacingMergeTree(version)). Both received the same " + newRaw.size() + " inserts of the " + n
                + " rows the sink wrote for this run, then `OPTIMIZE TABLE ... FINAL`. Merges that dropped rows: "
                + (replacingMergeLosses.isEmpty() ? "none" : String.join("; ", replacingMergeLosses)) + " in " + replacing
                + "; " + (rawMergeLosses.isEmpty() ? "none" : String.join("; ", rawMergeLosses)) + " in " + raw + ".");
    }

    @ParameterizedTest(name = SETTING + "={0}")
    @ValueSource(ints = {1, 0})
    @Claim(id = "G6", title = G6_TITLE, exercises = {"containers/clickhouse/001-tables.sql"})
    void g6SameBatchDuplicates(int setting, ClaimEvidence e, StandContext s) {
        String value = Integer.toString(setting);
        ClickHouse ch = s.ch();
        String version = ch.version();
        boolean exists = recordServer(e, ch);
        Map<String, String> settings = exists ? Map.of(SETTING, value) : Map.of();
        if (exists) {
            e.check("setting_in_effect", ch.rows("SELECT value FROM system.settings WHERE name = '" + SETTING + "'", settings)
                    .get(0).get(0)).isEqualTo(value, "the value the server applies to a query sent with " + SETTING + "=" + value);
        } else {
            ServerException refused = refusal(ch, "SELECT 1", Map.of(SETTING, value));
            Object code = refused == null ? "accepted" : ClickHouse.errorCode(refused);
            e.check("setting_refused_with_code", code).isEqualTo(UNKNOWN_SETTING,
                    "a server without " + SETTING + " refuses it (UNKNOWN_SETTING)");
            if (value.equals("1")) {
                e.unverified("setting absent on " + version + ": system.settings has no " + SETTING + " and the server "
                        + "refused " + SETTING + "=1 with code " + code + ", so insert-time collapse cannot be switched on; "
                        + "this server's same-batch behaviour is measured once, in G6[" + SETTING + "=0]");
                return;
            }
        }
        String replacing = "g6_replacing_oi" + value;
        String raw = "g6_raw_oi" + value;
        recreate(ch, replacing, "customer_totals", raw, "raw_totals");

        for (String table : List.of(replacing, raw)) {
            ch.rows("INSERT INTO " + table + " " + COLUMNS + " VALUES " + values(SAME_BATCH), settings);
        }
        long physical = ch.scalar("SELECT count() FROM " + replacing);
        long twin = ch.scalar("SELECT count() FROM " + raw);
        long parts = activeParts(ch, replacing).size();
        boolean collapseExpected = exists && value.equals("1");
        List<CustomerRow> expected = latest(SAME_BATCH);
        List<CustomerRow> fin = Reconciliation.customerRows(ch, finalSql(replacing));
        List<CustomerRow> argMax = Reconciliation.customerRows(ch, argMaxSql(raw));
        List<CustomerRow> argMaxReplacing = Reconciliation.customerRows(ch, argMaxSql(replacing));
        long twinDuplicates = Reconciliation.customers(truthOf(expected), Reconciliation.customerRows(ch,
                "SELECT customer_id, orders, toString(total) FROM " + raw)).duplicate();

        e.figure("setting_applied", exists ? SETTING + "=" + value : "no (the server has no " + SETTING + ")");
        e.figure("rows_sent_in_one_batch", SAME_BATCH.size());
        e.figure("distinct_keys_in_batch", expected.size());
        e.check("replacing_parts_after_insert", parts).isEqualTo(1, "one insert, one part (so no merge has run)");
        e.check("replacing_physical_rows_after_insert", physical).isEqualTo(collapseExpected ? expected.size() : SAME_BATCH.size(),
                collapseExpected ? SETTING + "=1 collapses same-batch duplicates while writing the part"
                        : "no insert-time collapse: the part holds every row of the batch");
        e.check("raw_twin_physical_rows", twin).isEqualTo(SAME_BATCH.size(), "MergeTree never collapses on insert");
        e.negativeControl("raw_twin_duplicate_keys", twinDuplicates, Anomaly.DUPLICATE,
                "customers of the batch with more than one row in the MergeTree twin, read without FINAL/argMax");
        e.check("final_rows", fin.toString()).isEqualTo(expected.toString(), "FINAL: the highest version per key");
        e.check("argmax_rows_raw_twin", argMax.toString()).isEqualTo(expected.toString(), "argMax(..., version) over the MergeTree twin");
        e.check("argmax_rows_replacing", argMaxReplacing.toString()).isEqualTo(expected.toString(),
                "argMax(..., version) over the replacing table");
        e.table("The batch (one INSERT into each table) and what each read returns", List.of("read", "rows"), List.of(
                List.of("sent: " + values(SAME_BATCH), SAME_BATCH.size()),
                List.of(replacing + " count() right after the insert (one part, no merge yet)", physical),
                List.of(raw + " count() (MergeTree twin)", twin),
                List.of(replacing + " FINAL", fin.toString()),
                List.of(raw + " argMax(..., version)", argMax.toString())));
        e.note(collapseExpected
                ? "This server has " + SETTING + " and it was 1: the ReplacingMergeTree collapsed the same-batch duplicates while writing the part."
                : exists ? SETTING + "=0: the part holds every row of the batch; only a merge or FINAL collapses them."
                : "This server (" + version + ") has no " + SETTING + ": a part holds every row of its batch, "
                        + "collapse happens only in merges and FINAL — the behaviour " + SETTING + "=0 selects on newer servers.");
    }

    @Test
    @Claim(id = "G6", variant = "later batch", title = G6_TITLE, exercises = {"containers/clickhouse/001-tables.sql",
            "containers/clickhouse/config.d/seams-part-log.xml"})
    void g6LaterBatchDuplicate(ClaimEvidence e, StandContext s) {
        ClickHouse ch = s.ch();
        boolean exists = recordServer(e, ch);
        String replacing = "g6_later_replacing";
        String raw = "g6_later_raw";
        String since = recreate(ch, replacing, "customer_totals", raw, "raw_totals");
        // the most favourable case for insert-time collapse: optimize_on_insert=1 where the server has it
        Map<String, String> settings = exists ? Map.of(SETTING, "1") : Map.of();
        for (List<Snapshot> batch : List.of(BATCH_A, BATCH_B)) {
            for (String table : List.of(replacing, raw)) {
                ch.rows("INSERT INTO " + table + " " + COLUMNS + " VALUES " + values(batch), settings);
            }
        }
        List<PartEvent> events = await("part_log holds both inserts").atMost(Duration.ofMinutes(1)).pollDelay(Duration.ZERO)
                .pollInterval(Duration.ofMillis(500))
                .until(() -> {
                    ch.execute("SYSTEM FLUSH LOGS");
                    return partLog(ch, since, replacing, raw);
                }, log -> newParts(log, replacing).size() == 2 && newParts(log, raw).size() == 2);
        List<Long> writtenReplacing = newParts(events, replacing).stream().map(p -> (Long) p.get(1)).toList();
        List<Long> writtenRaw = newParts(events, raw).stream().map(p -> (Long) p.get(1)).toList();
        List<Long> sent = List.of((long) BATCH_A.size(), (long) BATCH_B.size());
        List<CustomerRow> expected = latest(concat(BATCH_A, BATCH_B));
        long physical = ch.scalar("SELECT count() FROM " + replacing);
        List<CustomerRow> fin = Reconciliation.customerRows(ch, finalSql(replacing));
        List<CustomerRow> argMax = Reconciliation.customerRows(ch, argMaxSql(raw));
        long twinDuplicates = Reconciliation.customers(truthOf(expected), Reconciliation.customerRows(ch,
                "SELECT customer_id, orders, toString(total) FROM " + raw)).duplicate();

        e.figure("setting_applied", exists ? SETTING + "=1" : "no (the server has no " + SETTING + ")");
        e.check("rows_written_per_insert_replacing", writtenReplacing.toString()).isEqualTo(sent.toString(),
                "part_log NewPart rows of each insert into the ReplacingMergeTree vs rows sent: nothing collapsed on insert");
        e.check("rows_written_per_insert_raw", writtenRaw.toString()).isEqualTo(sent.toString(),
                "part_log NewPart rows of each insert into the MergeTree twin vs rows sent");
        e.negativeControl("raw_twin_duplicate_keys", twinDuplicates, Anomaly.DUPLICATE,
                "customers with more than one row in the MergeTree twin, read without FINAL/argMax");
        e.figure("replacing_physical_rows_now", physical);
        e.figure("background_merge_already_ran", events.stream().anyMatch(ev -> ev.type() == MERGE_PARTS && ev.table().equals(replacing)));
        e.check("final_rows", fin.toString()).isEqualTo(expected.toString(), "FINAL: the highest version per key");
        e.check("argmax_rows_raw_twin", argMax.toString()).isEqualTo(expected.toString(), "argMax(..., version) over the MergeTree twin");
        e.table("system.part_log of the two scratch tables", PART_LOG_COLUMNS, events.stream().map(PartEvent::cells).toList());
        e.note("Batch B repeats batch A's row of customer 1 (same version) as an at-least-once redelivery does. Each insert "
                + "wrote its part whole (part_log NewPart rows): a duplicate in a later batch is never collapsed on insert, "
                + "whatever " + SETTING + " says. Physical rows depend on whether a background merge has run yet ("
                + physical + " now); FINAL and argMax do not.");
    }

    private static <T> List<T> concat(List<T> a, List<T> b) {
        List<T> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }

    /** @return the server's refusal of the query sent with these settings, or null if it ran */
    private static ServerException refusal(ClickHouse ch, String sql, Map<String, String> settings) {
        try {
            ch.rows(sql, settings);
            return null;
        } catch (ServerException refused) {
            return refused;
        }
    }

    /** @return optimize_on_insert=0 where the server has it (merges, not inserts, must be the variable in G5) */
    private static Map<String, String> noInsertTimeCollapse(ClickHouse ch) {
        return ch.hasSetting(SETTING) ? Map.of(SETTING, "0") : Map.of();
    }

}
