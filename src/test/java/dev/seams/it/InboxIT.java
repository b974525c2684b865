package dev.seams.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.seams.inbox.CrashPoint;
import dev.seams.inbox.CrashSwitch;
import dev.seams.inbox.InboxMode;
import dev.seams.inbox.InboxSummary;
import dev.seams.inbox.LedgerDb;
import dev.seams.report.ClaimEvidence;
import dev.seams.report.Evidence;
import dev.seams.report.EvidenceExtension;
import dev.seams.report.FaultNotObservedException;
import dev.seams.seed.OrderSeeder;
import dev.seams.stand.JvmProcess;
import dev.seams.stand.Pg;
import dev.seams.stand.Pipeline;
import dev.seams.report.Project;
import dev.seams.stand.Reconciliation;
import dev.seams.stand.Stand;
import dev.seams.stand.Topics;
import dev.seams.stand.Totals;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Exactly-once into a transactional database (claim B4; seed 001, the processed-keys pattern):
 * {@code seams inbox} runs as its own JVM over a load of {@value #LOAD_ORDERS} orders and dies by
 * SIGKILL at a named point ({@link CrashPoint}) three times, at about 10/50/90% of the load; each
 * time it is restarted, and at the end the ledger must hold every order exactly once and match
 * PostgreSQL per customer, with the keys table never above its bound. The same crashes with
 * {@code --mode plain} are the negative control. A last test measures the limit: a redelivery that
 * reaches further back than the keys window lets duplicates through.
 *
 * <p>Every run has its own schema in database {@value LedgerDb#DATABASE} and its own consumer
 * group, positioned at the first offsets of the load, and is compared with exactly the orders it
 * seeded.
 */
@ExtendWith(EvidenceExtension.class)
class InboxIT {

    private static final int LOAD_ORDERS = 5_000;
    private static final int CUSTOMERS = 5;
    private static final long LOAD_SEED = 6_001;
    private static final int COMMIT_SIZE = 100;
    private static final int KEEP_FACTOR = 3;
    private static final int KEEP = COMMIT_SIZE * KEEP_FACTOR;
    private static final double[] KILL_AT = {0.1, 0.5, 0.9};
    private static final Duration RUN_TIMEOUT = Duration.ofMinutes(3);
    private static final Pattern TXID = Pattern.compile(" txid=(\\d+)");
    private static final Pattern SKIPPED = Pattern.compile("inbox: poll \\d+ skipped (\\d+) already-processed");
    private static final Pattern SUMMARY_SKIPPED = Pattern.compile(" skipped=(\\d+) ");
    private static final List<String> KILL_COLUMNS = List.of("kill", "target", "progress (committed offsets)",
            "polls", "exit status", "last line", "txid_status", "records in DB beyond the Kafka offset");

    private static Load load;

    /** The orders every B4 test consumes: seeded once, read by each test's groups from {@code start}. */
    private record Load(Map<TopicPartition, Long> start, List<Long> ids) {

        long startSum() {
            return start.values().stream().mapToLong(Long::longValue).sum();
        }
    }

    /** One kill: what the test measured right after the process died. */
    private record Kill(double target, double progress, long polls, int exit, String lastLine, String txStatus,
                        long recordsAhead) {

        List<Object> cells(int n) {
            return List.of(n, String.format(Locale.ROOT, "%.0f%%", target * 100),
                    String.format(Locale.ROOT, "%.1f%%", progress * 100), polls, exit, lastLine, txStatus, recordsAhead);
        }
    }

    /** A mode's crash-and-recover run over the load. */
    private record CrashedRun(InboxMode mode, List<Kill> kills, int finalExit, String summary, long skipped,
                              long keysMax, long keysSamples, long keysErrors, long keysFinal,
                              List<OrderSeeder.Order> rows) {

        long recordsAhead() {
            return kills.stream().mapToLong(Kill::recordsAhead).sum();
        }

        long extraRows() {
            return InboxIT.extraRows(rows);
        }

        List<List<Object>> killRows() {
            List<List<Object>> cells = new ArrayList<>();
            for (int i = 0; i < kills.size(); i++) {
                cells.add(kills.get(i).cells(i + 1));
            }
            return cells;
        }
    }

    @ParameterizedTest(name = "B4 Exactly-once into PostgreSQL, crash {0}")
    @EnumSource(CrashPoint.class)
    void b4ExactlyOnceIntoPostgres(CrashPoint point) {
        ClaimEvidence e = Evidence.claim("B4[" + point.cliName() + "]", "Exactly-once into a transactional database");
        Stand stand = Stand.get();
        Load load = load(stand);
        CrashedRun inbox = crashAndRecover(stand, load, point, InboxMode.INBOX);
        CrashedRun plain = crashAndRecover(stand, load, point, InboxMode.PLAIN);

        Map<Long, OrderSeeder.Order> truth = pgOrders(stand, load.ids());
        Reconciliation byOrder = Reconciliation.orders(truth, inbox.rows());
        Reconciliation byCustomer = Reconciliation.customers(perCustomer(truth.values()), perCustomer(inbox.rows()));
        Reconciliation twinByOrder = Reconciliation.orders(truth, plain.rows());
        boolean redeliveryWindow = point == CrashPoint.AFTER_DB_COMMIT;

        e.figure("orders_loaded", LOAD_ORDERS);
        e.figure("commit_size", COMMIT_SIZE);
        e.figure("keep_factor", KEEP_FACTOR);
        e.figure("kills", inbox.kills().size());
        e.figure("pg_orders", (long) truth.size());
        e.figure("ledger_rows", (long) inbox.rows().size());
        e.expected("ledger_rows", (long) truth.size());
        e.figure("ledger_duplicate_rows", inbox.extraRows());
        e.expected("ledger_duplicate_rows", 0L);
        e.figure("records_in_db_beyond_kafka_offset_at_kills", inbox.recordsAhead());
        e.figure("redeliveries_skipped_by_keys_table", inbox.skipped());
        e.expected("redeliveries_skipped_by_keys_table", inbox.recordsAhead());
        e.figure("keys_table_max_observed", inbox.keysMax());
        e.expected("keys_table_max_observed", "<= " + KEEP);
        e.figure("keys_table_samples", inbox.keysSamples());
        e.figure("keys_table_failed_samples", inbox.keysErrors());
        e.figure("keys_table_final", inbox.keysFinal());
        e.expected("keys_table_final", (long) KEEP);
        e.figure("final_summary", inbox.summary());
        e.figure("plain_ledger_rows", (long) plain.rows().size());
        e.figure("plain_records_in_db_beyond_kafka_offset_at_kills", plain.recordsAhead());
        e.figure("plain_duplicate_rows", plain.extraRows());
        e.expected("plain_duplicate_rows", redeliveryWindow ? plain.recordsAhead() : 0L);
        e.figure("plain_final_summary", plain.summary());
        e.table("Kills of the inbox sink (mode inbox)", KILL_COLUMNS, inbox.killRows());
        e.table("Kills of the negative control (mode plain)", KILL_COLUMNS, plain.killRows());
        byOrder.and(byCustomer).record(e, "PostgreSQL vs order_ledger (mode inbox), the loaded orders");
        e.table("Ledger vs PostgreSQL", List.of("mode", "ledger rows", "PG orders", "duplicate rows", "orders duplicated",
                        "orders lost", "keys table max"),
                List.of(List.of("inbox", inbox.rows().size(), truth.size(), inbox.extraRows(), byOrder.duplicate(),
                                byOrder.lost(), inbox.keysMax()),
                        List.of("plain", plain.rows().size(), truth.size(), plain.extraRows(), twinByOrder.duplicate(),
                                twinByOrder.lost(), "-")));
        e.note(switch (point) {
            case AFTER_DB_COMMIT -> "Killed after the database commit and before the offset commit: "
                    + inbox.recordsAhead() + " records were in the ledger beyond Kafka's committed offsets and were "
                    + "redelivered; the keys table recognised " + inbox.skipped() + " of them and the ledger has "
                    + inbox.extraRows() + " duplicate rows. The plain twin, killed the same way, inserted "
                    + plain.extraRows() + " duplicate rows.";
            case MID_TRANSACTION -> "Killed inside the open database transaction (ledger rows, keys and trim written, "
                    + "not committed): PostgreSQL aborted it (txid_status), nothing was beyond Kafka's offsets, and the "
                    + "restart inserted those records once — rows and keys roll back together, so nothing is lost. This "
                    + "window cannot duplicate in either mode: the twin shows " + plain.extraRows() + " duplicate rows.";
            case AFTER_OFFSET_COMMIT -> "Killed after both commits: nothing is redelivered, in either mode (twin: "
                    + plain.extraRows() + " duplicate rows); the restart continues where the offsets point.";
        });

        assertThat(inbox.finalExit()).as("the last inbox run ends cleanly: %s", inbox.summary()).isZero();
        assertThat(plain.finalExit()).as("the last plain run ends cleanly: %s", plain.summary()).isZero();
        assertThat(inbox.extraRows()).as("duplicate ledger rows, mode inbox").isZero();
        assertThat(byOrder.matches()).as("every loaded order exactly once in the ledger: %s", byOrder.describe()).isTrue();
        assertThat(byCustomer.matches()).as("ledger vs PG per customer: %s", byCustomer.describe()).isTrue();
        assertThat(inbox.keysSamples()).as("keys table samples taken").isPositive();
        assertThat(inbox.keysMax()).as("largest keys table seen (%d samples)", inbox.keysSamples()).isLessThanOrEqualTo(KEEP);
        assertThat(inbox.keysFinal()).as("keys table after %d orders", LOAD_ORDERS).isEqualTo(KEEP);
        assertThat(inbox.skipped()).as("redelivered records the keys table skipped = records in the DB beyond the offsets")
                .isEqualTo(inbox.recordsAhead());
        assertThat(twinByOrder.lost()).as("orders lost by the plain twin").isZero();
        if (redeliveryWindow) {
            assertThat(plain.extraRows()).as("negative control: the plain twin inserts the redelivered records again")
                    .isPositive().isEqualTo(plain.recordsAhead());
        } else {
            assertThat(inbox.recordsAhead()).as("records in the DB beyond the Kafka offset at a %s kill", point).isZero();
            assertThat(plain.recordsAhead()).as("plain: records in the DB beyond the Kafka offset at a %s kill", point).isZero();
            assertThat(plain.extraRows()).as("the plain twin has no duplicates in the %s window either", point).isZero();
        }
    }

    @Test
    @DisplayName("B4 limit: a redelivery deeper than the keys window lets duplicates through")
    void b4KeysWindowLimit() {
        ClaimEvidence e = Evidence.claim("B4[window]", "Exactly-once into a transactional database: the keys window");
        Stand stand = Stand.get();
        Load load = load(stand);
        Topics topics = Topics.of(stand);
        LedgerDb db = LedgerDb.fresh(stand, "b4_window", Stand.ORDERS_EVENTS);
        String group = "ds-inbox-window";
        topics.resetGroup(group, load.start());

        Finished clean = runToEnd(stand, db, group, InboxMode.INBOX, "inbox-window-clean");
        Map<TopicPartition, Long> end = committed(stand, group);
        long rowsClean = db.ledgerRows(load.ids()).size();

        // 1. a redelivery within the window: each partition rewound to its oldest offset still in the keys table
        Map<TopicPartition, Long> within = new HashMap<>(end);
        for (long[] position : db.windowPositions()) {
            within.merge(new TopicPartition(Stand.ORDERS_EVENTS, (int) position[0]), position[1], Math::min);
        }
        long depthWithin = sum(end) - sum(within);
        topics.resetGroup(group, within);
        Finished inside = runToEnd(stand, db, group, InboxMode.INBOX, "inbox-window-within");
        long duplicatesWithin = extraRows(db.ledgerRows(load.ids()));

        // 2. a redelivery twice as deep as the window
        Map<TopicPartition, Long> beyond = new HashMap<>();
        long perPartition = (2L * KEEP + end.size() - 1) / end.size();
        end.forEach((tp, offset) -> beyond.put(tp, Math.max(load.start().get(tp), offset - perPartition)));
        long depthBeyond = sum(end) - sum(beyond);
        topics.resetGroup(group, beyond);
        Finished outside = runToEnd(stand, db, group, InboxMode.INBOX, "inbox-window-beyond");
        List<OrderSeeder.Order> rows = db.ledgerRows(load.ids());
        long duplicatesBeyond = extraRows(rows) - duplicatesWithin;
        long keysFinal = db.keysCount();

        e.figure("keys_window", KEEP);
        e.figure("clean_run", clean.summary());
        e.figure("ledger_rows_after_clean_run", rowsClean);
        e.expected("ledger_rows_after_clean_run", (long) LOAD_ORDERS);
        e.figure("redelivery_within_window_records", depthWithin);
        e.figure("redelivery_within_window_skipped", inside.skipped());
        e.expected("redelivery_within_window_skipped", depthWithin);
        e.figure("redelivery_within_window_duplicates", duplicatesWithin);
        e.expected("redelivery_within_window_duplicates", 0L);
        e.figure("redelivery_beyond_window_records", depthBeyond);
        e.figure("redelivery_beyond_window_skipped", outside.skipped());
        e.figure("redelivery_beyond_window_duplicates", duplicatesBeyond);
        e.expected("redelivery_beyond_window_duplicates", ">= " + (depthBeyond - KEEP));
        e.figure("keys_table_final", keysFinal);
        e.anomaly("duplicate", duplicatesWithin);
        e.table("Redelivery depth vs the keys window (" + KEEP + " keys = keep-factor " + KEEP_FACTOR + " x commit-size "
                        + COMMIT_SIZE + ")", List.of("redelivery", "records redelivered", "skipped by the keys table",
                        "duplicate rows let through"),
                List.of(List.of("within the window", depthWithin, inside.skipped(), duplicatesWithin),
                        List.of("twice the window", depthBeyond, outside.skipped(), duplicatesBeyond)));
        e.note("The keys table only remembers the newest " + KEEP + " keys. A redelivery of " + depthWithin
                + " records that stays inside them is skipped completely; one of " + depthBeyond + " records lets "
                + duplicatesBeyond + " duplicate rows through: the records older than the window are new to it, and "
                + "their keys push the window's keys out before the newer redelivered records arrive. The window "
                + "(keep-factor x commit-size) must exceed the largest redelivery the deployment can produce.");

        assertThat(clean.exit()).as("clean run: %s", clean.summary()).isZero();
        assertThat(rowsClean).as("ledger rows after the clean run").isEqualTo(LOAD_ORDERS);
        assertThat(depthWithin).as("the within-window redelivery is not empty and fits the window")
                .isPositive().isLessThanOrEqualTo(KEEP);
        assertThat(inside.skipped()).as("every record of a redelivery within the window is skipped").isEqualTo(depthWithin);
        assertThat(duplicatesWithin).as("duplicates after a redelivery within the window").isZero();
        assertThat(depthBeyond).as("the deep redelivery exceeds the window").isGreaterThan(KEEP);
        assertThat(duplicatesBeyond).as("duplicate rows = redelivered records the keys table did not recognise")
                .isEqualTo(depthBeyond - outside.skipped());
        assertThat(duplicatesBeyond).as("a redelivery deeper than the window lets at least depth - window duplicates through")
                .isGreaterThanOrEqualTo(depthBeyond - KEEP);
        assertThat(keysFinal).as("keys table stays at its bound").isEqualTo(KEEP);
    }

    /** Seeds the load once per JVM and waits until Debezium published it. */
    private static synchronized Load load(Stand stand) {
        if (load == null) {
            Topics topics = Topics.of(stand);
            Map<TopicPartition, Long> start = topics.endOffsets(Stand.ORDERS_EVENTS);
            long before = sum(start);
            List<OrderSeeder.Order> seeded = Pg.of(stand).seed(LOAD_ORDERS, CUSTOMERS, LOAD_SEED);
            Pipeline.awaitOrdersEvents(stand, before + LOAD_ORDERS);
            load = new Load(Map.copyOf(start), seeded.stream().map(OrderSeeder.Order::orderId).toList());
        }
        return load;
    }

    /**
     * Kills the sink at {@code point} once per {@link #KILL_AT} target, restarting it each time, then
     * lets a last run drain the rest, and reads what the ledger holds.
     *
     * @throws FaultNotObservedException if a kill did not happen at the point (exit status, last
     *                                   line, transaction status, or, after the DB commit, no record
     *                                   in the DB beyond the Kafka offset)
     */
    private static CrashedRun crashAndRecover(Stand stand, Load load, CrashPoint point, InboxMode mode) {
        String tag = point.name().toLowerCase(Locale.ROOT) + "_" + mode.cliName();
        LedgerDb db = LedgerDb.fresh(stand, "b4_" + tag, Stand.ORDERS_EVENTS);
        String group = (mode == InboxMode.INBOX ? "ds-inbox-" : "ds-inbox-plain-") + point.cliName();
        Topics.of(stand).resetGroup(group, load.start());
        List<Kill> kills = new ArrayList<>();
        long skipped = 0;
        Finished last;
        long keysMax;
        long keysSamples;
        long keysErrors;
        try (LedgerDb.KeysSampler keys = db.sampleKeys(Duration.ofMillis(25))) {
            for (double target : KILL_AT) {
                long done = sum(committed(stand, group)) - load.startSum();
                long polls = Math.max(1, (long) Math.ceil((target * LOAD_ORDERS - done) / COMMIT_SIZE));
                JvmProcess process = inbox(stand, db, group, mode, "inbox-" + tag.replace('_', '-') + "-kill-"
                        + (kills.size() + 1), List.of("--crash-at", point.cliName(), "--crash-after-polls", Long.toString(polls)));
                process.start();
                int exit = process.awaitExit(RUN_TIMEOUT);
                String output = process.output();
                skipped += skippedPerPoll(output);
                String lastLine = lastLine(output);
                if (exit != CrashSwitch.SIGKILL_EXIT || !lastLine.startsWith(CrashSwitch.LINE_PREFIX + point.cliName() + ":")) {
                    throw new FaultNotObservedException("the " + mode.cliName() + " sink armed to crash at " + point
                            + " (poll " + polls + ") exited with " + exit + ", last line: " + lastLine);
                }
                Matcher txid = TXID.matcher(lastLine);
                if (!txid.find()) {
                    throw new FaultNotObservedException("the crash line names no transaction: " + lastLine);
                }
                String status = awaitSettled(db, Long.parseLong(txid.group(1)));
                Map<TopicPartition, Long> committed = committed(stand, group);
                long ahead = db.recordsAheadOf(committed);
                kills.add(new Kill(target, (sum(committed) - load.startSum()) / (double) LOAD_ORDERS, polls, exit,
                        lastLine, status, ahead));
                String expectedStatus = point == CrashPoint.MID_TRANSACTION ? "aborted" : "committed";
                if (!expectedStatus.equals(status)) {
                    throw new FaultNotObservedException("the transaction of the " + point + " crash is " + status
                            + ", expected " + expectedStatus + ": " + lastLine);
                }
                if (point == CrashPoint.AFTER_DB_COMMIT && ahead == 0) {
                    throw new FaultNotObservedException("after the " + point + " crash no record of the DB is beyond "
                            + "the Kafka offsets " + committed + ": the window was not hit");
                }
            }
            last = runToEnd(stand, db, group, mode, "inbox-" + tag.replace('_', '-') + "-final");
            skipped += last.skipped();
            keysMax = keys.max();
            keysSamples = keys.samples();
            keysErrors = keys.errors();
        }
        return new CrashedRun(mode, kills, last.exit(), last.summary(), skipped, keysMax, keysSamples, keysErrors, db.keysCount(),
                db.ledgerRows(load.ids()));
    }

    /** A run that ended by itself: its exit status, summary line, and the records it skipped. */
    private record Finished(int exit, String summary, long skipped) {
    }

    /** Runs the sink without a crash until it has been idle for 3 s. */
    private static Finished runToEnd(Stand stand, LedgerDb db, String group, InboxMode mode, String name) {
        JvmProcess process = inbox(stand, db, group, mode, name, List.of());
        process.start();
        int exit = process.awaitExit(RUN_TIMEOUT);
        String output = process.output();
        String summary = output.lines().filter(l -> l.startsWith(InboxSummary.LINE_PREFIX)).reduce((a, b) -> b)
                .orElse("no summary line, exit " + exit + ": " + lastLine(output));
        Matcher skipped = SUMMARY_SKIPPED.matcher(summary);
        return new Finished(exit, summary, skipped.find() ? Long.parseLong(skipped.group(1)) : -1);
    }

    private static JvmProcess inbox(Stand stand, LedgerDb db, String group, InboxMode mode, String name, List<String> extra) {
        List<String> args = new ArrayList<>(List.of("inbox",
                "--bootstrap-servers", stand.bootstrapServers(),
                "--jdbc-url", db.jdbcUrl(), "--user", db.user(), "--password", db.password(),
                "--group", group, "--instance-id", group + "-1", "--session-timeout", "10s",
                "--mode", mode.cliName(),
                "--commit-size", Integer.toString(COMMIT_SIZE), "--keep-factor", Integer.toString(KEEP_FACTOR),
                "--until-idle", "3s"));
        args.addAll(extra);
        return new JvmProcess(name, "dev.seams.cli.SeamsCli", args, Project.root().resolve("target/stand-logs"));
    }

    /** Waits until PostgreSQL has ended the transaction (a killed client's open transaction is aborted). */
    private static String awaitSettled(LedgerDb db, long txid) {
        return await("txid " + txid + " ended").atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofMillis(100))
                .until(() -> db.txidStatus(txid), status -> !"in progress".equals(status));
    }

    private static Map<TopicPartition, Long> committed(Stand stand, String group) {
        try {
            Map<TopicPartition, Long> offsets = new TreeMap<>(java.util.Comparator.comparingInt(TopicPartition::partition));
            for (Map.Entry<TopicPartition, OffsetAndMetadata> entry
                    : stand.admin().listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get().entrySet()) {
                if (entry.getKey().topic().equals(Stand.ORDERS_EVENTS) && entry.getValue() != null) {
                    offsets.put(entry.getKey(), entry.getValue().offset());
                }
            }
            return offsets;
        } catch (InterruptedException | ExecutionException e) {
            throw new IllegalStateException("cannot read the committed offsets of " + group, e);
        }
    }

    private static Map<Long, OrderSeeder.Order> pgOrders(Stand stand, Collection<Long> ids) {
        Map<Long, OrderSeeder.Order> orders = new TreeMap<>();
        try (Connection c = stand.pg(); PreparedStatement st = c.prepareStatement(
                "SELECT order_id, customer_id, amount FROM orders WHERE order_id = ANY(?)")) {
            st.setArray(1, c.createArrayOf("int8", ids.toArray()));
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    orders.put(rs.getLong(1), new OrderSeeder.Order(rs.getLong(1), rs.getInt(2), rs.getBigDecimal(3)));
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read the loaded orders", e);
        }
        return orders;
    }

    /** @return customer id → (orders, total) of the given order rows (duplicates counted) */
    private static Map<Integer, Totals> perCustomer(Collection<OrderSeeder.Order> orders) {
        Map<Integer, Long> counts = new TreeMap<>();
        Map<Integer, BigDecimal> totals = new TreeMap<>();
        for (OrderSeeder.Order o : orders) {
            counts.merge(o.customerId(), 1L, Long::sum);
            totals.merge(o.customerId(), o.amount(), BigDecimal::add);
        }
        Map<Integer, Totals> result = new TreeMap<>();
        counts.forEach((c, n) -> result.put(c, new Totals(n, totals.get(c))));
        return result;
    }

    private static long extraRows(List<OrderSeeder.Order> rows) {
        return rows.size() - new HashSet<>(rows.stream().map(OrderSeeder.Order::orderId).toList()).size();
    }

    private static long skippedPerPoll(String output) {
        long skipped = 0;
        Matcher m = SKIPPED.matcher(output);
        while (m.find()) {
            skipped += Long.parseLong(m.group(1));
        }
        return skipped;
    }

    private static String lastLine(String output) {
        return output.lines().filter(l -> !l.isBlank()).reduce((a, b) -> b).orElse("");
    }

    private static long sum(Map<TopicPartition, Long> offsets) {
        return offsets.values().stream().mapToLong(Long::longValue).sum();
    }
}
