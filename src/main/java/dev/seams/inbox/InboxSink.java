package dev.seams.inbox;

import dev.seams.sink.PollSession;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.CommitFailedException;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sink mode {@code inbox}: exactly-once from {@code orders.events} into a PostgreSQL table that has
 * no unique index ({@code order_ledger}), by recording each processed message key in a keys table
 * committed in the same database transaction (claim B4; seed 001, "Регламент чтения и обработки
 * сообщения").
 *
 * <p>Per poll of up to {@code commitSize} records (auto-commit off, {@code read_committed} by default):
 * <ol>
 *   <li>parse the records ({@link PollBatch}; a tombstone carries no row, a value that is not an
 *       order event stops the run, {@link UnprocessableRecordException});</li>
 *   <li>in ONE database transaction: find which message keys ({@link MessageKeys}) are already in
 *       the topic's keys table; insert the ledger rows of the new ones; insert their keys; trim the
 *       keys table to its newest {@code keepFactor × commitSize} keys;</li>
 *   <li>commit the database transaction;</li>
 *   <li>commit the poll's Kafka offsets (each partition's consumer position).</li>
 * </ol>
 * A crash between 3 and 4 redelivers the poll; its keys are then found in step 2 and nothing is
 * inserted twice. A crash before 3 rolls back rows and keys together, so the redelivered records are
 * inserted once. The guarantee holds only while a redelivery reaches no further back than the keys
 * the table still keeps: the window must exceed the largest possible redelivery (README, "inbox").
 *
 * <p>Mode {@link InboxMode#PLAIN} is the unprotected twin: the same loop without the keys table.
 *
 * <p>A failed database transaction is rolled back, the connection re-opened and the poll re-read
 * after a backoff (200 ms doubling to 5 s); nothing is committed to Kafka meanwhile. A failed offset
 * commit is counted and retried before the next poll (or, if the partitions moved in a rebalance,
 * left to the new owner, which re-reads the poll and finds its keys), so a crash or a rebalance
 * redelivers at most one poll: within the window whenever keepFactor >= 1. One line per poll that skipped keys,
 * {@code inbox: poll N skipped K already-processed records, inserted M}, goes to the log.
 */
public final class InboxSink {

    private static final Logger LOG = LoggerFactory.getLogger(InboxSink.class);
    private static final Duration POLL = Duration.ofMillis(500);
    private static final long FIRST_BACKOFF_MS = 200;
    private static final long MAX_BACKOFF_MS = 5_000;

    private final InboxOptions options;
    private Connection db;

    /** @param options the run's settings */
    public InboxSink(InboxOptions options) {
        this.options = options;
    }

    /**
     * Runs until {@code --for} elapsed or nothing arrived for {@code --until-idle} (the idle clock
     * starts once the group assigned partitions). A poll whose transaction keeps failing is re-read
     * until then.
     *
     * @return what the run did
     * @throws SQLException                 if the target database cannot be reached or its tables
     *                                      created at the start
     * @throws UnprocessableRecordException at a value that is not an order event (its poll is not committed)
     * @throws KafkaException               if the consumer cannot be created
     */
    public InboxSummary run() throws SQLException {
        Counters counters = new Counters();
        connection();
        KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(consumerProperties());
        try {
            LOG.info("inbox: started mode={} topic={} group={} commit-size={} keep={}{}", options.mode().cliName(),
                    options.topic(), options.groupId(), options.commitSize(), options.keep(),
                    options.crash().point() == null ? ""
                            : " crash-at=" + options.crash().point() + "@poll" + options.crash().afterPolls());
            consume(consumer, counters);
        } finally {
            closeDb();
            consumer.close(CloseOptions.groupMembershipOperation(CloseOptions.GroupMembershipOperation.LEAVE_GROUP));
        }
        InboxSummary summary = new InboxSummary(counters.polls, counters.records, counters.inserted, counters.skipped,
                counters.tombstones, counters.trimmed, counters.dbErrors, counters.commitErrors, counters.fetchErrors,
                counters.uncommitted, options.mode().cliName(), options.commitSize(), options.keep());
        LOG.info(summary.line());
        return summary;
    }

    private void consume(KafkaConsumer<byte[], byte[]> consumer, Counters counters) {
        PollSession session = new PollSession(options.runFor(), options.untilIdle());
        session.subscribe(consumer, options.topic(), partitions -> { });
        long poll = 0;
        long backoffMs = FIRST_BACKOFF_MS;
        while (session.running()) {
            ConsumerRecords<byte[], byte[]> records = session.poll(consumer, POLL);
            if (records.isEmpty()) {
                continue;
            }
            poll++;
            PollBatch batch = PollBatch.of(records);
            Written written;
            try {
                written = write(batch, poll);
            } catch (SQLException e) {
                counters.dbErrors++;
                counters.uncommitted = records.count();
                LOG.warn("database transaction failed ({}); rolled back, re-reading the poll in {} ms", e.toString(), backoffMs);
                closeDb();
                for (TopicPartition tp : records.partitions()) {
                    consumer.seek(tp, records.records(tp).get(0).offset());
                }
                PollSession.backoff(backoffMs);
                backoffMs = Math.min(backoffMs * 2, MAX_BACKOFF_MS);
                continue;
            }
            backoffMs = FIRST_BACKOFF_MS;
            if (written.skipped > 0) {
                LOG.info("inbox: poll {} skipped {} already-processed records, inserted {}", poll, written.skipped,
                        written.inserted);
            }
            options.crash().maybeCrash(CrashPoint.AFTER_DB_COMMIT, poll, written.detail);
            Map<TopicPartition, OffsetAndMetadata> commit = new HashMap<>();
            for (TopicPartition tp : records.partitions()) {
                commit.put(tp, new OffsetAndMetadata(consumer.position(tp)));
            }
            if (!commit(consumer, commit, counters, () -> !session.running())) {
                counters.uncommitted = records.count();
                break;
            }
            options.crash().maybeCrash(CrashPoint.AFTER_OFFSET_COMMIT, poll, written.detail);
            counters.add(batch, written);
        }
        counters.fetchErrors = session.fetchErrors();
    }

    /**
     * Commits the poll's offsets before the next poll, so that a crash redelivers at most one poll.
     * A retriable failure (coordinator unavailable, timeout) is retried with backoff until it
     * succeeds or the run must stop; a {@link CommitFailedException} (the partitions moved to
     * another member in a rebalance) is not retriable: the new owner re-reads the poll and finds
     * its keys.
     *
     * @return false if the run must stop with the offsets still uncommitted
     */
    private boolean commit(KafkaConsumer<byte[], byte[]> consumer, Map<TopicPartition, OffsetAndMetadata> offsets,
                           Counters counters, BooleanSupplier stop) {
        long backoffMs = FIRST_BACKOFF_MS;
        while (true) {
            try {
                consumer.commitSync(offsets);
                return true;
            } catch (CommitFailedException e) {
                counters.commitErrors++;
                LOG.warn("offset commit refused after the database commit ({}); the poll will be redelivered", e.toString());
                return true;
            } catch (KafkaException e) {
                counters.commitErrors++;
                if (stop.getAsBoolean()) {
                    LOG.warn("offset commit failed ({}); stopping with the poll uncommitted", e.toString());
                    return false;
                }
                LOG.warn("offset commit failed ({}); retrying in {} ms", e.toString(), backoffMs);
                PollSession.backoff(backoffMs);
                backoffMs = Math.min(backoffMs * 2, MAX_BACKOFF_MS);
            }
        }
    }

    /** One poll's database transaction; commits it, or throws with nothing committed. */
    private Written write(PollBatch batch, long poll) throws SQLException {
        Connection connection = connection();
        try {
            InboxStore store = new InboxStore(connection, options.topic());
            List<LedgerEntry> rows;
            int trimmed = 0;
            if (options.mode() == InboxMode.INBOX) {
                Set<String> processed = store.processed(batch.keys());
                rows = batch.fresh(processed);
                store.insertLedger(rows);
                store.insertKeys(rows);
                trimmed = store.trim(options.keep());
            } else {
                rows = batch.entries();
                store.insertLedger(rows);
            }
            String detail = "poll=" + poll + " txid=" + (options.crash().armedFor(poll) ? store.txid() : -1)
                    + " records=" + batch.records() + " rows=" + rows.size();
            options.crash().maybeCrash(CrashPoint.MID_TRANSACTION, poll, detail);
            connection.commit();
            return new Written(rows.size(), batch.entries().size() - rows.size(), trimmed, detail);
        } catch (SQLException | RuntimeException e) {
            rollbackQuietly(connection);
            throw e;
        }
    }

    private Connection connection() throws SQLException {
        if (db == null) {
            Connection connection = DriverManager.getConnection(options.jdbcUrl(), options.user(), options.password());
            try {
                connection.setAutoCommit(false);
                new InboxStore(connection, options.topic()).createTables(options.mode());
                connection.commit();
            } catch (SQLException e) {
                connection.close();
                throw e;
            }
            db = connection;
        }
        return db;
    }

    private void closeDb() {
        if (db != null) {
            try {
                db.close();
            } catch (SQLException e) {
                LOG.warn("cannot close the database connection: {}", e.toString());
            }
            db = null;
        }
    }

    private static void rollbackQuietly(Connection connection) {
        try {
            connection.rollback();
        } catch (SQLException e) {
            LOG.warn("rollback failed (the server rolls back when the connection closes): {}", e.toString());
        }
    }

    private Properties consumerProperties() {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, options.bootstrapServers());
        props.put(ConsumerConfig.GROUP_ID_CONFIG, options.groupId());
        props.put(ConsumerConfig.CLIENT_ID_CONFIG, options.groupId() + "-" + options.mode().cliName());
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, options.isolation());
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, Integer.toString(options.commitSize()));
        if (options.instanceId() != null) {
            props.put(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, options.instanceId());
        }
        if (options.sessionTimeout() != null) {
            props.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, Long.toString(options.sessionTimeout().toMillis()));
        }
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        return props;
    }


    private record Written(int inserted, int skipped, int trimmed, String detail) {
    }

    private static final class Counters {
        long polls;
        long records;
        long inserted;
        long skipped;
        long tombstones;
        long trimmed;
        long dbErrors;
        long commitErrors;
        long fetchErrors;
        long uncommitted;

        void add(PollBatch batch, Written written) {
            polls++;
            records += batch.records();
            tombstones += batch.tombstones();
            inserted += written.inserted;
            skipped += written.skipped;
            trimmed += written.trimmed;
            uncommitted = 0;
        }
    }
}
