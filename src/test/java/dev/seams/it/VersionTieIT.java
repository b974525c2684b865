package dev.seams.it;

import static dev.seams.it.ScratchTables.COLUMNS;
import static dev.seams.it.ScratchTables.argMaxSql;
import static dev.seams.it.ScratchTables.finalSql;
import static dev.seams.it.ScratchTables.recordServer;
import static dev.seams.it.ScratchTables.recreate;

import dev.seams.check.Reconciliation.CustomerRow;
import dev.seams.check.Reconciliation;
import dev.seams.fixture.Pipeline;
import dev.seams.fixture.StandContext;
import dev.seams.report.Anomaly;
import dev.seams.report.Claim;
import dev.seams.report.ClaimEvidence;
import dev.seams.sink.SinkMode;
import dev.seams.sink.SinkSummary;
import dev.seams.sinks.SinkTrait;
import dev.seams.truth.ClickHouse;
import dev.seams.truth.Partitioning;
import dev.seams.truth.RunNames;
import dev.seams.truth.Topics;
import dev.seams.truth.Totals;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A version tie is a defect of the version column (claim G6[version tie]; source section "Идемпотентное состояние на
 * стоке и ReplacingMergeTree"): two different snapshots with the same version give FINAL answers that depend on the
 * insertion order, an older snapshot arriving late loses to the higher version, and the sink's own versions never tie
 * after a {@code --dup} run and a replay (every customer's records in one partition, keyed by customer_id). Scratch
 * tables as in {@code EnginesIT} ({@link ScratchTables}).
 */
@ExtendWith(StandContext.Resolver.class)
class VersionTieIT {

    /** Two different snapshots of customer 7 with the same version: a version tie. */
    private static final String TIE_X = "(7, 3, 30.00, 500)";
    private static final String TIE_Y = "(7, 4, 99.99, 500)";
    /** A newer snapshot of customer 8, then an older one arriving late (a redelivery, a partial replay): the version must decide. */
    private static final String NEWER = "(8, 5, 50.00, 600)";
    private static final String LATE_OLDER = "(8, 4, 40.00, 599)";
    private static final String TIES_SQL = "SELECT customer_id, version, count(), uniqExact(orders, total) FROM %s "
            + "GROUP BY customer_id, version HAVING uniqExact(orders, total) > 1 ORDER BY customer_id, version";

    @Test
    @Claim(id = "G6", variant = "version tie", title = EnginesIT.G6_TITLE + ": a version tie is a defect of the version column",
            exercises = {"sink/TotalsMapper", "streams/TotalsTopology", "containers/clickhouse/001-tables.sql"})
    void g6VersionTie(ClaimEvidence e, StandContext s) {
        s.requireSink(SinkTrait.DS_SINK_OPTIONS, "G6 runs the sink with --dup over a window it empties the tables for");   // before it empties them
        ClickHouse ch = s.ch();
        Topics topics = s.topics();
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
        // 1b. no tie: an older snapshot inserted after a newer one; FINAL of the stand's DDL keeps the higher version
        recreate(ch, "g6_late", "customer_totals");
        ch.rows("INSERT INTO g6_late " + COLUMNS + " VALUES " + NEWER, Map.of());
        ch.rows("INSERT INTO g6_late " + COLUMNS + " VALUES " + LATE_OLDER, Map.of());
        List<CustomerRow> finalLate = Reconciliation.customerRows(ch, finalSql("g6_late"));

        // 2. the sink's versions do not tie: after a --dup run and a replay of this test's records
        s.settle();
        Map<TopicPartition, Long> start = topics.endOffsets(RunNames.CUSTOMER_TOTALS);
        int seeded = s.pg().seed(20, 5, 66).size();
        s.settle();
        Partitioning window = Partitioning.of(topics, start);
        Partitioning whole = Partitioning.of(topics, Map.of());
        ch.truncate("raw_totals", "customer_totals");
        Pipeline.resetSinkGroup(s.endpoints(), RunNames.SINK_GROUP, start);
        SinkSummary dup = s.sink(SinkMode.TOTALS, o -> o.withDup(true));
        Pipeline.resetSinkGroup(s.endpoints(), RunNames.SINK_GROUP, start);
        SinkSummary replay = s.sink(SinkMode.TOTALS, o -> o);
        List<List<String>> sinkTies = ch.rows(TIES_SQL.formatted("raw_totals"));
        long duplicatedVersions = ch.scalar("SELECT count() FROM (SELECT customer_id, version FROM raw_totals "
                + "GROUP BY customer_id, version HAVING count() > 1)");
        Map<Long, Totals> truth = new TreeMap<>(s.pg().truth());
        truth.keySet().retainAll(window.partitionsByCustomer().keySet());

        e.figure("tie_rows", TIE_X + " and " + TIE_Y);
        e.check("final_rows_after_x_then_y", finalXy.size()).isEqualTo(1, "FINAL of a tie returns one of the two rows");
        e.check("final_rows_after_y_then_x", finalYx.size()).isEqualTo(1, "FINAL of a tie returns one of the two rows");
        e.figure("final_after_x_then_y", finalXy.toString());
        e.figure("final_after_y_then_x", finalYx.toString());
        e.check("final_depends_on_insertion_order", !finalXy.equals(finalYx)).isTrue(
                "the same two rows in the other insertion order give another FINAL: the data do not define it");
        e.figure("argmax_over_the_tie", argMaxTie.toString());
        e.check("final_after_a_late_older_snapshot", finalLate.toString()).isEqualTo("[8: 5/50.00]",
                "customer_totals' DDL, " + NEWER + " then " + LATE_OLDER + " inserted: FINAL keeps the higher version, whatever arrives last");
        e.negativeControl("tie_detector_on_the_planted_tie", tieDetected.size(), Anomaly.WRONG_VALUE,
                "the tie query finds the tie planted in g6_tie_raw");
        e.check("changelog_records_in_window", window.records()).isAtLeast(seeded,
                "customer.totals records written for the orders seeded in this test (one per order at least)");
        e.figure("customers_in_window", window.partitionsByCustomer().size());
        e.check("customers_in_more_than_one_partition", window.split().size()).isZero(
                "customers of this test's records found in several partitions of customer.totals");
        e.check("records_keyed_other_than_customer_id", window.misKeyed()).isZero("records whose key is not their customer_id");
        e.figure("whole_topic_customers_in_more_than_one_partition", whole.split().toString());
        e.figure("dup_run_summary", dup.line());
        e.figure("replay_run_summary", replay.line());
        e.check("dup_inserted", dup.inserted()).isEqualTo(2 * window.records(), "--dup inserts every record twice");
        e.check("replay_inserted", replay.inserted()).isEqualTo(window.records(), "the replay inserts every record again");
        e.negativeControl("raw_totals_versions_written_more_than_once", duplicatedVersions, Anomaly.DUPLICATE,
                "(customer, version) pairs raw_totals (MergeTree) holds more than once after the --dup run and the replay");
        e.check("raw_totals_version_ties", sinkTies.size()).isZero("(customer, version) pairs with two different values in raw_totals");
        e.table("Customer → partitions of customer.totals (records written during this test)", List.of("customer_id", "partitions"),
                window.partitionsByCustomer().entrySet().stream().map(en -> List.<Object>of(en.getKey(), en.getValue().toString())).toList());
        Reconciliation.customers(truth, Reconciliation.customerRows(ch, Reconciliation.CUSTOMER_TOTALS_FINAL))
                .record(e, "PostgreSQL vs customer_totals FINAL after the --dup run and the replay (customers written in the window)");
        FinalFromStart.rewrite(s);   // the tables whole again: this test emptied them and wrote its window only
        e.note("Same data, two insertion orders, two FINAL answers: with equal versions ReplacingMergeTree keeps the row "
                + "inserted last, so the result is defined by arrival order, not by the data — the version column must "
                + "never tie. After a --dup run (each record twice in one batch) and a replay (each record again, later), "
                + "raw_totals holds " + duplicatedVersions + " (customer, version) pairs more than once and " + sinkTies.size()
                + " of them with two different values. Every customer's records of this test lie in one partition, "
                + "keyed by customer_id. Whole topic, customers found in more than one partition: " + whole.split()
                + " (records other tests produce by hand count here too).");
    }
}
