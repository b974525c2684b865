package dev.seams.stand;

import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;
import org.apache.kafka.common.TopicPartition;
import org.awaitility.core.ConditionTimeoutException;

/**
 * kill -9 of ds-streams in the middle of one of its transactions on a topic (claim G14: the kill must abort
 * output, or the read_uncommitted twin has nothing to show). ds-streams commits every 100 ms and its records
 * reach the broker shortly before the commit, so a kill sent when a look at the broker showed an open
 * transaction usually arrives after that commit. Instead the process is halted (SIGSTOP) and the broker
 * asked twice, 250 ms apart (a commit sent just before the halt has landed by then): a last stable offset
 * below the log end that did not move is a transaction the process itself must still end. Then the halted
 * process gets SIGKILL without running again. (It used to be frozen with {@code docker pause}, which Docker
 * must thaw before it kills: the thawed process, its commit interval long past, committed first — measured:
 * all three kills of one run found a transaction open and aborted nothing.) If no such moment comes within
 * the time given, the process is killed anyway. A look that finds nothing open thaws the process at once (about
 * 0.1 s a look on this stand, where one with the 250 ms wait left a kill's 0.5 s window two looks).
 */
public final class TransactionKill {

    /** Between the two looks at the frozen process's transactions: longer than an EndTxn round trip on this stand. */
    private static final Duration SETTLE = Duration.ofMillis(250);

    /**
     * @param frozenMidTransaction whether the process was frozen with a transaction open on the topic
     * @param exit                 its exit status: 137 proves the SIGKILL
     */
    public record Result(boolean frozenMidTransaction, int exit) {
    }

    private TransactionKill() {
    }

    /**
     * @param streams the running ds-streams
     * @param topics  the stand's topics
     * @param topic   the topic whose transaction the kill should abort, e.g. {@code customer.totals}
     * @param within  how long to look for an open transaction before killing anyway
     * @return what happened
     */
    public static Result kill(StreamsProcess streams, Topics topics, String topic, Duration within) {
        JvmContainer process = streams.container();
        boolean frozen;
        try {
            await("ds-streams frozen with a transaction open on " + topic).atMost(within).pollDelay(Duration.ZERO)
                    .pollInterval(Duration.ofMillis(20)).until(() -> freezeIfOpen(process, topics, topic));
            frozen = true;
        } catch (ConditionTimeoutException none) {
            frozen = false;
        }
        return new Result(frozen, streams.kill());
    }

    /** Freezes the process; keeps it frozen and answers true if it has a transaction open on the topic, else thaws it. */
    private static boolean freezeIfOpen(JvmContainer process, Topics topics, String topic) {
        process.suspend();
        Map<TopicPartition, long[]> first = topics.openTransactions(topic);
        if (first.isEmpty()) {   // nothing open: thaw at once, so that a short window holds many looks
            process.resume();
            return false;
        }
        // a commit the process sent just before the freeze still reaches the broker: look again after it had time to
        LockSupport.parkNanos(SETTLE.toNanos());
        Map<TopicPartition, long[]> again = topics.openTransactions(topic);
        if (!first.isEmpty() && first.size() == again.size()
                && first.entrySet().stream().allMatch(en -> again.containsKey(en.getKey()) && again.get(en.getKey())[0] == en.getValue()[0])) {
            return true;
        }
        process.resume();
        return false;
    }
}
