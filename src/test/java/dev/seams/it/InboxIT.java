package dev.seams.it;

import dev.seams.check.KeyCounts;
import dev.seams.check.Reconciliation;
import dev.seams.fixture.StandContext;
import dev.seams.inbox.CrashPoint;
import dev.seams.inbox.InboxMode;
import dev.seams.inbox.KeysSampler;
import dev.seams.inbox.LedgerDb;
import dev.seams.it.InboxCrashes.Recovery;
import dev.seams.load.OrderChanges.Change;
import dev.seams.load.OrderChanges;
import dev.seams.load.OrderLoad;
import dev.seams.report.Anomaly;
import dev.seams.report.Claim;
import dev.seams.report.ClaimEvidence;
import dev.seams.stand.InboxProcess.Run;
import dev.seams.stand.InboxProcess;
import dev.seams.stand.Stand;
import dev.seams.truth.RunNames;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Exactly-once into a transactional database (claim B4; seed 001, the processed-keys pattern, with
 * the offsets stored in the same transaction). {@code seams inbox} runs as its own JVM over a
 * deterministic mixed load ({@link OrderLoad.Mix#REAL}: inserts, amount updates, moves, deletes),
 * applied once per JVM; every test reads only that load — from the offsets taken before it, the
 * orders above the id watermark taken before it ({@link OrderChanges}) — whatever other claims left
 * in {@code orders.events}. "Applied once" is counted per change (order id, source LSN, op) against
 * the load's changes as {@code orders.events} holds them, and the ledger's state is reconciled with
 * PostgreSQL per order and per customer ({@link Reconciliation}).
 *
 * <ul>
 *   <li>{@code B4[<window>]}: SIGKILL at each {@link CrashPoint}, at 10/50/90 % of the load, each
 *       crash proven; after the DB commit the unprotected twin ({@code --mode plain}) is the negative control;</li>
 *   <li>{@code B4[upstream re-send]}: the newest changes by source LSN, as many as the keys window holds,
 *       re-sent at new offsets (what Debezium re-sends after a Connect crash) — all skipped; the twin
 *       duplicates them;</li>
 *   <li>{@code B4[window]}: a Kafka rewind of the whole load applies nothing; a re-send twice as deep as
 *       the keys window writes exactly the changes older than the window again (the documented limit);</li>
 *   <li>{@code B4[order-id key]}: the seed's order-id key swallows updates (negative control).</li>
 * </ul>
 * Re-sends go to a byte-for-byte copy of the load in a topic of the test's own, so ds-streams and
 * the claims that read {@code orders.events} never see them.
 */
@ExtendWith(StandContext.Resolver.class)
class InboxIT {

    private static final int LOAD_CHANGES = 3_000;
    private static final int CUSTOMERS = 5;
    private static final long LOAD_SEED = 4_004;
    private static final int LOAD_BATCH = 50;
    private static final int COMMIT_SIZE = 100;
    private static final int KEEP_FACTOR = 3;
    private static final int KEEP = COMMIT_SIZE * KEEP_FACTOR;
    private static final double[] CRASH_AT = {0.1, 0.5, 0.9};

    private static final NavigableSet<Long> EMPTY = Collections.emptyNavigableSet();

    private static OrderChanges load;
    private static String loadMix;

    @ParameterizedTest(name = "{0}")
    @EnumSource(CrashPoint.class)
    @Claim(id = "B4", title = "Exactly-once into a transactional database: SIGKILL in the window, 3 times, mixed load",
            exercises = {"inbox/InboxSink", "inbox/PollWriter", "inbox/OffsetStore", "inbox/InboxStore", "inbox/CrashSwitch"})
    void b4CrashWindows(CrashPoint point, ClaimEvidence e, StandContext s) {
        OrderChanges load = load(s, e);
        Recovery inbox = InboxCrashes.crashAndRecover(s, load, point, InboxMode.INBOX, COMMIT_SIZE, KEEP_FACTOR, CRASH_AT);

        recordCrashes(e, "inbox", inbox);
        e.figure("final_summary", inbox.last().summary());
        e.check("final_exit_status", inbox.last().exit()).isZero("the last run ends by itself, cleanly");
        recordAppliedOnce(e, s, load, inbox.db(), "order_ledger (mode inbox)");
        recordKeysBound(e, inbox.keysMax(), inbox.keysSamples());
        e.check("records_polled_below_stored_offsets", inbox.belowStoredOffsets()).isZero(
                "no run fetched a record the database already had: each resumed at its stored offsets");
        e.check("changes_skipped_as_processed", inbox.resentSkipped()).isZero(
                "nothing was re-sent here: a change taken for a repeat would be a swallowed update");
        e.check("restarts_resumed_at_db_offsets", inbox.restartsAtStoredOffsets()).isEqualTo(inbox.restarts().size(),
                "every restart sought each partition to the offset the database stored, not Kafka's");
        e.table("Restarts: where the database's offsets stood and where the restart resumed",
                List.of("restart", "stored in the DB", "resumed at (logged)"), IntStream.range(0, inbox.restarts().size())
                        .mapToObj(i -> List.<Object>of(i + 1, inbox.restarts().get(i).stored(), inbox.restarts().get(i).resumedAt())).toList());
        switch (point) {
            case AFTER_DB_COMMIT -> afterDbCommitTwin(e, s, load, inbox);
            case MID_TRANSACTION -> {
                e.check("records_beyond_kafka_offsets_at_crashes", inbox.beyondKafka()).isZero(
                        "the killed transaction rolled back: nothing of it is in the ledger");
                e.note("Killed inside the open database transaction, its ledger rows, keys and offsets written and not "
                        + "committed (the crash line's rows=, txid_status aborted): PostgreSQL rolled it back and the restart "
                        + "applied the poll once. No negative control here: the at-least-once twin writes in a transaction "
                        + "too and cannot duplicate in this window; the detectors are proven by B4[after-db-commit], "
                        + "B4[upstream re-send], B4[window] and B4[order-id key].");
            }
            case AFTER_OFFSET_COMMIT -> {
                e.check("records_beyond_kafka_offsets_at_crashes", inbox.beyondKafka()).isZero(
                        "both commits landed before the kill (the proof of this window)");
                e.note("Killed after both commits: Kafka's offsets equal the database's (nothing beyond them, proven per "
                        + "crash), the restart continues where both point. No negative control here: no at-least-once sink "
                        + "duplicates in this window; the detectors are proven by the other B4 entries.");
            }
        }
    }

    /** After the DB commit: Kafka is behind the database; the inbox resumes at the database's offsets, the twin does not. */
    private static void afterDbCommitTwin(ClaimEvidence e, StandContext s, OrderChanges load, Recovery inbox) {
        e.check("records_beyond_kafka_offsets_at_crashes", inbox.beyondKafka()).isPositive(
                "Kafka's committed offsets were behind the database's at the crashes (proven per crash)");
        Recovery plain = InboxCrashes.crashAndRecover(s, load, CrashPoint.AFTER_DB_COMMIT, InboxMode.PLAIN, COMMIT_SIZE,
                KEEP_FACTOR, CRASH_AT);
        recordCrashes(e, "plain", plain);
        KeyCounts<Change> twin = KeyCounts.of(load.changes(), plain.db().changes(load.orderIds()));
        e.figure("plain_final_summary", plain.last().summary());
        e.figure("plain_records_beyond_kafka_offsets_at_crashes", plain.beyondKafka());
        e.negativeControl("plain_duplicate_changes", twin.excess(), Anomaly.DUPLICATE,
                "the at-least-once twin, killed in the same window at the same points, applies those records again");
        e.check("plain_duplicates_vs_records_beyond_kafka", twin.excess()).isEqualTo(plain.beyondKafka(),
                "one duplicate change per record that was in its ledger beyond Kafka's committed offsets at a crash");
        e.check("plain_lost_changes", twin.missing()).isZero("the twin loses nothing either");
        e.note("Killed after the database commit and before the Kafka offset commit: " + inbox.beyondKafka() + " records "
                + "were in the ledger beyond Kafka's committed offsets at the three crashes. Each restart sought every "
                + "partition to the offsets stored in the same transaction as the ledger rows (restarts table), fetched "
                + inbox.belowStoredOffsets() + " records below them and wrote no change twice. The plain twin, killed at "
                + "the same points, resumed at Kafka's offsets and wrote " + twin.excess() + " duplicate changes.");
    }

    @Test
    @Claim(id = "B4", variant = "upstream re-send", title = "Exactly-once into a transactional database: changes re-sent at new offsets",
            exercises = {"inbox/PollWriter", "inbox/InboxStore", "inbox/ChangeKeys"})
    void b4UpstreamResend(ClaimEvidence e, StandContext s) {
        try (OnCopy c = OnCopy.cleanRun(s, e, "resend")) {
            Map<Integer, NavigableSet<Long>> window = c.db().windowPositions();
            List<ConsumerRecord<byte[], byte[]>> resent = c.copy().newest(KEEP);   // what Debezium re-sends: a suffix by LSN
            long outside = resent.stream().filter(r -> !window.getOrDefault(r.partition(), EMPTY).contains(r.offset())).count();
            OrderChanges.resend(s.stand(), c.copy().topic(), resent);
            Run after = c.inbox().run("inbox-resend-within");
            LedgerDb twinDb = LedgerDb.fresh(s.stand(), "b4_resend_plain", c.copy().topic());
            Run twin = process(s, twinDb, c.copy().topic(), "ds-inbox-resend-plain", InboxMode.PLAIN, false).run("inbox-resend-plain");
            long twinDuplicates = KeyCounts.of(c.copy().changes(), twinDb.changes(c.copy().orderIds())).excess();

            e.check("resent_records", resent.size()).isEqualTo(KEEP, "the newest keep-factor x commit-size changes by source LSN re-sent");
            e.check("resent_records_outside_window", outside).isZero("the keys table holds the keys of exactly those changes");
            e.figure("resend_run", after.summary());
            e.check("resend_run_exit_status", after.exit()).isZero("the run ends by itself");
            e.check("resend_run_records", after.count("records")).isEqualTo(resent.size(), "the re-sent records were read, at new offsets");
            e.check("resend_run_skipped", after.count("skipped")).isEqualTo(resent.size(), "every re-sent change recognised by its key and skipped");
            e.check("resend_run_inserted", after.count("inserted")).isZero("no ledger row written for a re-sent change");
            recordAppliedOnce(e, s, c.copy(), c.db(), "order_ledger after the re-send");
            c.recordKeysBound(e);
            e.figure("plain_twin_run", twin.summary());
            e.negativeControl("plain_duplicate_changes", twinDuplicates, Anomaly.DUPLICATE,
                    "the plain twin reading the same topic writes the re-sent changes again");
            e.check("plain_duplicates_vs_resent", twinDuplicates).isEqualTo(resent.size(), "one duplicate change per re-sent record");
            e.note("Debezium re-sends changes at new offsets after a Connect crash (B3); stored offsets cannot tell them from "
                    + "new changes. Debezium re-sends a suffix of the changes by source LSN: the newest " + resent.size()
                    + " changes by LSN (as many as the keys window holds) were re-sent, byte for byte, into a copy of the "
                    + "load whichever partitions they were in: the keys table recognised " + after.count("skipped")
                    + " of them; the plain twin wrote " + twinDuplicates + " again.");
        }
    }

    @Test
    @Claim(id = "B4", variant = "window", title = "Exactly-once into a transactional database: the keys window bounds re-sends, not redeliveries",
            exercises = {"inbox/InboxSink", "inbox/OffsetStore", "inbox/InboxStore"})
    void b4KeysWindow(ClaimEvidence e, StandContext s) {
        try (OnCopy c = OnCopy.cleanRun(s, e, "window")) {
            s.topics().resetGroup(c.inbox().group(), c.copy().start());   // a Kafka redelivery of the whole load
            Run rewound = c.inbox().run("inbox-window-kafka-rewind");
            long duplicatesAfterRewind = KeyCounts.of(c.copy().changes(), c.db().changes(c.copy().orderIds())).excess();
            List<ConsumerRecord<byte[], byte[]>> deep = c.copy().newest(2 * KEEP);   // an upstream re-send twice as deep as the window
            OrderChanges.resend(s.stand(), c.copy().topic(), deep);
            Run after = c.inbox().run("inbox-window-deep-resend");
            KeyCounts<Change> changes = KeyCounts.of(c.copy().changes(), c.db().changes(c.copy().orderIds()));
            long duplicates = changes.excess() - duplicatesAfterRewind;

            e.check("kafka_rewind_depth", c.copy().size()).isGreaterThan(KEEP, "the group's Kafka offsets rewound to the load's start, far deeper than the window");
            e.figure("kafka_rewind_run", rewound.summary());
            e.check("kafka_rewind_records_read", rewound.count("records")).isZero("the restart resumed at the database's offsets, not Kafka's");
            e.anomaly(Anomaly.DUPLICATE, e.figure("kafka_rewind_duplicate_changes", duplicatesAfterRewind));
            e.check("deep_resend_records", deep.size()).isGreaterThan(KEEP, "the upstream re-send reaches past the keys window");
            e.figure("deep_resend_run", after.summary());
            e.negativeControl("deep_resend_duplicate_changes", duplicates, Anomaly.DUPLICATE,
                    "a re-send deeper than the keys window lets duplicates through (the documented limit)");
            e.check("deep_resend_duplicates_vs_unrecognised", duplicates).isEqualTo(deep.size() - after.count("skipped"),
                    "duplicate changes = re-sent changes the keys table did not recognise");
            e.check("deep_resend_duplicates_vs_depth_minus_window", duplicates).isEqualTo(deep.size() - KEEP,
                    "only the re-sent changes older than the window's are written again; the window's own are recognised");
            e.check("deep_resend_lost_changes", changes.missing()).isZero("nothing lost");
            recordState(e, s, c.copy(), c.db(), "order_ledger_state after the deep re-send (duplicates carry their LSN)");
            c.recordKeysBound(e);
            e.table("Depth vs the keys window (" + KEEP + " keys = keep-factor " + KEEP_FACTOR + " x commit-size " + COMMIT_SIZE + ")",
                    List.of("redelivery", "records", "skipped", "duplicate changes written"),
                    List.of(List.of("Kafka rewind to the load's start", c.copy().size(), rewound.count("records"), duplicatesAfterRewind),
                            List.of("upstream re-send, twice the window", deep.size(), after.count("skipped"), duplicates)));
            e.note("Kafka redeliveries are excluded by the offsets stored in the database whatever their depth: rewinding the "
                    + "group's Kafka offsets by the whole load (" + c.copy().size() + " records) made the restart read nothing. "
                    + "An upstream re-send at new offsets is caught only inside the keys window: of " + deep.size() + " re-sent "
                    + "changes (the newest by LSN, as Debezium re-sends), " + after.count("skipped") + " were recognised and "
                    + duplicates + " — those older than the window's newest " + KEEP + " — written again. The duplicates "
                    + "carry their LSN, so the per-order state stays equal to PG; size --keep-factor for the deepest re-send "
                    + "possible.");
        }
    }

    /**
     * A byte-for-byte copy of the load in a topic of its own ({@code b4.<name>.orders.events}), a fresh
     * target, the inbox sink on it after one clean run over the copy, and the keys table sampled until closed.
     */
    private record OnCopy(OrderChanges copy, LedgerDb db, InboxProcess inbox, KeysSampler keys) implements AutoCloseable {

        static OnCopy cleanRun(StandContext s, ClaimEvidence e, String name) {
            OrderChanges copy = load(s, e).copyTo(s.stand(), "b4." + name + ".orders.events");
            LedgerDb db = LedgerDb.fresh(s.stand(), "b4_" + name, copy.topic());
            OnCopy c = new OnCopy(copy, db, process(s, db, copy.topic(), "ds-inbox-" + name, InboxMode.INBOX, false),
                    db.sampleKeys(InboxCrashes.KEYS_SAMPLING));
            Run clean = c.inbox().run("inbox-" + name + "-clean");
            e.figure("clean_run", clean.summary());
            e.check("clean_run_inserted", clean.count("inserted")).isEqualTo(copy.size(), "the copy of the load, once");
            return c;
        }

        void recordKeysBound(ClaimEvidence e) {
            InboxIT.recordKeysBound(e, keys.max(), keys.samples());
        }

        @Override
        public void close() {
            keys.close();
        }
    }

    @Test
    @Claim(id = "B4", variant = "order-id key", title = "Exactly-once into a transactional database: a key naming the order swallows updates",
            exercises = {"inbox/ChangeKeys", "inbox/PollBatch"})
    void b4OrderIdKey(ClaimEvidence e, StandContext s) {
        OrderChanges load = load(s, e);
        LedgerDb byChange = runOnce(s, load, "b4_key_change", false);
        LedgerDb byOrder = runOnce(s, load, "b4_key_order", true);

        recordAppliedOnce(e, s, load, byChange, "order_ledger keyed by change (the product)");
        Set<Change> kept = new HashSet<>(byOrder.changes(load.orderIds()));
        Map<String, Long> swallowed = load.changes().stream().filter(c -> !kept.contains(c))
                .collect(Collectors.groupingBy(c -> String.valueOf(c.op()), TreeMap::new, Collectors.counting()));
        Reconciliation control = Reconciliation.orders(load.truthOrders(s.stand()), byOrder.latestOrders(load.orderIds()));
        e.figure("order_id_key_swallowed_by_op", swallowed);
        e.negativeControl("order_id_key_updates_swallowed", swallowed.getOrDefault("u", 0L), Anomaly.WRONG_VALUE,
                "keyed by the order id, an UPDATE inside the keys window is taken for a repeat of its INSERT");
        e.negativeControl("order_id_key_orders_differing_from_pg", control.differences().size(), Anomaly.WRONG_VALUE,
                "the ledger's state of those orders differs from PostgreSQL");
        e.table("Orders the order-id key got wrong (first 10 of " + control.differences().size() + ")", Reconciliation.DIFFERENCE_COLUMNS,
                control.differences().stream().limit(10).map(Reconciliation.Difference::cells).toList());
        e.note("The same load, the same sink, keyed by the order id as the seed does: changes of an order whose previous "
                + "change was still among the newest " + KEEP + " keys were skipped as repeats (" + swallowed + " by op), "
                + "and " + control.differences().size() + " orders read differently from PostgreSQL. Keyed by change "
                + "(order id + LSN + op), the ledger holds every change once and equals PG.");
    }

    /** One clean run of the inbox sink over the load, on a fresh target; @return the target */
    private static LedgerDb runOnce(StandContext s, OrderChanges load, String schema, boolean keyByOrderId) {
        LedgerDb db = LedgerDb.fresh(s.stand(), schema, load.topic());
        InboxProcess inbox = process(s, db, load.topic(), "ds-inbox-" + schema.replace('_', '-'), InboxMode.INBOX, keyByOrderId);
        s.topics().resetGroup(inbox.group(), load.start());
        inbox.run("inbox-" + schema.replace('_', '-'));
        return db;
    }

    /** Every change of the load once in the ledger (per change against the load's), and its state equal to PG. */
    private static void recordAppliedOnce(ClaimEvidence e, StandContext s, OrderChanges load, LedgerDb db, String what) {
        KeyCounts<Change> changes = KeyCounts.of(load.changes(), db.changes(load.orderIds()));
        e.figure("changes_of_the_load", changes.expectedKeys());
        e.anomaly(Anomaly.DUPLICATE, e.figure("ledger_duplicate_changes", changes.excess()));
        e.anomaly(Anomaly.LOST, e.figure("ledger_lost_changes", changes.missing()));
        e.anomaly(Anomaly.WRONG_VALUE, e.figure("ledger_unexpected_changes", changes.unexpected()));
        e.check("ledger_positions_written_twice", db.positionsWrittenTwice()).isZero("no record of the topic written twice");
        recordState(e, s, load, db, what);
    }

    /** The ledger's per-order state and per-customer totals of the load's orders against PostgreSQL's. */
    private static void recordState(ClaimEvidence e, StandContext s, OrderChanges load, LedgerDb db, String what) {
        Reconciliation.orders(load.truthOrders(s.stand()), db.latestOrders(load.orderIds()))
                .and(Reconciliation.customers(load.truthCustomers(s.stand()), db.customerTotals(load.orderIds())))
                .record(e, "PostgreSQL vs " + what + ", the load's orders");
    }

    private static void recordKeysBound(ClaimEvidence e, long max, long samples) {
        e.check("keys_table_samples", samples).isPositive("keys table sizes sampled while the runs went on");
        e.check("keys_table_max_sampled", max).isAtMost(KEEP, "the keys table never above keep-factor x commit-size");
    }

    /** The crashes of one mode as a table; an unproven crash makes the entry UNVERIFIED. */
    private static void recordCrashes(ClaimEvidence e, String mode, Recovery r) {
        long proven = r.crashes().stream().filter(c -> c.result().proven()).count();
        e.figure(mode + "_crashes_proven", proven + " of " + r.crashes().size());
        r.crashes().stream().filter(c -> !c.result().proven())
                .forEach(c -> e.unverified(mode + " crash " + c.label() + " did not hit its window: " + c.result().proof()));
        e.table("SIGKILLs of the " + mode + " sink", InboxCrashes.COLUMNS, r.rows());
    }

    private static InboxProcess process(StandContext s, LedgerDb db, String topic, String group, InboxMode mode, boolean keyByOrderId) {
        return InboxCrashes.process(s, db, topic, group, mode, COMMIT_SIZE, KEEP_FACTOR, keyByOrderId);
    }

    /** Applies the load once per JVM and waits until orders.events holds all of its changes. */
    private static synchronized OrderChanges load(StandContext s, ClaimEvidence e) {
        if (load == null) {
            Stand stand = s.stand();
            Map<TopicPartition, Long> start = s.topics().endOffsets(RunNames.ORDERS_EVENTS);
            long watermark = OrderChanges.orderIdWatermark(stand);
            OrderLoad.Applied applied = OrderLoad.plan(LOAD_CHANGES, CUSTOMERS, LOAD_SEED, OrderLoad.Mix.REAL)
                    .apply(stand, LOAD_BATCH, done -> { });
            loadMix = applied.inserted() + " inserts, " + applied.updatedAmount() + " amount updates, " + applied.moved()
                    + " moves, " + applied.deleted() + " deletes in PG transactions of " + LOAD_BATCH;
            load = OrderChanges.awaitLoad(stand, start, watermark, applied.changes());
        }
        e.figure("load", loadMix);
        e.figure("load_orders", load.orderIds().size());
        e.figure("commit_size", COMMIT_SIZE);
        e.figure("keep_factor", KEEP_FACTOR);
        return load;
    }
}
