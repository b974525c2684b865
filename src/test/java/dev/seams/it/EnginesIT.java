package dev.seams.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;

import com.clickhouse.client.api.ServerException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.seams.report.ClaimEvidence;
import dev.seams.report.Evidence;
import dev.seams.report.EvidenceExtension;
import dev.seams.sink.SinkMode;
import dev.seams.sink.SinkSummary;
import dev.seams.stand.ClickHouse;
import dev.seams.stand.Pg;
import dev.seams.stand.Pipeline;
import dev.seams.stand.Reconciliation;
import dev.seams.stand.Reconciliation.CustomerRow;
import dev.seams.stand.Stand;
import dev.seams.stand.Topics;
import dev.seams.stand.Totals;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What the ClickHouse engines do with repeated versions of a row, and when (source section
 * "Идемпотентное состояние на стоке и ReplacingMergeTree": the part_log experiment and the
 * {@code optimize_on_insert} note): G5 and G6, parameterised.
 *
 * <p>Every test works on its own scratch tables, created with {@code CREATE TABLE x AS raw_totals}
 * or {@code AS customer_totals} (same columns, same engine) and dropped first, so part names and
 * row counts are the test's own and the tests run in any order. Nothing here assumes a server
 * version: G6 probes {@code system.settings} for {@code optimize_on_insert} (ClickHouse 18.16 has
 * no such setting; current servers default it to 1) and asserts what that server must do.
 */
@ExtendWith(EvidenceExtension.class)
class EnginesIT {

    private static final String G5_TITLE = "Merge collapses only in the replacing engine";
    private static final String G6_TITLE = "Insert-time collapse is not a guarantee";
    private static final String SETTING = "optimize_on_insert";
    private static final int G5_INSERTS = 5;
    private static final int NEW_PART = 1;
    private static final int MERGE_PARTS = 2;
    /** ClickHouse's error code UNKNOWN_SETTING. */
    private static final int UNKNOWN_SETTING = 115;
    private static final String COLUMNS = "(customer_id, orders, total, version)";
    /** One batch with two kinds of same-batch duplicate: an identical row twice (what --dup sends) and two snapshots of customer 2. */
    private static final String SAME_BATCH = "(1, 1, 10.00, 100), (1, 1, 10.00, 100), (2, 1, 20.00, 101), (2, 2, 45.50, 105), (3, 1, 7.25, 102)";
    private static final List<CustomerRow> SAME_BATCH_LATEST = List.of(row(1, 1, "10.00"), row(2, 2, "45.50"), row(3, 1, "7.25"));
    private static final String BATCH_A = "(1, 1, 10.00, 100), (2, 1, 20.00, 101)";
    /** Batch A's row of customer 1 again (an at-least-once redelivery), and a newer snapshot of customer 2. */
    private static final String BATCH_B = "(1, 1, 10.00, 100), (2, 2, 45.50, 105)";
    private static final List<CustomerRow> LATER_BATCH_LATEST = List.of(row(1, 1, "10.00"), row(2, 2, "45.50"));
    /** Two different snapshots of customer 7 with the same version: a version tie. */
    private static final String TIE_X = "(7, 3, 30.00, 500)";
    private static final String TIE_Y = "(7, 4, 99.99, 500)";
    private static final String TIES_SQL = "SELECT customer_id, version, count(), uniqExact(orders, total) FROM %s "
            + "GROUP BY customer_id, version HAVING uniqExact(orders, total) > 1 ORDER BY customer_id, version";
    private static final ObjectMapper JSON = new ObjectMapper();

    /** One row of {@code system.part_log}: a part written by an insert (NewPart) or by a merge (MergeParts). */
    private record PartEvent(String time, String table, int type, String typeName, String part, long rows, List<String> mergedFrom) {
        List<Object> cells() {
            return List.of(time, table, part, rows, typeName, mergedFrom.isEmpty() ? "" : String.join(", ", mergedFrom));
        }
    }

    private static CustomerRow row(int customer, long orders, String total) {
        return new CustomerRow(customer, new Totals(orders, new BigDecimal(total)));
    }

    @Test
    @DisplayName("G5 Merge collapses only in the replacing engine")
    void g5MergeCollapsesOnlyInTheReplacingEngine() {
        ClaimEvidence e = Evidence.claim("G5", G5_TITLE);
        Stand stand = Stand.get();
        Pg pg = Pg.of(stand);
        ClickHouse ch = ClickHouse.of(stand);
        pg.seed(30, 5, 5);
        Pipeline.awaitStreamsMatchesPg(stand);
        ch.truncate("raw_totals", "customer_totals");
        SinkSummary run = Pipeline.sink(stand, SinkMode.TOTALS, o -> o.withFromStart(true));
        long n = ch.scalar("SELECT count() FROM raw_totals");
        long customers = ch.scalar("SELECT uniqExact(customer_id) FROM raw_totals");

        String raw = "g5_raw";
        String replacing = "g5_replacing";
        String since = recreate(ch, raw, "raw_totals", replacing, "customer_totals");
        Map<String, String> settings = noInsertTimeCollapse(ch);
        long chunk = (n + G5_INSERTS - 1) / G5_INSERTS;
        for (int i = 0; i < G5_INSERTS; i++) {
            for (String table : List.of(raw, replacing)) {
                ch.rows("INSERT INTO " + table + " SELECT customer_id, orders, total, version FROM raw_totals "
                        + "ORDER BY version, customer_id LIMIT " + (i * chunk) + ", " + chunk, settings);
            }
        }
        Map<String, List<String>> active = new HashMap<>();
        List<PartEvent> events = await("one active part per table, made by a merge in part_log").atMost(Duration.ofMinutes(1))
                .pollInterval(Duration.ofSeconds(1))
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
                }, log -> active.values().stream().allMatch(parts -> parts.size() == 1 && log.stream()
                        .anyMatch(ev -> ev.type() == MERGE_PARTS && ev.part().equals(parts.get(0)))));

        List<List<Object>> newRaw = newParts(events, raw);
        List<List<Object>> newReplacing = newParts(events, replacing);
        PartEvent rawResult = producing(events, raw, active.get(raw).get(0));
        PartEvent replacingResult = producing(events, replacing, active.get(replacing).get(0));
        List<String> rawMergeLosses = mergeLosses(events, raw);
        List<String> replacingMergeLosses = mergeLosses(events, replacing);
        Reconciliation rec = Reconciliation.customers(pg.truth(), Reconciliation.customerRows(ch,
                "SELECT customer_id, orders, toString(total) FROM " + replacing + " ORDER BY customer_id"));

        e.figure("server_version", ch.version());
        e.figure("insert_settings", settings.isEmpty() ? "none (the server has no " + SETTING + ")" : settings.toString());
        e.figure("sink_summary", run.line());
        e.figure("rows_inserted_per_table", n);
        e.figure("inserts_per_table", G5_INSERTS);
        e.figure("new_parts_raw", newRaw.size());
        e.figure("new_parts_replacing", newReplacing.size());
        e.figure("merges_raw", events.stream().filter(ev -> ev.table().equals(raw) && ev.type() == MERGE_PARTS).count());
        e.figure("merges_replacing", events.stream().filter(ev -> ev.table().equals(replacing) && ev.type() == MERGE_PARTS).count());
        e.figure("raw_result_part", rawResult.part());
        e.figure("replacing_result_part", replacingResult.part());
        e.figure("raw_result_rows", rawResult.rows());
        e.expected("raw_result_rows", n);
        e.figure("replacing_result_rows", replacingResult.rows());
        e.expected("replacing_result_rows", customers);
        e.figure("raw_merges_that_dropped_rows", rawMergeLosses.size());
        e.expected("raw_merges_that_dropped_rows", 0);
        e.figure("replacing_merges_that_dropped_rows", replacingMergeLosses.size());
        e.table("system.part_log of the two scratch tables (the source's table)",
                List.of("event_time", "table", "part_name", "rows", "event_type", "merged_from"),
                events.stream().map(PartEvent::cells).toList());
        rec.record(e, "PostgreSQL vs the merged " + replacing + " part, read without FINAL");
        e.note(raw + " is `CREATE TABLE ... AS raw_totals` (MergeTree), " + replacing + " is `AS customer_totals` "
                + "(ReplacingMergeTree(version)). Both received the same " + G5_INSERTS + " inserts of the " + n
                + " rows the sink wrote for this run, then `OPTIMIZE TABLE ... FINAL`. Merges that dropped rows: "
                + (replacingMergeLosses.isEmpty() ? "none" : String.join("; ", replacingMergeLosses)) + " in " + replacing
                + "; " + (rawMergeLosses.isEmpty() ? "none" : String.join("; ", rawMergeLosses)) + " in " + raw + ".");

        assertThat(newRaw).as("both tables received the same inserts: new parts (name, rows)").isEqualTo(newReplacing);
        assertThat(newRaw).as("several inserts, several parts").hasSizeGreaterThan(1);
        assertThat(newRaw.stream().mapToLong(p -> (Long) p.get(1)).sum()).as("rows inserted").isEqualTo(n);
        assertThat(active.get(raw)).as("active parts of %s after OPTIMIZE FINAL", raw).hasSize(1);
        assertThat(active.get(replacing)).as("active parts of %s after OPTIMIZE FINAL", replacing).hasSize(1);
        assertThat(rawMergeLosses).as("MergeTree merges keep every row").isEmpty();
        assertThat(rawResult.rows()).as("the MergeTree result part keeps every row").isEqualTo(n);
        assertThat(ch.scalar("SELECT count() FROM " + raw)).as("%s count() after the merge", raw).isEqualTo(n);
        assertThat(replacingMergeLosses).as("the ReplacingMergeTree merges collapsed rows").isNotEmpty();
        assertThat(replacingResult.rows()).as("the ReplacingMergeTree result part: one row per key").isEqualTo(customers);
        assertThat(rec.matches()).as("the merged part's row per customer is PG's: %s", rec.describe()).isTrue();
    }

    @ParameterizedTest(name = "G6 Insert-time collapse is not a guarantee [optimize_on_insert={0}]")
    @ValueSource(strings = {"1", "0"})
    void g6SameBatchDuplicates(String value) {
        ClaimEvidence e = Evidence.claim("G6[" + SETTING + "=" + value + "]", G6_TITLE);
        Stand stand = Stand.get();
        ClickHouse ch = ClickHouse.of(stand);
        boolean exists = recordServer(e, ch);
        String replacing = "g6_replacing_oi" + value;
        String raw = "g6_raw_oi" + value;
        recreate(ch, replacing, "customer_totals", raw, "raw_totals");
        Map<String, String> settings = exists ? Map.of(SETTING, value) : Map.of();
        ServerException refused = exists ? null
                : catchThrowableOfType(ServerException.class, () -> ch.rows("SELECT 1", Map.of(SETTING, value)));

        for (String table : List.of(replacing, raw)) {
            ch.rows("INSERT INTO " + table + " " + COLUMNS + " VALUES " + SAME_BATCH, settings);
        }
        long sent = 5;
        long physical = ch.scalar("SELECT count() FROM " + replacing);
        long twin = ch.scalar("SELECT count() FROM " + raw);
        long parts = activeParts(ch, replacing).size();
        boolean collapseExpected = exists && value.equals("1");
        long expectedPhysical = collapseExpected ? SAME_BATCH_LATEST.size() : sent;
        List<CustomerRow> fin = Reconciliation.customerRows(ch, finalSql(replacing));
        List<CustomerRow> argMax = Reconciliation.customerRows(ch, argMaxSql(raw));
        List<CustomerRow> argMaxReplacing = Reconciliation.customerRows(ch, argMaxSql(replacing));

        e.figure("setting_applied", exists ? SETTING + "=" + value : "no (the server has no " + SETTING + ")");
        if (refused != null) {
            e.figure("setting_refused_with_code", ClickHouse.errorCode(refused));
            e.expected("setting_refused_with_code", UNKNOWN_SETTING);
        }
        e.figure("rows_sent_in_one_batch", sent);
        e.figure("distinct_keys_in_batch", (long) SAME_BATCH_LATEST.size());
        e.figure("replacing_parts_after_insert", parts);
        e.expected("replacing_parts_after_insert", 1L);
        e.figure("replacing_physical_rows_after_insert", physical);
        e.expected("replacing_physical_rows_after_insert", expectedPhysical);
        e.figure("raw_twin_physical_rows", twin);
        e.expected("raw_twin_physical_rows", sent);
        e.figure("final_rows", fin.toString());
        e.figure("argmax_rows_raw_twin", argMax.toString());
        e.expected("final_rows", SAME_BATCH_LATEST.toString());
        e.expected("argmax_rows_raw_twin", SAME_BATCH_LATEST.toString());
        e.table("The batch (one INSERT into each table) and what each read returns",
                List.of("read", "rows"), List.of(
                        List.of("sent: " + SAME_BATCH, sent),
                        List.of(replacing + " count() right after the insert (one part, no merge yet)", physical),
                        List.of(raw + " count() (MergeTree twin)", twin),
                        List.of(replacing + " FINAL", fin.toString()),
                        List.of(raw + " argMax(..., version)", argMax.toString())));
        e.note(collapseExpected
                ? "This server has optimize_on_insert and it was 1: the ReplacingMergeTree collapsed the same-batch duplicates while writing the part."
                : exists ? "optimize_on_insert=0: the part holds every row of the batch; only a merge or FINAL collapses them."
                : "This server (" + ch.version() + ") has no optimize_on_insert: a part holds every row of its batch, "
                        + "collapse happens only in merges and FINAL — the 18.16 behaviour.");

        if (refused == null) {
            assertThat(exists).as("the setting was sent, so the server has it").isTrue();
        } else {
            assertThat(ClickHouse.errorCode(refused)).as("a server without %s refuses it", SETTING).isEqualTo(UNKNOWN_SETTING);
        }
        assertThat(parts).as("one insert, one part (so no merge has run)").isEqualTo(1);
        assertThat(physical).as("ReplacingMergeTree rows right after a same-batch insert (collapse expected: %s)", collapseExpected)
                .isEqualTo(expectedPhysical);
        assertThat(twin).as("negative control: MergeTree never collapses on insert").isEqualTo(sent);
        assertThat(fin).as("FINAL: the latest version per key").isEqualTo(SAME_BATCH_LATEST);
        assertThat(argMax).as("argMax over the raw twin: the latest version per key").isEqualTo(SAME_BATCH_LATEST);
        assertThat(argMaxReplacing).as("argMax over the replacing table").isEqualTo(SAME_BATCH_LATEST);
    }

    @Test
    @DisplayName("G6 Insert-time collapse is not a guarantee [duplicate in a later batch]")
    void g6LaterBatchDuplicate() {
        ClaimEvidence e = Evidence.claim("G6[later batch]", G6_TITLE);
        Stand stand = Stand.get();
        ClickHouse ch = ClickHouse.of(stand);
        boolean exists = recordServer(e, ch);
        String replacing = "g6_later_replacing";
        String raw = "g6_later_raw";
        String since = recreate(ch, replacing, "customer_totals", raw, "raw_totals");
        // the most favourable case for insert-time collapse: optimize_on_insert=1 where the server has it
        Map<String, String> settings = exists ? Map.of(SETTING, "1") : Map.of();
        for (String batch : List.of(BATCH_A, BATCH_B)) {
            for (String table : List.of(replacing, raw)) {
                ch.rows("INSERT INTO " + table + " " + COLUMNS + " VALUES " + batch, settings);
            }
        }
        List<PartEvent> events = await("part_log holds both inserts").atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofSeconds(1))
                .until(() -> {
                    ch.execute("SYSTEM FLUSH LOGS");
                    return partLog(ch, since, replacing, raw);
                }, log -> newParts(log, replacing).size() == 2 && newParts(log, raw).size() == 2);
        List<Long> writtenReplacing = newParts(events, replacing).stream().map(p -> (Long) p.get(1)).toList();
        List<Long> writtenRaw = newParts(events, raw).stream().map(p -> (Long) p.get(1)).toList();
        long physical = ch.scalar("SELECT count() FROM " + replacing);
        List<CustomerRow> fin = Reconciliation.customerRows(ch, finalSql(replacing));
        List<CustomerRow> argMax = Reconciliation.customerRows(ch, argMaxSql(raw));

        e.figure("setting_applied", exists ? SETTING + "=1" : "no (the server has no " + SETTING + ")");
        e.figure("rows_written_per_insert_replacing", writtenReplacing.toString());
        e.expected("rows_written_per_insert_replacing", "[2, 2]");
        e.figure("rows_written_per_insert_raw", writtenRaw.toString());
        e.figure("replacing_physical_rows_now", physical);
        e.figure("background_merge_already_ran", events.stream().anyMatch(ev -> ev.type() == MERGE_PARTS && ev.table().equals(replacing)));
        e.figure("final_rows", fin.toString());
        e.expected("final_rows", LATER_BATCH_LATEST.toString());
        e.figure("argmax_rows_raw_twin", argMax.toString());
        e.expected("argmax_rows_raw_twin", LATER_BATCH_LATEST.toString());
        e.table("system.part_log of the two scratch tables", List.of("event_time", "table", "part_name", "rows", "event_type", "merged_from"),
                events.stream().map(PartEvent::cells).toList());
        e.note("Batch B repeats batch A's row of customer 1 (same version) as an at-least-once redelivery does. Each insert "
                + "wrote its part whole (part_log NewPart rows): a duplicate in a later batch is never collapsed on insert, "
                + "whatever optimize_on_insert says. Physical rows depend on whether a background merge has run yet ("
                + physical + " now); FINAL and argMax do not.");

        assertThat(writtenReplacing).as("rows each insert wrote into the ReplacingMergeTree").containsExactly(2L, 2L);
        assertThat(writtenRaw).as("rows each insert wrote into the MergeTree twin").containsExactly(2L, 2L);
        assertThat(fin).as("FINAL: the latest version per key").isEqualTo(LATER_BATCH_LATEST);
        assertThat(argMax).as("argMax over the raw twin").isEqualTo(LATER_BATCH_LATEST);
    }

    @Test
    @DisplayName("G6 Insert-time collapse is not a guarantee [version tie]")
    void g6VersionTie() {
        ClaimEvidence e = Evidence.claim("G6[version tie]", G6_TITLE + ": a version tie is a defect of the version column");
        Stand stand = Stand.get();
        Pg pg = Pg.of(stand);
        ClickHouse ch = ClickHouse.of(stand);
        Topics topics = Topics.of(stand);
        recordServer(e, ch);

        // 1. a tie: the same two rows, inserted in the two orders; FINAL picks by insertion order, not by data
        recreate(ch, "g6_tie_xy", "customer_totals", "g6_tie_yx", "customer_totals");
        recreate(ch, "g6_tie_raw", "raw_totals");
        for (String[] insert : new String[][] {{"g6_tie_xy", TIE_X}, {"g6_tie_xy", TIE_Y}, {"g6_tie_yx", TIE_Y}, {"g6_tie_yx", TIE_X},
                {"g6_tie_raw", TIE_X}, {"g6_tie_raw", TIE_Y}}) {
            ch.rows("INSERT INTO " + insert[0] + " " + COLUMNS + " VALUES " + insert[1], Map.of());
        }
        List<CustomerRow> finalXy = Reconciliation.customerRows(ch, finalSql("g6_tie_xy"));
        List<CustomerRow> finalYx = Reconciliation.customerRows(ch, finalSql("g6_tie_yx"));
        List<CustomerRow> argMaxTie = Reconciliation.customerRows(ch, argMaxSql("g6_tie_raw"));
        List<List<String>> tieDetected = ch.rows(TIES_SQL.formatted("g6_tie_raw"));

        // 2. the sink cannot tie: version = offset, unique within a partition, and a customer lives in one partition
        Pipeline.awaitStreamsMatchesPg(stand);
        Map<TopicPartition, Long> start = topics.endOffsets(Stand.CUSTOMER_TOTALS);
        pg.seed(20, 5, 66);
        Pipeline.awaitStreamsMatchesPg(stand);
        Partitioning window = Partitioning.of(topics, start);
        Partitioning whole = Partitioning.of(topics, Map.of());
        ch.truncate("raw_totals", "customer_totals");
        topics.resetGroup("ds-sink", start);
        SinkSummary dup = Pipeline.sink(stand, SinkMode.TOTALS, o -> o.withDup(true));
        topics.resetGroup("ds-sink", start);
        SinkSummary replay = Pipeline.sink(stand, SinkMode.TOTALS, o -> o);
        List<List<String>> sinkTies = ch.rows(TIES_SQL.formatted("raw_totals"));
        long duplicatedVersions = ch.scalar("SELECT count() FROM (SELECT customer_id, version FROM raw_totals "
                + "GROUP BY customer_id, version HAVING count() > 1)");
        Map<Integer, Totals> truth = new TreeMap<>(pg.truth());
        truth.keySet().retainAll(window.partitionsByCustomer().keySet());
        Reconciliation rec = Reconciliation.customers(truth, Reconciliation.customerRows(ch, Reconciliation.CUSTOMER_TOTALS_FINAL));

        e.figure("tie_rows", TIE_X + " and " + TIE_Y);
        e.figure("final_after_x_then_y", finalXy.toString());
        e.figure("final_after_y_then_x", finalYx.toString());
        e.figure("argmax_over_the_tie", argMaxTie.toString());
        e.figure("tie_detector_on_the_tie", tieDetected.size());
        e.expected("tie_detector_on_the_tie", 1);
        e.figure("changelog_records_in_window", window.records());
        e.figure("customers_in_window", window.partitionsByCustomer().size());
        e.figure("customers_in_more_than_one_partition", window.split().size());
        e.expected("customers_in_more_than_one_partition", 0);
        e.figure("records_keyed_other_than_customer_id", window.misKeyed());
        e.expected("records_keyed_other_than_customer_id", 0L);
        e.figure("whole_topic_customers_in_more_than_one_partition", whole.split().toString());
        e.figure("dup_run_summary", dup.line());
        e.figure("replay_run_summary", replay.line());
        e.figure("raw_totals_versions_written_more_than_once", duplicatedVersions);
        e.figure("raw_totals_version_ties", sinkTies.size());
        e.expected("raw_totals_version_ties", 0);
        e.table("Customer → partitions of customer.totals (records written during this test)", List.of("customer_id", "partitions"),
                window.partitionsByCustomer().entrySet().stream().map(en -> List.<Object>of(en.getKey(), en.getValue().toString())).toList());
        rec.record(e, "PostgreSQL vs customer_totals FINAL after the --dup run and the replay (customers written in the window)");
        e.note("Same data, two insertion orders, two FINAL answers: with equal versions ReplacingMergeTree keeps the row "
                + "inserted last, so the result is defined by arrival order, not by the data — the version column must "
                + "never tie. The sink's version is the record's offset in customer.totals: unique within a partition, "
                + "and every customer's records lie in one partition because ds-streams keys them by customer_id. After a "
                + "--dup run (each record twice in one batch) and a replay (each record again, later), raw_totals holds "
                + duplicatedVersions + " (customer, version) pairs more than once, and none of them with two different values. "
                + "Whole topic, customers found in more than one partition: " + whole.split()
                + " (records other tests produce by hand count here too; a split customer could tie, its offsets overlap).");

        assertThat(finalXy).as("FINAL of a tie returns one of the two rows").hasSize(1);
        assertThat(finalYx).as("FINAL of a tie returns one of the two rows").hasSize(1);
        assertThat(finalXy).as("the same rows in another insertion order give another FINAL: the data do not define it")
                .isNotEqualTo(finalYx);
        assertThat(tieDetected).as("negative control: the tie query finds the tie").hasSize(1);
        assertThat(window.records()).as("changelog records of the 20 new orders").isGreaterThanOrEqualTo(20);
        assertThat(window.split()).as("customers whose records lie in several partitions").isEmpty();
        assertThat(window.misKeyed()).as("records whose key is not their customer_id").isZero();
        assertThat(dup.inserted()).as("--dup inserts every record twice").isEqualTo(2 * window.records());
        assertThat(replay.inserted()).as("the replay inserts every record again").isEqualTo(window.records());
        assertThat(duplicatedVersions).as("raw_totals holds versions written more than once").isPositive();
        assertThat(sinkTies).as("(customer, version) pairs with two different values in raw_totals").isEmpty();
        assertThat(rec.matches()).as("FINAL vs PG per customer: %s", rec.describe()).isTrue();
    }

    /** Where each customer's records lie in {@code customer.totals} (read_committed), from given offsets on. */
    private record Partitioning(Map<Integer, Set<Integer>> partitionsByCustomer, long records, long misKeyed) {

        static Partitioning of(Topics topics, Map<TopicPartition, Long> from) {
            Map<Integer, Set<Integer>> partitions = new TreeMap<>();
            long[] counts = new long[2];
            topics.readAll(Stand.CUSTOMER_TOTALS, "read_committed", r -> {
                if (r.offset() < from.getOrDefault(new TopicPartition(r.topic(), r.partition()), 0L) || r.value() == null) {
                    return;
                }
                JsonNode customer;
                try {
                    customer = JSON.readTree(r.value()).path("customer_id");
                } catch (IOException ex) {
                    return;   // not a snapshot: the sink sends it to the DLQ, it never gets a version
                }
                if (!customer.canConvertToInt()) {
                    return;
                }
                partitions.computeIfAbsent(customer.asInt(), k -> new TreeSet<>()).add(r.partition());
                counts[0]++;
                String key = r.key() == null ? null : new String(r.key(), StandardCharsets.UTF_8);
                if (!Integer.toString(customer.asInt()).equals(key)) {
                    counts[1]++;
                }
            });
            return new Partitioning(partitions, counts[0], counts[1]);
        }

        /** @return customers found in more than one partition → those partitions */
        Map<Integer, Set<Integer>> split() {
            Map<Integer, Set<Integer>> split = new TreeMap<>(partitionsByCustomer);
            split.values().removeIf(p -> p.size() < 2);
            return split;
        }
    }

    /** Records the server's version and whether it has optimize_on_insert; @return whether it has */
    private static boolean recordServer(ClaimEvidence e, ClickHouse ch) {
        e.figure("server_version", ch.version());
        boolean exists = e.figure("setting_exists", ch.hasSetting(SETTING));
        if (exists) {
            e.figure("setting_default", ch.rows("SELECT value FROM system.settings WHERE name = '" + SETTING + "'").get(0).get(0));
        }
        return exists;
    }

    /** @return optimize_on_insert=0 where the server has it (merges, not inserts, must be the variable in G5) */
    private static Map<String, String> noInsertTimeCollapse(ClickHouse ch) {
        return ch.hasSetting(SETTING) ? Map.of(SETTING, "0") : Map.of();
    }

    /**
     * Drops and creates scratch tables {@code CREATE TABLE name AS like}, in pairs.
     *
     * @return the server's clock before the tables existed, for part_log reads
     */
    private static String recreate(ClickHouse ch, String... nameAndLike) {
        String now = ch.rows("SELECT toString(now())").get(0).get(0);
        for (int i = 0; i < nameAndLike.length; i += 2) {
            ch.execute("DROP TABLE IF EXISTS " + nameAndLike[i]);
            ch.execute("CREATE TABLE " + nameAndLike[i] + " AS " + nameAndLike[i + 1]);
        }
        return now;
    }

    private static String finalSql(String table) {
        return "SELECT customer_id, orders, toString(total) FROM " + table + " FINAL ORDER BY customer_id";
    }

    private static String argMaxSql(String table) {
        return "SELECT customer_id, argMax(orders, version), toString(argMax(total, version)) FROM " + table
                + " GROUP BY customer_id ORDER BY customer_id";
    }

    private static List<String> activeParts(ClickHouse ch, String table) {
        return ch.rows("SELECT name FROM system.parts WHERE database = currentDatabase() AND table = '" + table
                + "' AND active ORDER BY name").stream().map(r -> r.get(0)).toList();
    }

    /**
     * Reads NewPart (1) and MergeParts (2) events of the tables since a server time. The event type is
     * compared as a number: 18.16 names it NEW_PART/MERGE_PARTS, current servers NewPart/MergeParts.
     */
    private static List<PartEvent> partLog(ClickHouse ch, String since, String... tables) {
        String names = String.join("', '", tables);
        List<PartEvent> events = new ArrayList<>();
        for (List<String> r : ch.rows("SELECT toString(event_time), table, CAST(event_type AS Int8), toString(event_type), part_name, "
                + "rows, arrayStringConcat(merged_from, ',') FROM system.part_log WHERE database = currentDatabase() "
                + "AND table IN ('" + names + "') AND event_time >= toDateTime('" + since + "') "
                + "AND CAST(event_type AS Int8) IN (" + NEW_PART + ", " + MERGE_PARTS + ") "
                + "ORDER BY event_time, CAST(event_type AS Int8), table, part_name")) {
            events.add(new PartEvent(r.get(0), r.get(1), Integer.parseInt(r.get(2)), r.get(3), r.get(4), Long.parseLong(r.get(5)),
                    r.get(6).isEmpty() ? List.of() : List.of(r.get(6).split(","))));
        }
        return events;
    }

    /** @return (part name, rows) of the table's NewPart events, by part name */
    private static List<List<Object>> newParts(List<PartEvent> events, String table) {
        return events.stream().filter(ev -> ev.table().equals(table) && ev.type() == NEW_PART)
                .sorted(java.util.Comparator.comparing(PartEvent::part))
                .map(ev -> List.<Object>of(ev.part(), ev.rows())).toList();
    }

    private static PartEvent producing(List<PartEvent> events, String table, String part) {
        return events.stream().filter(ev -> ev.table().equals(table) && ev.type() == MERGE_PARTS && ev.part().equals(part))
                .reduce((a, b) -> b).orElseThrow();
    }

    /**
     * @return each merge of the table whose result has fewer rows than its source parts together, as
     *     text; merges are taken by level (the last number of a part name), so a merge's sources are known first
     */
    private static List<String> mergeLosses(List<PartEvent> events, String table) {
        Map<String, Long> rows = new HashMap<>();
        List<String> losses = new ArrayList<>();
        List<PartEvent> ofTable = events.stream().filter(ev -> ev.table().equals(table))
                .sorted(java.util.Comparator.comparingInt(PartEvent::type)
                        .thenComparingLong(ev -> Long.parseLong(ev.part().substring(ev.part().lastIndexOf('_') + 1))))
                .toList();
        for (PartEvent ev : ofTable) {
            if (ev.type() == MERGE_PARTS) {
                long in = ev.mergedFrom().stream().mapToLong(p -> {
                    Long r = rows.get(p);
                    if (r == null) {
                        throw new IllegalStateException("part_log has no event for " + table + "." + p + ", merged into " + ev.part());
                    }
                    return r;
                }).sum();
                if (ev.rows() < in) {
                    losses.add(ev.part() + ": " + in + " → " + ev.rows() + " rows");
                }
            }
            rows.put(ev.part(), ev.rows());
        }
        return losses;
    }
}
