package dev.seams.it;

import static org.awaitility.Awaitility.await;

import dev.seams.faults.FaultSchedule.Shot;
import dev.seams.faults.FaultSchedule;
import dev.seams.fixture.StandContext;
import dev.seams.inbox.CrashPoint;
import dev.seams.inbox.InboxMode;
import dev.seams.inbox.KeysSampler;
import dev.seams.inbox.LedgerDb;
import dev.seams.load.OrderChanges;
import dev.seams.stand.InboxProcess.Run;
import dev.seams.stand.InboxProcess;
import dev.seams.truth.Topics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.DoubleSupplier;
import java.util.function.Supplier;
import org.apache.kafka.common.TopicPartition;

/**
 * B4's crash phase (InboxIT): one mode of the inbox sink on a fresh target and consumer group,
 * positioned at the load's first offsets, SIGKILLed at one {@link CrashPoint} at each given share of
 * the load ({@link FaultSchedule#drive}: each run is armed to die at the poll that reaches it), each
 * crash proven from the outside, then a last run that ends by itself.
 */
final class InboxCrashes {

    /** How often the keys table's size is sampled while the runs go on. */
    static final Duration KEYS_SAMPLING = Duration.ofMillis(25);

    private InboxCrashes() {
    }

    /**
     * One crash, as measured right after the process died.
     *
     * @param poll          the poll it was armed to die at
     * @param run           the run (exit status, crash line)
     * @param txStatus      PostgreSQL's {@code txid_status} of the poll's transaction once settled
     * @param beyondKafka   records in the ledger at or beyond Kafka's committed offsets of the group
     * @param kafkaBehindDb the database's stored offsets minus Kafka's committed ones, summed (mode inbox)
     * @param progressAfter the load's share the target held after the crash
     * @param proof         why the crash is not proven to have hit its window, or null if it is
     */
    record Crash(long poll, Run run, String txStatus, long beyondKafka, long kafkaBehindDb, double progressAfter, String proof) {

        boolean proven() {
            return proof == null;
        }
    }

    /**
     * One restart after a crash: the offsets the database held when it started and where it was sought to.
     *
     * @param stored    partition → stored next offset before the restart
     * @param resumedAt partition → the offset the restart logged it resumed at
     */
    record Restart(Map<Integer, Long> stored, Map<Integer, Long> resumedAt) {

        boolean resumedAtStored() {
            return !stored.isEmpty() && stored.equals(resumedAt);
        }
    }

    /**
     * A mode's crashes and recovery over the load.
     *
     * @param db       its target
     * @param inbox    its process settings (the group)
     * @param crashes  one shot per crash
     * @param restarts every run that started after a crash (mode inbox)
     * @param runs     every run, crashed or not, in order
     * @param last     the last run, which ended by itself
     * @param keysMax  the largest keys-table size sampled
     * @param keysSamples samples taken
     */
    record Recovery(LedgerDb db, InboxProcess inbox, List<Shot<Crash>> crashes, List<Restart> restarts, List<Run> runs, Run last,
                    long keysMax, long keysSamples) {

        long beyondKafka() {
            return crashes.stream().mapToLong(c -> c.result().beyondKafka()).sum();
        }

        long belowStoredOffsets() {
            return runs.stream().mapToLong(Run::belowStoredOffsets).sum();
        }

        long resentSkipped() {
            return runs.stream().mapToLong(Run::resentSkipped).sum();
        }

        long restartsAtStoredOffsets() {
            return restarts.stream().filter(Restart::resumedAtStored).count();
        }

        /** @return one report row per crash, in {@link #COLUMNS} order */
        List<List<Object>> rows() {
            return crashes.stream().map(s -> List.<Object>of(s.label(), FaultSchedule.percent(s.progress()),
                    FaultSchedule.percent(s.result().progressAfter()), s.result().poll(), s.result().run().exit(),
                    s.result().run().lastLine(), s.result().txStatus(), s.result().beyondKafka(), s.result().kafkaBehindDb(),
                    s.result().proven() ? "yes" : "NO: " + s.result().proof())).toList();
        }
    }

    /** Column names of {@link Recovery#rows()}. */
    static final List<String> COLUMNS = List.of("crash", "progress before", "progress after", "armed poll", "exit status",
            "last line", "txid_status", "records in DB beyond Kafka's offsets", "DB offsets ahead of Kafka's", "proven");

    /**
     * Crashes the sink at {@code point} at each share of the load in {@code at}, restarting it each
     * time, then lets a last run drain the rest.
     *
     * @param load       the load's changes (topic and start offsets)
     * @param commitSize records per poll
     * @param keepFactor keys table factor
     * @param at         shares of the load, ascending in (0, 1)
     * @return what happened, read from the processes, the target and the broker
     */
    static Recovery crashAndRecover(StandContext s, OrderChanges load, CrashPoint point, InboxMode mode, int commitSize,
                                    int keepFactor, double... at) {
        String tag = point.name().toLowerCase(Locale.ROOT) + "_" + mode.cliName();
        LedgerDb db = LedgerDb.fresh(s.stand(), "b4_" + tag, load.topic());
        InboxProcess inbox = process(s, db, load.topic(), "ds-inbox-" + tag.replace('_', '-'), mode, commitSize, keepFactor, false);
        Topics topics = s.topics();
        topics.resetGroup(inbox.group(), load.start());
        Supplier<Map<TopicPartition, Long>> position = () -> over(load.start(), mode == InboxMode.INBOX
                ? db.storedOffsets(inbox.group(), load.topic()) : topics.committed(inbox.group(), load.topic()));
        DoubleSupplier progress = () -> (sum(position.get()) - sum(load.start())) / (double) load.span();
        List<Run> runs = new ArrayList<>();
        List<Restart> restarts = new ArrayList<>();
        try (KeysSampler keys = db.sampleKeys(KEYS_SAMPLING)) {
            List<Shot<Crash>> crashes = FaultSchedule.atProgress(progress, at).drive(target -> {
                long done = sum(position.get()) - sum(load.start());
                long poll = Math.max(1, (long) Math.ceil((target * load.span() - done) / commitSize));
                Map<Integer, Long> stored = byPartition(db.storedOffsets(inbox.group(), load.topic()));
                Run run = inbox.crash("inbox-" + tag.replace('_', '-') + "-" + Math.round(target * 100), point, poll);
                runs.add(run);
                if (runs.size() > 1) {
                    restarts.add(new Restart(stored, run.resumedAt()));
                }
                return prove(db, topics, inbox.group(), load.topic(), point, mode, poll, run, progress);
            });
            Map<Integer, Long> stored = byPartition(db.storedOffsets(inbox.group(), load.topic()));
            Run last = inbox.run("inbox-" + tag.replace('_', '-') + "-final");
            runs.add(last);
            restarts.add(new Restart(stored, last.resumedAt()));
            return new Recovery(db, inbox, crashes, mode == InboxMode.INBOX ? restarts : List.of(), runs, last, keys.max(),
                    keys.samples());
        }
    }

    /** @return the inbox sink's process on this target and group (every run positioned by the group) */
    static InboxProcess process(StandContext s, LedgerDb db, String topic, String group, InboxMode mode, int commitSize,
                                int keepFactor, boolean keyByOrderId) {
        return new InboxProcess(s.stand(), db.jdbcUrl(), db.user(), db.password(), topic, group, mode, commitSize, keepFactor,
                keyByOrderId);
    }

    /**
     * Reads what an armed run left behind and says whether it died in its window: SIGKILL (137) with
     * the point's crash line; then, from the database and the broker, the transaction aborted with
     * rows written (mid-transaction), committed with records beyond Kafka's committed offsets (after
     * the DB commit), or committed with Kafka's offsets caught up with the ledger (after the offset commit).
     */
    private static Crash prove(LedgerDb db, Topics topics, String group, String topic, CrashPoint point, InboxMode mode,
                               long poll, Run run, DoubleSupplier progress) {
        String status = run.txid() > 0 ? awaitSettled(db, run.txid()) : "unknown";
        Map<TopicPartition, Long> kafka = topics.committed(group, topic);
        long beyond = db.recordsAheadOf(kafka);
        long behind = mode == InboxMode.INBOX ? sum(over(kafka, db.storedOffsets(group, topic))) - sum(kafka) : 0;
        String proof = null;
        if (!run.crashedAt(point)) {
            proof = "exit " + run.exit() + " without the crash line of " + point + ": " + run.lastLine();
        } else if (run.rowsInFlight() <= 0) {
            proof = "the crashed poll had no ledger row: " + run.lastLine();
        } else if (point == CrashPoint.MID_TRANSACTION && !"aborted".equals(status)) {
            proof = "its transaction is " + status + ", not aborted";
        } else if (point != CrashPoint.MID_TRANSACTION && !"committed".equals(status)) {
            proof = "its transaction is " + status + ", not committed";
        } else if (point == CrashPoint.AFTER_DB_COMMIT && beyond == 0) {
            proof = "no record of the ledger is beyond Kafka's committed offsets " + kafka + ": the window was not hit";
        } else if (point == CrashPoint.AFTER_OFFSET_COMMIT && beyond != 0) {
            proof = beyond + " records of the ledger are beyond Kafka's committed offsets: the offset commit did not land";
        }
        return new Crash(poll, run, status, beyond, behind, progress.getAsDouble(), proof);
    }

    /** Waits until PostgreSQL has ended the transaction (a killed client's open transaction is aborted). */
    private static String awaitSettled(LedgerDb db, long txid) {
        return await("txid " + txid + " ended").atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofMillis(100))
                .until(() -> db.txidStatus(txid), status -> !"in progress".equals(status));
    }

    /** @return {@code base} with each partition {@code offsets} has replaced by its offset (a partition not stored yet stays at its base) */
    private static Map<TopicPartition, Long> over(Map<TopicPartition, Long> base, Map<TopicPartition, Long> offsets) {
        Map<TopicPartition, Long> result = new HashMap<>(base);
        result.putAll(offsets);
        return result;
    }

    private static Map<Integer, Long> byPartition(Map<TopicPartition, Long> offsets) {
        Map<Integer, Long> result = new TreeMap<>();
        offsets.forEach((tp, o) -> result.put(tp.partition(), o));
        return result;
    }

    static long sum(Map<TopicPartition, Long> offsets) {
        return offsets.values().stream().mapToLong(Long::longValue).sum();
    }
}
