package dev.seams.it;

import dev.seams.faults.FaultSchedule.Shot;
import dev.seams.faults.FaultSchedule;
import dev.seams.faults.Sigkill;
import dev.seams.fixture.StandContext;
import dev.seams.report.Anomaly;
import dev.seams.report.ClaimEvidence;
import dev.seams.truth.RunNames;
import dev.seams.truth.Topics;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.kafka.common.TopicPartition;

/**
 * The kills of G14[3 kills under load] ({@link LagIT#g14RepeatedKillsUnderLoad}): what one kill of ds-streams measured
 * where it landed, the changelog it left, and each kill's entry {@code G14[kill -9 @N%]}.
 */
final class StreamsKills {

    /** How long a kill of G14's load waits for ds-streams to commit a transaction with records on customer.totals. */
    static final Duration OPEN_TRANSACTION_WAIT = Duration.ofSeconds(10);
    private static final String COMMITTED = "read_committed";
    private static final String UNCOMMITTED = "read_uncommitted";

    private StreamsKills() {
    }

    /**
     * One kill of ds-streams, measured at the moment it landed.
     *
     * @param loadProgress    the load's share Debezium had published to orders.events when the kill struck (its landing,
     *                        FaultSchedule's point rule)
     * @param inputProgress   the load's share of orders.events ds-streams had committed right before the kill
     * @param inputLag        ds-streams' lag on orders.events right before the kill (unprocessed input)
     * @param openBefore      whether ds-streams was halted with a transaction open on customer.totals, then killed
     * @param totalsStable    the last stable offset of every customer.totals partition right after the kill:
     *                        the killed process's output was decided below it
     * @param openTotals      partitions of customer.totals with LSO below the log end right after the kill: [LSO, HW]
     * @param openRepartition the same for the repartition topic
     * @param exit            the process's exit status
     * @param corrupted       whether the restart logged TaskCorruptedException
     */
    record StreamsKill(double loadProgress, double inputProgress, long inputLag, boolean openBefore, Map<TopicPartition, Long> totalsStable,
                               Map<TopicPartition, long[]> openTotals, Map<TopicPartition, long[]> openRepartition, int exit,
                               boolean corrupted) {

        boolean openTransaction() {
            return !openTotals.isEmpty() || !openRepartition.isEmpty();
        }
    }

    /**
     * customer.totals after the load's start: the committed data records per partition (offsets) and
     * the records visible read_uncommitted only (their transaction aborted).
     */
    record Changelog(Map<Integer, List<Long>> committed, List<Aborted> aborted) {

        /** @return committed records of the load below the given last stable offsets: the output ds-streams had committed then */
        long committedBelow(Map<TopicPartition, Long> stable) {
            return committed.entrySet().stream().mapToLong(en -> {
                long lso = stable.getOrDefault(new TopicPartition(RunNames.CUSTOMER_TOTALS, en.getKey()), Long.MAX_VALUE);
                return en.getValue().stream().filter(o -> o < lso).count();
            }).sum();
        }
    }

    /** A record of customer.totals visible read_uncommitted only (its transaction aborted). */
    record Aborted(int partition, long offset, int customer) {
    }

    /**
     * One kill's entry: where it landed, whether ds-streams was mid-work (its work on the load not
     * finished — committed output below 100 % — and input it had not committed or a transaction it
     * had open), its aborted records and none of them in ClickHouse.
     */
    static void recordKill(ClaimEvidence part, Shot<StreamsKill> shot, double output, List<Aborted> aborted, StandContext s) {
        StreamsKill k = shot.result();
        part.figure("target", FaultSchedule.percent(shot.target()));
        part.figure("load_progress_at_kill", FaultSchedule.percent(k.loadProgress()));
        part.figure("input_progress_at_kill", FaultSchedule.percent(k.inputProgress()));
        part.figure("output_progress_at_kill", FaultSchedule.percent(output));
        part.figure("input_lag_at_kill", k.inputLag());
        part.figure("frozen_mid_transaction_then_killed", k.openBefore());
        part.figure("open_transaction", k.openTransaction());
        part.figure("open_transaction_partitions", Stream.concat(
                k.openTotals().entrySet().stream().map(en -> RunNames.CUSTOMER_TOTALS + "-" + en.getKey().partition() + " " + range(en.getValue())),
                k.openRepartition().entrySet().stream().map(en -> "repartition-" + en.getKey().partition() + " " + range(en.getValue())))
                .collect(Collectors.joining(", ")));
        part.figure("streams_exit_status", k.exit());
        part.figure("task_corrupted_exception_seen", k.corrupted());
        List<Aborted> mine = aborted.stream().filter(a -> {
            long[] open = k.openTotals().get(new TopicPartition(RunNames.CUSTOMER_TOTALS, a.partition()));
            return open != null && a.offset() >= open[0] && a.offset() < open[1];
        }).toList();
        part.figure("aborted_records_of_its_transaction", (long) mine.size());
        part.anomaly(Anomaly.ABORTED_READ, part.figure("aborted_records_in_clickhouse", abortedInClickHouse(s, mine)));
        String offPoint = FaultSchedule.offPoint(shot.target(), k.loadProgress());
        if (offPoint != null) {
            part.unverified("the kill " + offPoint);
        }
        if (k.exit() != Sigkill.EXIT) {
            part.unverified("ds-streams exited with " + k.exit() + ", not " + Sigkill.EXIT + " (SIGKILL)");
        }
        if (output >= 1.0 || (k.inputLag() == 0 && !k.openTransaction())) {
            part.unverified("the kill did not land while ds-streams was mid-work: output progress " + FaultSchedule.percent(output)
                    + ", input lag " + k.inputLag() + ", open transaction " + k.openTransaction());
        }
        part.note("Each kill is sent at its point of the load to ds-streams halted, through its debugger agent, where its "
                + "producer is about to send EndTxn for a transaction whose records on customer.totals the broker holds, "
                + "waited for up to " + OPEN_TRANSACTION_WAIT.toSeconds() + " s (faults/TransactionKill), "
                + "(in G14[3 kills under load] no longer than its point's ±5 points allow) "
                + "so that the kill aborts output; aborted_records_of_its_transaction says whether it did (a kill that found "
                + "no open transaction still counts as mid-work when ds-streams had input it had not committed). "
                + "Its point is of the load Debezium published to orders.events, where the load was when the kill struck (±5 points, else UNVERIFIED). "
                + "Measured at the kill: ds-streams' lag on orders.events right before it; the last stable offset below "
                + "the log end (an open transaction) on customer.totals and the repartition topic right after it; the output "
                + "progress = the load's committed customer.totals records below the last stable offsets at the kill. "
                + "The whole load's checks (no duplicate or lost snapshot read_committed, FINAL = PG) are in G14[3 kills under load].");
    }

    /** customer.totals after {@code start}: committed offsets per partition, and the records only read_uncommitted sees. */
    static Changelog changelogSince(Topics topics, Map<TopicPartition, Long> start) {
        Map<Integer, List<Long>> committed = new TreeMap<>();
        topics.readFrom(RunNames.CUSTOMER_TOTALS, COMMITTED, start,
                r -> committed.computeIfAbsent(r.partition(), p -> new ArrayList<>()).add(r.offset()));
        Set<String> seen = new HashSet<>();
        committed.forEach((p, offsets) -> offsets.forEach(o -> seen.add(p + "@" + o)));
        List<Aborted> aborted = new ArrayList<>();
        topics.readFrom(RunNames.CUSTOMER_TOTALS, UNCOMMITTED, start, r -> {
            if (!seen.contains(r.partition() + "@" + r.offset())) {
                aborted.add(new Aborted(r.partition(), r.offset(), Integer.parseInt(new String(r.key(), StandardCharsets.UTF_8))));
            }
        });
        return new Changelog(committed, aborted);
    }

    /**
     * Rows of raw_totals that are aborted records: the sink keeps each row's record position
     * ({@code kafka_partition}, {@code kafka_offset}; sink/TotalsMapper), which names the record.
     */
    static long abortedInClickHouse(StandContext s, List<Aborted> aborted) {
        if (aborted.isEmpty()) {
            return 0;
        }
        return s.ch().scalar("SELECT count() FROM raw_totals WHERE (kafka_partition, kafka_offset) IN ("
                + aborted.stream().map(a -> "(" + a.partition() + "," + a.offset() + ")").collect(Collectors.joining(",")) + ")");
    }

    private static String range(long[] lsoHw) {
        return "[LSO " + lsoHw[0] + ", HW " + lsoHw[1] + ")";
    }
}
