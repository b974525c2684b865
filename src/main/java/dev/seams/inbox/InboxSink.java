package dev.seams.inbox;

import dev.seams.consumer.Backoff;
import dev.seams.consumer.Batches;
import dev.seams.consumer.Classification;
import dev.seams.consumer.OffsetCommitter;
import dev.seams.consumer.PollSession;
import dev.seams.consumer.RunStoppedException;
import dev.seams.consumer.SinkConsumer;
import java.sql.SQLException;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sink mode {@code inbox}: exactly-once from {@code orders.events} into a PostgreSQL table that has
 * no unique index ({@code order_ledger}), every INSERT, UPDATE and DELETE recorded once (claim B4;
 * seed 001, "Регламент чтения и обработки сообщения").
 *
 * <p>Per poll of up to {@code commitSize} records (auto-commit off, {@code read_committed} by default):
 * parse the records ({@link PollBatch}; a value that is not an order event stops the run,
 * {@link UnprocessableRecordException}); write them in ONE database transaction ({@link PollWriter}:
 * stored offsets locked and redeliveries below them dropped, change keys checked against the keys
 * table, ledger rows and keys inserted, the keys table trimmed, the next offsets stored); commit it;
 * then commit the Kafka offsets ({@link OffsetCommitter}: for the lag probe and the plain twin —
 * the database's offsets are the ones that count). On every assignment the sink seeks each partition
 * to its stored next offset ({@link OffsetStore}), so a crash between the two commits redelivers
 * nothing, and an offset commit refused in a rebalance is harmless: exactly-once without a window.
 * The keys table, bounded to {@code keepFactor × commitSize} keys, catches what offsets cannot:
 * Debezium re-sending a change at a new offset.
 *
 * <p>Mode {@link InboxMode#PLAIN} is the unprotected twin: the same loop with ledger rows only, no
 * keys and no stored offsets; a crash between the commits inserts the poll's rows again.
 *
 * <p>A failed transaction is rolled back and classified ({@link PgErrors}): retriable (connection
 * lost, serialization failure, deadlock, insufficient resources, admin shutdown) — the poll is
 * re-read after a {@link Backoff}, one log line naming the class; permanent (data exception,
 * constraint violation, undefined table, privilege, authentication) — the run stops with
 * {@link RunStoppedException.Stop#PERMANENT_WRITE} naming the poll's position. One line per poll
 * that skipped changes, {@code inbox: poll N skipped K already-processed records (R below the stored
 * offsets, S re-sent changes), inserted M}, goes to the log.
 */
public final class InboxSink {

    /**
     * The first words of the line logged on every assignment, followed by partition → the stored
     * next offset the partition was sought to (e.g. {@code {0=120, 2=95}}) and the assigned partitions.
     */
    public static final String RESUME_LINE = "inbox: resuming at the database's offsets ";

    private static final Logger LOG = LoggerFactory.getLogger(InboxSink.class);
    private static final Duration POLL = Duration.ofMillis(500);

    private final InboxOptions options;
    private final Counters counters = new Counters();
    private PollSession session;
    private OffsetCommitter committer;

    /** @param options the run's settings */
    public InboxSink(InboxOptions options) {
        this.options = options;
    }

    /**
     * Runs until the run window ends ({@link PollSession}). A poll whose transaction keeps failing
     * retriably is re-read until then.
     *
     * @return what the run did
     * @throws RunStoppedException at a value that is not an order event ({@link UnprocessableRecordException}),
     *                             a permanent database error or a fatal Kafka error; nothing of the
     *                             failing poll committed; {@link #summary()} has the counts so far
     * @throws org.apache.kafka.common.KafkaException if the consumer cannot be created
     */
    public InboxSummary run() {
        KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(SinkConsumer.properties(options.source(),
                options.membership(), options.membership().groupId() + "-" + options.mode().cliName(), options.commitSize()));
        try (InboxDatabase database = new InboxDatabase(options)) {
            LOG.info("inbox: started mode={} topic={} group={} commit-size={} keep={}{}", options.mode().cliName(),
                    options.source().topic(), options.membership().groupId(), options.commitSize(), options.keep(),
                    options.faults().crash().point() == null ? ""
                            : " crash-at=" + options.faults().crash().point() + "@poll" + options.faults().crash().afterPolls());
            session = new PollSession(consumer, options.window());
            committer = new OffsetCommitter(consumer);
            session.afterEachPoll(committer::retryPending);
            session.subscribe(options.source().topic(), listener(consumer, database));
            consume(consumer, new PollWriter(options, database));
            committer.retryPending();
        } finally {
            consumer.close(CloseOptions.groupMembershipOperation(CloseOptions.GroupMembershipOperation.LEAVE_GROUP));
        }
        InboxSummary summary = summary();
        LOG.info(summary.line());
        return summary;
    }

    /** @return the counts of the current or last run so far (also after a {@link RunStoppedException}) */
    public InboxSummary summary() {
        long kafkaPending = options.mode() == InboxMode.PLAIN && committer != null ? committer.pendingRecords() : 0;
        return new InboxSummary(counters.polls, counters.records, counters.inserted, counters.skipped,
                counters.redelivered, counters.tombstones, counters.trimmed, counters.dbErrors,
                committer == null ? 0 : committer.errors(), session == null ? 0 : session.fetchErrors(),
                counters.uncommitted + kafkaPending, options.mode().cliName(), options.commitSize(), options.keep());
    }

    private void consume(Consumer<byte[], byte[]> consumer, PollWriter writer) {
        long poll = 0;
        Backoff backoff = new Backoff();
        while (session.running()) {
            ConsumerRecords<byte[], byte[]> records = session.poll(POLL);
            if (records.isEmpty()) {
                continue;
            }
            poll++;
            PollBatch batch;
            try {
                batch = PollBatch.of(records, options.faults().keyByOrderId());
            } catch (UnprocessableRecordException e) {
                counters.uncommitted = records.count();
                throw e;
            }
            Map<Integer, Long> next = new HashMap<>();
            Batches.nextOffsets(consumer, records).forEach((tp, om) -> next.put(tp.partition(), om.offset()));
            PollWriter.Written written;
            try {
                written = writer.write(batch, next, poll);
            } catch (SQLException e) {
                counters.dbErrors++;
                Classification c = PgErrors.classify(e);
                if (!c.retriable()) {
                    counters.uncommitted = records.count();
                    throw new RunStoppedException(RunStoppedException.Stop.PERMANENT_WRITE, "database transaction of poll "
                            + Batches.position(records) + " failed (" + c + "): " + e.getMessage()
                            + "; rolled back, nothing committed", e);
                }
                counters.uncommitted = Batches.reread(consumer, records, backoff,
                        "database transaction failed (" + c + "): " + e.getMessage() + "; rolled back");
                continue;
            }
            backoff.reset();
            counters.uncommitted = 0;
            if (written.redelivered() + written.resent() > 0) {
                LOG.info("inbox: poll {} skipped {} already-processed records ({} below the stored offsets, {} re-sent "
                        + "changes), inserted {}", poll, written.redelivered() + written.resent(), written.redelivered(),
                        written.resent(), written.inserted());
            }
            options.faults().crash().maybeCrash(CrashPoint.AFTER_DB_COMMIT, poll, written.detail());
            committer.commit(Batches.nextOffsets(consumer, records), Batches.counts(records));
            options.faults().crash().maybeCrash(CrashPoint.AFTER_OFFSET_COMMIT, poll, written.detail());
            counters.add(batch, written);
        }
    }

    private ConsumerRebalanceListener listener(Consumer<byte[], byte[]> consumer, InboxDatabase database) {
        return committer.listener(partitions -> {
            if (options.mode() != InboxMode.INBOX || partitions.isEmpty()) {
                return;
            }
            try {
                Map<Integer, Long> stored = database.storedOffsets(
                        partitions.stream().map(TopicPartition::partition).toList());
                for (TopicPartition tp : partitions) {
                    if (stored.containsKey(tp.partition())) {
                        consumer.seek(tp, stored.get(tp.partition()));
                    }
                }
                LOG.info(RESUME_LINE + "{} of {}", new TreeMap<>(stored), partitions);
            } catch (SQLException e) {
                LOG.warn("cannot read the stored offsets ({}); the transaction will skip what they cover", e.toString());
            }
        });
    }

    private static final class Counters {
        long polls;
        long records;
        long inserted;
        long skipped;
        long redelivered;
        long tombstones;
        long trimmed;
        long dbErrors;
        long uncommitted;

        void add(PollBatch batch, PollWriter.Written written) {
            polls++;
            records += batch.records();
            tombstones += batch.tombstones();
            inserted += written.inserted();
            skipped += written.resent();
            redelivered += written.redelivered();
            trimmed += written.trimmed();
        }
    }
}
