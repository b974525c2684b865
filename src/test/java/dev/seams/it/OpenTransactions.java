package dev.seams.it;

import static org.awaitility.Awaitility.await;

import dev.seams.fixture.Pipeline;
import dev.seams.report.ClaimEvidence;
import dev.seams.stand.Stand;
import dev.seams.truth.RunNames;
import dev.seams.truth.Topics;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.common.TopicPartition;
import org.awaitility.core.ConditionTimeoutException;

/**
 * Claim B5's check that a broker's death leaves no transaction of ds-streams open for good (issue 21): after a
 * coordinator's kill or restart, the coordinator loads the transaction log and ds-streams' EndTxn commits (or aborts)
 * there, or the transaction times out and is aborted; after a leader's, the produce fails and the transaction is
 * aborted. One never completed (a hanging transaction: KAFKA-12671, KIP-890) keeps the last stable offset (LSO) below
 * the log end, and every read_committed consumer, the sink first, stops there. A kill need not abort anything (a
 * transaction open at the kill may commit on the new coordinator: measured 0 to 883 aborted records from run to run),
 * so aborts are reported ({@code aborted_records_in_log}), not required; the aborted-read detector is shown to fire by
 * the mutants of docs/mutants.md.
 */
final class OpenTransactions {

    /** How long the transactions open after a fault's run have to end, seconds (ds-streams' transaction.timeout.ms is 10 s). */
    static final long WAIT_S = 60;

    private OpenTransactions() {
    }

    /**
     * Records {@code partitions_with_a_transaction_left_open} (must be 0) for customer.totals and the repartition topic,
     * read once the run settled (nothing flows), awaited up to {@value #WAIT_S} s, with a note per partition left open.
     *
     * @param e     the entry's evidence
     * @param stand the stand the fault ran on
     */
    static void checkEnded(ClaimEvidence e, Stand stand) {
        Topics topics = stand.topics();
        List<String> names = List.of(RunNames.CUSTOMER_TOTALS, Pipeline.REPARTITION_TOPIC);
        Map<String, Map<TopicPartition, long[]>> open = new TreeMap<>();
        try {
            await("transactions open on " + names + " end").atMost(Duration.ofSeconds(WAIT_S))
                    .pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(500)).ignoreExceptions().until(() -> {
                        open.clear();
                        names.forEach(t -> open.put(t, topics.openTransactions(t)));
                        return open.values().stream().allMatch(Map::isEmpty);
                    });
        } catch (ConditionTimeoutException timeout) {
            // reported below, partition by partition
        }
        long left = open.values().stream().mapToLong(Map::size).sum();
        open.forEach((t, parts) -> parts.forEach((tp, lsoEnd) ->
                e.note("still open on " + tp + ": last stable offset " + lsoEnd[0] + ", log end " + lsoEnd[1])));
        e.check("partitions_with_a_transaction_left_open", left).isZero("partitions of customer.totals and the repartition "
                + "topic whose last stable offset stayed below the log end " + WAIT_S + " s after the run "
                + "settled: a transaction the coordinator never completed");
        e.note("A broker's kill need not abort anything: a transaction open at the kill may be completed by the coordinator "
                + "once it is back or elected (aborted_records_in_log counts those aborted, from run to run). What must hold is "
                + "that none stays open; the aborted-read detector is shown to fire by the mutants of docs/mutants.md.");
    }
}
