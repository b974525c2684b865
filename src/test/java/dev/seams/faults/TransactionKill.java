package dev.seams.faults;

import dev.seams.stand.StreamsProcess;
import dev.seams.truth.Topics;
import java.time.Duration;

/**
 * kill -9 of ds-streams in the middle of one of its transactions on a topic (claim G14: the kill must abort
 * output, or the read_uncommitted twin has nothing to show).
 *
 * <p>The kill strikes at an exact point of Kafka's producer: ds-streams is halted ({@link JvmHalt}) when its
 * producer builds the EndTxn request that would end its transaction, {@value #END_TXN_BUILDER}{@code #build(short)},
 * on the producer's sender thread right before it sends it. For a commit ({@code data.committed} true) the producer
 * builds it only once every batch of the transaction is acknowledged: the records are in the log, the transaction
 * open. If the broker then shows a transaction open on the topic (its last stable offset below its log end: the halted
 * process's own records, as nothing else writes there), the halted process gets SIGKILL without running again. An
 * abort (ds-streams ending a transaction itself, e.g. after a rebalance) and a commit without records on the topic are
 * let go. If no such commit comes within the time given (ds-streams idle), the process is killed anyway.
 *
 * <p>Before, the process was frozen at random moments and the broker asked whether a transaction was open: a
 * transaction of ds-streams is open on the broker for a few milliseconds of each 100 ms commit interval, and in
 * CI runs all three kills of a run sometimes found none open (G14 UNVERIFIED: nothing aborted).
 */
public final class TransactionKill {

    /** Kafka's protocol class whose {@code build(short)} the producer calls to send EndTxn (since Kafka 0.11). */
    static final String END_TXN_BUILDER = "org.apache.kafka.common.requests.EndTxnRequest$Builder";

    /**
     * @param frozenMidTransaction whether the process was halted with a transaction open on the topic
     * @param exit                 its exit status: 137 proves the SIGKILL
     */
    public record Result(boolean frozenMidTransaction, int exit) {
    }

    private TransactionKill() {
    }

    /**
     * @param streams the running ds-streams, started with its debugger agent ({@code StreamsProcess#container()})
     * @param topics  the stand's topics
     * @param topic   the topic whose transaction the kill should abort, e.g. {@code customer.totals}
     * @param within  how long to wait, once attached, for a commit with records open on it before killing anyway
     * @return what happened
     * @throws InterruptedException if interrupted while waiting
     */
    public static Result kill(StreamsProcess streams, Topics topics, String topic, Duration within) throws InterruptedException {
        try (JvmHalt halt = JvmHalt.attach(streams.container().debugAgent(), END_TXN_BUILDER, "build")) {
            long deadline = System.nanoTime() + within.toNanos();
            while (halt.awaitHalt(Duration.ofNanos(Math.max(0, deadline - System.nanoTime())))) {
                if (halt.booleanField("data", "committed") && !topics.openTransactions(topic).isEmpty()) {
                    return new Result(true, streams.kill());   // halted: the process never runs again
                }
                halt.resume();
            }
        }
        return new Result(false, streams.kill());
    }
}
