package dev.seams.it;

import static org.awaitility.Awaitility.await;

import dev.seams.inbox.CrashPoint;
import dev.seams.inbox.CrashSwitch;
import dev.seams.inbox.InboxMode;
import dev.seams.inbox.InboxSummary;
import dev.seams.inbox.LedgerDb;
import dev.seams.report.Anomaly;
import dev.seams.report.Claim;
import dev.seams.report.ClaimEvidence;
import dev.seams.report.FaultNotObservedException;
import dev.seams.report.Project;
import dev.seams.seed.OrderSeeder;
import dev.seams.stand.FaultSchedule;
import dev.seams.stand.FaultSchedule.Shot;
import dev.seams.stand.JvmProcess;
import dev.seams.stand.KeyCounts;
import dev.seams.stand.Pipeline;
import dev.seams.stand.Reconciliation;
import dev.seams.stand.Stand;
import dev.seams.stand.StandContext;
import dev.seams.stand.Topics;
import dev.seams.stand.Totals;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.DoubleSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Exactly-once into a transactional database (claim B4; seed 001, the processed-keys pattern):
 * {@code seams inbox} runs as its own JVM over a load of {@value #LOAD_ORDERS} orders and dies by
 * SIGKILL at a named point ({@link CrashPoint}) three times, at about 10/50/90% of the load
 * ({@link FaultSchedule}); each time it is restarted, and at the end the ledger must hold every order
 * exactly once — counted per order_id against the loaded ids — and match PostgreSQL per customer,
 * with the keys table never above its bound. The same crashes with {@code --mode plain} are the
 * unprotected twin. A last test measures the limit: a redelivery that reaches further back than the
 * keys window lets duplicates through.
 *
 * <p>Every run has its own schema in database {@value LedgerDb#DATABASE} and its own consumer
 * group, positioned at the first offsets of the load, and is compared with exactly the orders it
 * seeded.
 */
@ExtendWith(StandContext.Resolver.class)
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
    private static final Pattern ROWS = Pattern.compile(" rows=(\\d+)");
    private static final Pattern SKIPPED = Pattern.compile("inbox: poll \\d+ skipped (\\d+) already-processed");
    private static final Pattern SUMMARY_SKIPPED = Pattern.compile(" skipped=(\\d+) ");
    private static final List<String> KILL_COLUMNS = List.of("kill", "target", "progress before", "progress after (committed offsets)",
            "polls", "exit status", "last line", "txid_status", "records in DB beyond the Kafka offset");

    private static Load load;

    /** The orders every B4 test consumes: seeded once, read by each test's groups from {@code start}. */
    private record Load(Map<TopicPartition, Long> start, List<Long> ids) {

        long startSum() {
            return sum(start);
        }
    }

    /** One kill: what the test measured right after the process died. */
    private record Kill(double progress, long polls, int exit, String lastLine, String txStatus, long rowsInFlight,
                        long recordsAhead, long skipped) {
    }

    /** A mode's crash-and-recover run over the load; {@code rows} are the ledger rows of the loaded orders. */
    private record CrashedRun(InboxMode mode, List<Shot<Kill>> kills, int finalExit, String summary, long skipped,
                              long keysMax, long keysSamples, long keysErrors, long keysFinal,
                              List<OrderSeeder.Order> rows, long otherRows) {

        long recordsAhead() {
            return kills.stream().mapToLong(k -> k.result().recordsAhead()).sum();
        }

        long rowsInFlight() {
            return kills.stream().mapToLong(k -> k.result().rowsInFlight()).sum();
        }

        List<List<Object>> killRows() {
            return kills.stream().map(s -> List.<Object>of(s.number(), FaultSchedule.percent(s.target()),
                    FaultSchedule.percent(s.progress()), FaultSchedule.percent(s.result().progress()), s.result().polls(),
                    s.result().exit(), s.result().lastLine(), s.result().txStatus(), s.result().recordsAhead())).toList();
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(CrashPoint.class)
    @Claim(id = "B4", title = "Exactly-once into a transactional database", exercises = {"inbox/InboxSink", "inbox/InboxStore",
            "inbox/MessageKeys", "inbox/CrashSwitch"})
    void b4ExactlyOnceIntoPostgres(CrashPoint point, ClaimEvidence e, StandContext s) {
        Load load = load(s);
        CrashedRun inbox = crashAndRecover(s, load, point, InboxMode.INBOX);
        CrashedRun plain = crashAndRecover(s, load, point, InboxMode.PLAIN);

        Map<Long, OrderSeeder.Order> truth = new TreeMap<>(s.pg().orders());
        truth.keySet().retainAll(load.ids());
        KeyCounts<Long> inboxRows = KeyCounts.of(load.ids(), inbox.rows().stream().map(OrderSeeder.Order::orderId).toList());
        KeyCounts<Long> plainRows = KeyCounts.of(load.ids(), plain.rows().stream().map(OrderSeeder.Order::orderId).toList());
        Reconciliation byOrder = Reconciliation.orders(truth, inbox.rows());
        Reconciliation byCustomer = Reconciliation.customers(perCustomer(truth.values()), perCustomer(inbox.rows()));
        Reconciliation twinByOrder = Reconciliation.orders(truth, plain.rows());

        e.figure("orders_loaded", load.ids().size());
        e.figure("commit_size", COMMIT_SIZE);
        e.figure("keep_factor", KEEP_FACTOR);
        e.figure("kills", inbox.kills().size());
        e.figure("pg_orders", truth.size());
        e.figure("final_summary", inbox.summary());
        e.check("final_exit_status", inbox.finalExit()).isZero("the last inbox run ends by itself, cleanly");
        e.check("ledger_rows", inbox.rows().size()).isEqualTo(truth.size(), "ledger rows of the loaded orders vs PG orders");
        e.check("ledger_duplicate_rows", inboxRows.excess()).isZero("rows beyond one per loaded order_id (counted per key)");
        e.figure("ledger_rows_of_other_orders", inbox.otherRows());
        e.figure("records_in_db_beyond_kafka_offset_at_kills", inbox.recordsAhead());
        e.check("redeliveries_skipped_by_keys_table", inbox.skipped()).isEqualTo(inbox.recordsAhead(),
                "redelivered records the keys table skipped = records in the DB beyond the offsets at the kills");
        e.check("keys_table_samples", inbox.keysSamples()).isPositive("keys table sizes sampled while the runs went on");
        e.figure("keys_table_failed_samples", inbox.keysErrors());
        e.check("keys_table_max_observed", inbox.keysMax()).isAtMost(KEEP, "the keys table never grows above keep-factor x commit-size");
        e.check("keys_table_final", inbox.keysFinal()).isEqualTo(KEEP, "the keys table after the whole load holds exactly its bound");
        byOrder.and(byCustomer).record(e, "PostgreSQL vs order_ledger (mode inbox), the loaded orders");

        e.figure("plain_final_summary", plain.summary());
        e.check("plain_final_exit_status", plain.finalExit()).isZero("the last plain run ends by itself, cleanly");
        e.figure("plain_ledger_rows", plain.rows().size());
        e.figure("plain_records_in_db_beyond_kafka_offset_at_kills", plain.recordsAhead());
        e.check("plain_lost_orders", plainRows.missing()).isZero("loaded orders missing from the plain twin's ledger");
        switch (point) {
            case AFTER_DB_COMMIT -> {
                e.negativeControl("plain_duplicate_rows", plainRows.excess(), Anomaly.DUPLICATE,
                        "the plain twin, killed in the same window, inserts the redelivered records again");
                e.check("plain_duplicate_orders", twinByOrder.duplicate()).isEqualTo(plain.recordsAhead(),
                        "one duplicated order per record that was in the DB beyond the Kafka offsets");
            }
            case MID_TRANSACTION, AFTER_OFFSET_COMMIT -> {
                e.check("records_in_db_beyond_kafka_offset_at_kills", inbox.recordsAhead()).isZero(
                        "no record committed in the DB beyond Kafka's offsets at a " + point + " kill");
                e.check("plain_records_in_db_beyond_kafka_offset_at_kills", plain.recordsAhead()).isZero(
                        "the same for the plain twin");
                e.check("plain_duplicate_rows", plainRows.excess()).isZero("this window cannot duplicate in either mode");
            }
        }
        e.figure("rows_in_flight_at_kills", inbox.rowsInFlight());
        e.table("Kills of the inbox sink (mode inbox)", KILL_COLUMNS, inbox.killRows());
        e.table("Kills of the unprotected twin (mode plain)", KILL_COLUMNS, plain.killRows());
        e.table("Ledger vs PostgreSQL, per order_id", List.of("mode", "ledger rows", "PG orders", "duplicate rows",
                        "orders duplicated", "orders lost", "keys table max"),
                List.of(List.of("inbox", inbox.rows().size(), truth.size(), inboxRows.excess(), byOrder.duplicate(), byOrder.lost(), inbox.keysMax()),
                        List.of("plain", plain.rows().size(), truth.size(), plainRows.excess(), twinByOrder.duplicate(), twinByOrder.lost(), "-")));
        e.note(switch (point) {
            case AFTER_DB_COMMIT -> "Killed after the database commit and before the offset commit: "
                    + inbox.recordsAhead() + " records were in the ledger beyond Kafka's committed offsets and were "
                    + "redelivered; the keys table recognised " + inbox.skipped() + " of them and the ledger has "
                    + inboxRows.excess() + " duplicate rows. The plain twin, killed the same way, inserted "
                    + plainRows.excess() + " duplicate rows.";
            case MID_TRANSACTION -> "Killed inside the open database transaction, with " + inbox.rowsInFlight() + " ledger rows "
                    + "(plus their keys and the trim) written and not committed: PostgreSQL aborted it (txid_status), nothing "
                    + "was beyond Kafka's offsets, and the restart inserted those records once — rows and keys roll back "
                    + "together, so nothing is lost. This window cannot duplicate in either mode (the plain twin writes in a "
                    + "transaction too: " + plainRows.excess() + " duplicate rows), so the twin is no negative control here; "
                    + "the keys table's detector is proven by B4[after-db-commit] and B4[window].";
            case AFTER_OFFSET_COMMIT -> "Killed after both commits: nothing is redelivered, in either mode (twin: "
                    + plainRows.excess() + " duplicate rows); the restart continues where the offsets point. The twin is "
                    + "no negative control here; the keys table's detector is proven by B4[after-db-commit] and B4[window].";
        });
    }

    @Test
    @Claim(id = "B4", variant = "window", title = "Exactly-once into a transactional database: the keys window",
            exercises = {"inbox/InboxSink", "inbox/InboxStore"})
    void b4KeysWindowLimit(ClaimEvidence e, StandContext s) {
        Load load = load(s);
        Topics topics = s.topics();
        LedgerDb db = LedgerDb.fresh(s.stand(), "b4_window", Stand.ORDERS_EVENTS);
        String group = "ds-inbox-window";
        topics.resetGroup(group, load.start());

        Finished clean = runToEnd(s, db, group, InboxMode.INBOX, "inbox-window-clean");
        Map<TopicPartition, Long> end = topics.committed(group, Stand.ORDERS_EVENTS);
        long rowsClean = db.ledgerRows(load.ids()).size();

        // 1. a redelivery within the window: each partition rewound to its oldest offset still in the keys table
        Map<TopicPartition, Long> within = new HashMap<>(end);
        for (long[] position : db.windowPositions()) {
            within.merge(new TopicPartition(Stand.ORDERS_EVENTS, (int) position[0]), position[1], Math::min);
        }
        long depthWithin = sum(end) - sum(within);
        topics.resetGroup(group, within);
        Finished inside = runToEnd(s, db, group, InboxMode.INBOX, "inbox-window-within");
        long duplicatesWithin = duplicateRows(db, load);

        // 2. a redelivery twice as deep as the window
        Map<TopicPartition, Long> beyond = new HashMap<>();
        long perPartition = (2L * KEEP + end.size() - 1) / end.size();
        end.forEach((tp, offset) -> beyond.put(tp, Math.max(load.start().get(tp), offset - perPartition)));
        long depthBeyond = sum(end) - sum(beyond);
        topics.resetGroup(group, beyond);
        Finished outside = runToEnd(s, db, group, InboxMode.INBOX, "inbox-window-beyond");
        long duplicatesBeyond = duplicateRows(db, load) - duplicatesWithin;

        e.figure("keys_window", KEEP);
        e.figure("clean_run", clean.summary());
        e.check("clean_run_exit_status", clean.exit()).isZero("the clean run ends by itself");
        e.check("ledger_rows_after_clean_run", rowsClean).isEqualTo(load.ids().size(), "one ledger row per loaded order");
        e.check("redelivery_within_window_records", depthWithin).isAtMost(KEEP, "the first redelivery fits the keys window");
        if (depthWithin == 0) {
            e.unverified("the redelivery within the window was empty: no record to recognise");
        }
        e.check("redelivery_within_window_skipped", inside.skipped()).isEqualTo(depthWithin, "every record of a redelivery within the window is skipped");
        e.anomaly(Anomaly.DUPLICATE, e.figure("redelivery_within_window_duplicates", duplicatesWithin));
        e.check("redelivery_beyond_window_records", depthBeyond).isGreaterThan(KEEP, "the second redelivery reaches past the keys window");
        e.figure("redelivery_beyond_window_skipped", outside.skipped());
        e.negativeControl("redelivery_beyond_window_duplicates", duplicatesBeyond, Anomaly.DUPLICATE,
                "a redelivery deeper than the keys window lets duplicates through (counted per order_id)");
        e.check("beyond_window_duplicates_vs_unrecognised_records", duplicatesBeyond).isEqualTo(depthBeyond - outside.skipped(),
                "duplicate rows = redelivered records the keys table did not recognise");
        e.check("beyond_window_duplicates_vs_depth_minus_window", duplicatesBeyond).isAtLeast(depthBeyond - KEEP,
                "at least depth - window duplicates get through");
        e.check("keys_table_final", db.keysCount()).isEqualTo(KEEP, "the keys table stays at its bound");
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
    }

    /** Seeds the load once per JVM and waits until Debezium published it. */
    private static synchronized Load load(StandContext s) {
        if (load == null) {
            Map<TopicPartition, Long> start = s.topics().endOffsets(Stand.ORDERS_EVENTS);
            List<OrderSeeder.Order> seeded = s.pg().seed(LOAD_ORDERS, CUSTOMERS, LOAD_SEED);
            Pipeline.awaitOrdersEvents(s.stand(), sum(start) + seeded.size());
            load = new Load(Map.copyOf(start), seeded.stream().map(OrderSeeder.Order::orderId).toList());
        }
        return load;
    }

    /**
     * Kills the sink at {@code point} at each {@link #KILL_AT} share of the load (the process is armed
     * to die at the poll that reaches it), restarting it each time, then lets a last run drain the
     * rest, and reads what the ledger holds.
     *
     * @throws FaultNotObservedException if a kill did not happen at the point (exit status, last
     *                                   line, transaction status, no row in the aborted transaction,
     *                                   or, after the DB commit, no record in the DB beyond the Kafka offset)
     */
    private static CrashedRun crashAndRecover(StandContext s, Load load, CrashPoint point, InboxMode mode) {
        String tag = point.name().toLowerCase(Locale.ROOT) + "_" + mode.cliName();
        LedgerDb db = LedgerDb.fresh(s.stand(), "b4_" + tag, Stand.ORDERS_EVENTS);
        String group = (mode == InboxMode.INBOX ? "ds-inbox-" : "ds-inbox-plain-") + point.cliName();
        Topics topics = s.topics();
        topics.resetGroup(group, load.start());
        DoubleSupplier progress = () ->
                (sum(topics.committed(group, Stand.ORDERS_EVENTS)) - load.startSum()) / (double) load.ids().size();
        try (LedgerDb.KeysSampler keys = db.sampleKeys(Duration.ofMillis(25))) {
            List<Shot<Kill>> kills = FaultSchedule.atProgress(progress, KILL_AT).drive(target -> {
                long done = sum(topics.committed(group, Stand.ORDERS_EVENTS)) - load.startSum();
                long polls = Math.max(1, (long) Math.ceil((target * load.ids().size() - done) / COMMIT_SIZE));
                String name = "inbox-" + tag.replace('_', '-') + "-kill-" + Math.round(target * 100);
                JvmProcess process = inbox(s, db, group, mode, name,
                        List.of("--crash-at", point.cliName(), "--crash-after-polls", Long.toString(polls)));
                process.start();
                int exit = process.awaitExit(RUN_TIMEOUT);
                return proveKill(db, topics, group, point, mode, progress, polls, exit, process.output());
            });
            Finished last = runToEnd(s, db, group, mode, "inbox-" + tag.replace('_', '-') + "-final");
            long skipped = last.skipped() + kills.stream().mapToLong(k -> k.result().skipped()).sum();
            List<OrderSeeder.Order> rows = db.ledgerRows(load.ids());
            return new CrashedRun(mode, kills, last.exit(), last.summary(), skipped, keys.max(), keys.samples(), keys.errors(),
                    db.keysCount(), rows, db.ledgerCount() - rows.size());
        }
    }

    /** Reads what one armed run left behind and proves it died at its point, or throws {@link FaultNotObservedException}. */
    private static Kill proveKill(LedgerDb db, Topics topics, String group, CrashPoint point, InboxMode mode,
                                  DoubleSupplier progress, long polls, int exit, String output) {
        String lastLine = lastLine(output);
        if (exit != CrashSwitch.SIGKILL_EXIT || !lastLine.startsWith(CrashSwitch.LINE_PREFIX + point.cliName() + ":")) {
            throw new FaultNotObservedException("the " + mode.cliName() + " sink armed to crash at " + point
                    + " (poll " + polls + ") exited with " + exit + ", last line: " + lastLine);
        }
        Matcher txid = TXID.matcher(lastLine);
        Matcher rows = ROWS.matcher(lastLine);
        if (!txid.find() || !rows.find()) {
            throw new FaultNotObservedException("the crash line names no transaction or rows: " + lastLine);
        }
        String status = awaitSettled(db, Long.parseLong(txid.group(1)));
        Map<TopicPartition, Long> committed = topics.committed(group, Stand.ORDERS_EVENTS);
        long ahead = db.recordsAheadOf(committed);
        long inFlight = Long.parseLong(rows.group(1));
        String expectedStatus = point == CrashPoint.MID_TRANSACTION ? "aborted" : "committed";
        if (!expectedStatus.equals(status)) {
            throw new FaultNotObservedException("the transaction of the " + point + " crash is " + status
                    + ", expected " + expectedStatus + ": " + lastLine);
        }
        if (point == CrashPoint.MID_TRANSACTION && inFlight == 0) {
            throw new FaultNotObservedException("the " + point + " crash hit a transaction with no ledger row: " + lastLine);
        }
        if (point == CrashPoint.AFTER_DB_COMMIT && ahead == 0) {
            throw new FaultNotObservedException("after the " + point + " crash no record of the DB is beyond "
                    + "the Kafka offsets " + committed + ": the window was not hit");
        }
        return new Kill(progress.getAsDouble(), polls, exit, lastLine, status, inFlight, ahead, skippedPerPoll(output));
    }

    /** A run that ended by itself: its exit status, summary line, and the records it skipped. */
    private record Finished(int exit, String summary, long skipped) {
    }

    /** Runs the sink without a crash until it has been idle for 3 s. */
    private static Finished runToEnd(StandContext s, LedgerDb db, String group, InboxMode mode, String name) {
        JvmProcess process = inbox(s, db, group, mode, name, List.of());
        process.start();
        int exit = process.awaitExit(RUN_TIMEOUT);
        String output = process.output();
        String summary = output.lines().filter(l -> l.startsWith(InboxSummary.LINE_PREFIX)).reduce((a, b) -> b)
                .orElse("no summary line, exit " + exit + ": " + lastLine(output));
        Matcher skipped = SUMMARY_SKIPPED.matcher(summary);
        return new Finished(exit, summary, skipped.find() ? Long.parseLong(skipped.group(1)) : -1);
    }

    private static JvmProcess inbox(StandContext s, LedgerDb db, String group, InboxMode mode, String name, List<String> extra) {
        List<String> args = new ArrayList<>(List.of("inbox",
                "--bootstrap-servers", s.stand().bootstrapServers(),
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

    /** @return ledger rows beyond one per loaded order_id, counted per key */
    private static long duplicateRows(LedgerDb db, Load load) {
        return KeyCounts.of(load.ids(), db.ledgerRows(load.ids()).stream().map(OrderSeeder.Order::orderId).toList()).excess();
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
