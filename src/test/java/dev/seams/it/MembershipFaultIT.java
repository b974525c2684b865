package dev.seams.it;

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.seams.consumer.OffsetFault;
import dev.seams.fixture.Pipeline;
import dev.seams.fixture.StandContext;
import dev.seams.report.Anomaly;
import dev.seams.report.Claim;
import dev.seams.report.ClaimEvidence;
import dev.seams.sink.Batching;
import dev.seams.sink.Sink;
import dev.seams.sink.SinkMode;
import dev.seams.sink.SinkOptions;
import dev.seams.sink.SinkSummary;
import dev.seams.truth.RunNames;
import dev.seams.truth.Topics;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Group membership changes stop nothing with a commit interval (claim B12[commit interval 5s], fault tier): B12's drain
 * ({@link MembershipDrain}) with both instances run with {@code --commit-interval 5s}, so that at every rebalance up to
 * five seconds of written batches wait for their offsets to be committed, and only the sink's rebalance listener
 * (it commits the revoked partitions' written offsets, {@code consumer/OffsetCommitter#onRevoked}) keeps their new owner
 * from writing them again. Then the same drain, on the same backlog size and stays, by the twin: the same sink with
 * the TEST-ONLY fault {@code OffsetFault.NO_COMMIT_ON_REVOCATION} (its listener forgets them). The duplicate count that
 * holds the real sink to 0 (the harness removes no member here) must show the twin's re-written rows, in the same run.
 * And a run with the same interval that ends gracefully with its last batch's commit unanswered, and with aborted
 * transactions on the partitions its batch did not touch, must leave its group's lag at 0, markers and aborted records
 * included (B12[commit interval 5s, graceful stop]).
 */
@ExtendWith(StandContext.Resolver.class)
class MembershipFaultIT {

    /** The commit interval of both instances: at 1 s per batch, about five batches' offsets wait at any time. */
    static final Duration COMMIT_INTERVAL = Duration.ofSeconds(5);
    /** This claim's customers, 1261..1320; the twin's 1321..1380; the graceful stop's one, 1381. */
    private static final int FIRST_CUSTOMER = 1261;
    private static final int TWIN_FIRST_CUSTOMER = FIRST_CUSTOMER + MembershipDrain.CUSTOMERS;

    /**
     * One drain's outcome.
     *
     * @param drain   the drain (its backlog and raw rows)
     * @param stays   the stays, landed
     * @param first   the first instance's summary, or null if its run threw
     * @param outcome how the first instance's run ended
     */
    private record Drained(MembershipDrain drain, MembershipDrain.Stays stays, SinkSummary first, String outcome) {

        List<SinkSummary> seconds() {
            return stays.changes().stream().map(c -> c.result().second()).toList();
        }

        long commitErrors() {
            return (first == null ? 0 : first.commitErrors()) + seconds().stream().mapToLong(SinkSummary::commitErrors).sum();
        }
    }

    @Test
    @Claim(id = "B12", variant = "commit interval 5s", title = "Group membership changes stop nothing, with --commit-interval 5s",
            exercises = {"consumer/OffsetCommitter", "sink/Sink", "consumer/PollSession", "consumer/Rebalances"})
    void b12WithACommitInterval(ClaimEvidence e, StandContext s) throws Exception {
        Drained real = drain(s, FIRST_CUSTOMER, o -> o.withCommitInterval(COMMIT_INTERVAL));
        MembershipDrain.recordStays(e, "commit interval 5s, ", real.stays().changes());
        real.drain().check(e, real.first(), real.outcome(), real.seconds());
        stoppedWithinTheInterval(e.part("commit interval 5s, graceful stop"), s);

        Drained twin = drain(s, TWIN_FIRST_CUSTOMER, o -> o.withCommitInterval(COMMIT_INTERVAL).withOffsetFault(OffsetFault.NO_COMMIT_ON_REVOCATION));
        long twinDuplicates = e.figure("twin_raw_duplicate_rows", twin.drain().raw().excess());
        e.figure("twin_commit_errors", twin.commitErrors());
        e.figure("twin_first_instance", twin.outcome());
        e.table("The twin's three stays (no commit on revocation, customers " + TWIN_FIRST_CUSTOMER + ".."
                + (TWIN_FIRST_CUSTOMER + MembershipDrain.CUSTOMERS - 1) + ")", MembershipDrain.STAYS_COLUMNS,
                MembershipDrain.staysRows(twin.stays().changes()));
        e.negativeControl("twin_raw_duplicate_rows_beyond_the_removal", Math.max(0, twinDuplicates
                        - MembershipDrain.WrittenWhileRemoved.NONE.duplicatesAllowed()),
                Anomaly.DUPLICATE, "the twin, whose rebalance listener does not commit the revoked partitions' written "
                        + "offsets: raw_totals rows beyond one per record position, where the harness removed no member, "
                        + "the same count and bound that hold the real sink above");
        e.note("Both drains: " + MembershipDrain.BACKLOG + " orders of their own customers, both instances with --commit-interval "
                + COMMIT_INTERVAL.toSeconds() + "s and the test-only insert delay of " + MembershipDrain.INSERT_DELAY_MS
                + " ms per batch, the second instance joining and leaving at " + MembershipDrain.points() + " of the drain. The classic (eager) "
                + "protocol revokes every partition at each rebalance, so each one finds up to five seconds of written, "
                + "uncommitted batches: the real sink commits them in onPartitionsRevoked, the twin forgets them and "
                + "their next owner (the first instance again, or the second) writes them again. "
                + "The mutant sink-no-commit-on-revocation is the same change in the shipped code (reports/mutants.md).");
    }

    /** The group of the graceful stop's run: its own, at the topic's end before its backlog. */
    private static final String STOP_GROUP = RunNames.of("ds-sink-b12-stop");
    /** The graceful stop's one customer, after the twin's: its backlog lies on one partition of customer.totals. */
    private static final int STOP_CUSTOMER = TWIN_FIRST_CUSTOMER + MembershipDrain.CUSTOMERS;
    private static final int STOP_ORDERS = 3_000;

    /**
     * B12[commit interval 5s, graceful stop]: a sink run with the same interval gathers a backlog of its own into one
     * batch ({@code --batch-rows} beyond the backlog) and ends gracefully once caught up ({@code --until-caught-up}: the
     * same end of the run as {@code Sink.stop()} and SIGTERM). The backlog is one customer's, so it lies on one partition;
     * on every other partition an aborted transaction lies after the group's offset, which a read_committed consumer moves
     * over without returning a record. The run's last batch is written after its loop, so that batch's asynchronous
     * commit is unanswered when the loop ends — no poll runs its callback — and the other partitions' positions were
     * moved by no record of any batch: only the run's closing commits ({@code OffsetCommitter#commitAll}, then
     * {@code #commitSkipped}) commit them. Its group's lag at rest must be 0 (G12), not left to the revocation on close,
     * which commits only the written records' offsets (mutant {@code sink-no-final-commit}: there, every time, the lag is
     * the aborted records and their markers).
     */
    private static void stoppedWithinTheInterval(ClaimEvidence part, StandContext s) throws Exception {
        // given: a backlog of one customer, its group at the topic's end before it, an aborted transaction on every other partition
        Topics topics = s.topics();
        s.settle();
        Map<TopicPartition, Long> before = topics.endOffsets(RunNames.CUSTOMER_TOTALS);
        topics.resetGroup(STOP_GROUP, before);
        s.pg().execute("INSERT INTO orders (customer_id, amount) SELECT " + STOP_CUSTOMER
                + ", (100 + g * 37 % 9901) / 100.0 FROM generate_series(0, " + (STOP_ORDERS - 1) + ") g");
        s.settle();
        Map<TopicPartition, Long> backlogEnd = topics.endOffsets(RunNames.CUSTOMER_TOTALS);
        List<TopicPartition> others = before.keySet().stream().filter(tp -> backlogEnd.get(tp).equals(before.get(tp)))
                .sorted(Comparator.comparingInt(TopicPartition::partition)).toList();
        if (others.isEmpty()) {
            part.unverified("precondition not met: the backlog of customer " + STOP_CUSTOMER + " moved every partition's end ("
                    + before + " → " + backlogEnd + "), so no partition was left for the aborted transaction");
            return;
        }
        long records = MembershipDrain.dataBehind(topics, STOP_GROUP);   // before the aborted records, which the probe counts
        try (KafkaProducer<byte[], byte[]> producer = topics.producer(RunNames.of("seams-b12-stop-abort"))) {
            producer.initTransactions();
            producer.beginTransaction();
            for (TopicPartition tp : others) {
                producer.send(new ProducerRecord<>(tp.topic(), tp.partition(), Long.toString(STOP_CUSTOMER).getBytes(UTF_8),
                        "aborted: B12[commit interval 5s, graceful stop]".getBytes(UTF_8))).get();
            }
            producer.abortTransaction();
        }
        // when: a run with --commit-interval 5s gathers all of it into one batch and ends once caught up
        Sink sink = new Sink(Pipeline.sinkOptions(s.stand(), SinkMode.TOTALS, o -> o.withGroupId(STOP_GROUP)
                .withCommitInterval(COMMIT_INTERVAL).withBatching(new Batching(STOP_ORDERS * 10, Duration.ofMinutes(2)))
                .withUntilCaughtUp()));
        ExecutorService thread = Executors.newSingleThreadExecutor();
        SinkSummary summary;
        try {
            summary = CompletableFuture.supplyAsync(sink::run, thread).get(2, TimeUnit.MINUTES);
        } finally {
            sink.stop();
            thread.shutdownNow();
        }
        long written = s.ch().scalar("SELECT count() FROM raw_totals WHERE customer_id = " + STOP_CUSTOMER);
        // then: its group's lag at rest is 0, the aborted records and all markers included
        part.figure("backlog_records", records);
        part.figure("partitions_with_aborted_records_only", others.stream().map(tp -> "customer.totals-" + tp.partition()).toList());
        part.figure("run_summary", summary.line());
        part.check("backlog_rows_written", written).isEqualTo(records, "raw_totals rows of this part's customer: the "
                + "gathered batch was written at the end of the run");
        part.check("group_lag_after_the_stop", topics.lag(STOP_GROUP, RunNames.CUSTOMER_TOTALS))
                .isZero("log end offset − committed offset summed over the partitions once the run stopped: the last batch's "
                        + "offsets, whose commit was unanswered when the loop ended, and the positions moved over the aborted "
                        + "records and the transaction markers are committed before it leaves (G12)");
    }

    /** Seeds a backlog for these customers and drains it with the first instance and the three stays, in this variant. */
    private static Drained drain(StandContext s, int firstCustomer, UnaryOperator<SinkOptions> variant) throws Exception {
        MembershipDrain drain = MembershipDrain.seed(s, firstCustomer, variant);
        ExecutorService threads = Executors.newCachedThreadPool();
        try {
            MembershipDrain.Stays stays = drain.start(threads);
            try {
                SinkSummary first = stays.firstRun().get(3, TimeUnit.MINUTES);
                return new Drained(drain, stays, first, "ended normally: " + first.line());
            } catch (ExecutionException ended) {
                return new Drained(drain, stays, null, "threw " + ended.getCause());
            }
        } finally {
            threads.shutdownNow();
        }
    }
}
