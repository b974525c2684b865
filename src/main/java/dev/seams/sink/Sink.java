package dev.seams.sink;

import com.clickhouse.client.api.Client;
import dev.seams.consumer.Backoff;
import dev.seams.consumer.Batches;
import dev.seams.consumer.ErrorClass;
import dev.seams.consumer.OffsetCommitter;
import dev.seams.consumer.OffsetFault;
import dev.seams.consumer.PollSession;
import dev.seams.consumer.Rebalances;
import dev.seams.consumer.RunStoppedException;
import dev.seams.consumer.SinkConsumer;
import dev.seams.wire.DeadLetters;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sink: a Kafka consumer (group {@code ds-sink}, auto-commit off, {@code read_committed} by
 * default) that writes each polled batch into ClickHouse and commits the batch's offsets only after
 * every insert of the batch was acknowledged (at-least-once; docs/sink.md; seed section
 * "Где кончается транзакция Kafka").
 *
 * <p>Per batch: first the ClickHouse inserts of the good records, then the dead letters, each
 * acknowledged; only then the offsets (each partition's {@code position()}, which steps past
 * transaction control markers, so a caught-up read_committed sink shows lag 0 at rest, G12) are
 * committed by the {@link OffsetCommitter} (retried, or left to the new owner after a rebalance —
 * never the end of the run; B12): sent asynchronously, so the next poll and write do not wait for
 * the broker's answer, and, while its polls come back full (a backlog), at most once per
 * {@link SinkOptions#commitInterval()} (the batches written meanwhile go together; once a poll is not
 * full, at once: {@link OffsetCommitter#afterPoll}); an unconfirmed commit is repeated synchronously after the next poll unless
 * newer offsets of its partitions wait to be sent (they supersede it), and everything unconfirmed
 * before partitions are revoked and at the end of the run. After a poll that left nothing unwritten, the
 * positions of assigned partitions that moved over transaction markers only are committed too
 * ({@link OffsetCommitter#commitSkipped()}), so the group's lag at rest is 0 whichever fetch brought
 * the last marker — never while gathered records wait for their write.
 *
 * <p>While its polls come back full (a backlog), a batch's write runs on the writer's request threads while the
 * next poll is read and mapped ({@link InFlightWrite}, issue 26): one write in flight at most, finished —
 * acknowledged and its offsets handed to the committer — before the next batch's write starts, so offsets
 * are still committed only after their write, in order. Once a poll is not full, the write is finished
 * at once, as a caught-up sink writes and commits each batch before its next poll. Before partitions
 * move and at the end of the run the write in flight is finished first; if it failed, whatever was read
 * after it is rewound with it, to be read again after it — at the end of a run too, whose window then
 * opens again (until caught up, until idle), unless it ended by {@code --for} or a stop.
 *
 * <p>A record that cannot be mapped (mode totals: rejected by {@link TotalsValidator}) is logged
 * with topic, partition, offset and reason and becomes a dead letter ({@link DeadLetters}: key and
 * value byte for byte, original headers, {@code dlq-reason}, {@code dlq-origin-*},
 * {@code dlq-failed-at}) in {@link SinkOptions#dlqTopic()} (claims G10, G11; seed section "DLQ:
 * битое событие не роняет пайплайн").
 *
 * <p>With {@link SinkOptions#batching()} ({@code --batch-rows}, {@code --batch-wait}) the polls are
 * gathered ({@link PollAccumulator}) and written as one batch once enough records or the longest
 * wait are reached, at the end of the run window, and before partitions are revoked; the offsets of
 * all of them are committed after that one write was acknowledged, as for a single poll.
 *
 * <p>A failed write commits nothing. Its {@link ErrorClass} decides: retriable (ClickHouse down,
 * paused past {@code --clickhouse-timeout}, too many parts, memory limit; a dead-letter write
 * timing out) — one log line naming the class, the batch is re-read from its first offsets after a
 * {@link Backoff} (200 ms doubling to 5 s), its good rows inserted again (at-least-once, harmless to
 * the FINAL/argMax reads, visible in the raw table); permanent (unknown table or column, type
 * mismatch, value out of range, authentication; a dead letter the topic refuses) — the run stops
 * with {@link RunStoppedException} naming the batch's position. A fatal Kafka error (poll or
 * commit: authorization, unknown topic, invalid offset configuration) stops it as well
 * ({@link PollSession}).
 */
public final class Sink {

    private static final Logger LOG = LoggerFactory.getLogger(Sink.class);
    private static final Duration POLL = Duration.ofMillis(500);

    private final SinkOptions options;
    private final RecordMapper mapper;
    /** The target's columns, read at the run's first write (claim B15); null before. */
    private TargetColumns target;
    /** A stop of a flush inside a rebalance listener, raised when the poll returns; null while none. */
    private RunStoppedException stoppedInRebalance;
    private final Counters counters = new Counters();
    private volatile PollSession session;
    private volatile boolean stopRequested;
    private SinkCrash crash = SinkCrash.OFF;
    private OffsetCommitter committer;
    private PollAccumulator pending;
    /** The batch being written while the next poll is read and mapped (at most one; issue 26). */
    private InFlightWrite<Written> inFlight;
    private long assignedNanos;
    private long lastCommitNanos;

    /** @param options the run's settings */
    public Sink(SinkOptions options) {
        this.options = options;
        this.mapper = switch (options.mode()) {
            case TOTALS -> new TotalsMapper(new TotalsValidator(options.rejects().customers(), options.rejects().maxValueBytes()),
                    !options.faults().skipValidation(), options.faults().offsetAsVersion());
            case DEDUP_DEMO -> new DedupDemoMapper(options.faults().offsetAsVersion());
        };
    }

    /**
     * FAULT INJECTION, TEST-ONLY (claim B5; {@code --crash-at}, {@code --crash-trigger}): stops the
     * process at a point of a batch to be killed there ({@link SinkCrash}). Never in production.
     *
     * @return this
     */
    public Sink withCrash(SinkCrash value) {
        this.crash = value;
        return this;
    }

    /** @return the ClickHouse sink's consumer: client id {@code <group>-<mode>}, {@value SinkConsumer#MAX_POLL_RECORDS} records per poll */
    static Properties consumerProperties(SinkOptions options) {
        return SinkConsumer.properties(options.source(), options.membership(),
                options.membership().groupId() + "-" + options.mode().cliName(), SinkConsumer.MAX_POLL_RECORDS);
    }

    /**
     * Runs one sink session until its run window ends ({@link PollSession}). A batch whose write
     * keeps failing retriably is re-read until then, so neither {@code --until-idle} nor
     * {@code --until-caught-up} ends during such a failure, also of the last batch; {@code --for} and a stop do.
     *
     * @return what the run did
     * @throws RunStoppedException at a permanent write error ({@link RunStoppedException.Stop#PERMANENT_WRITE},
     *                             with the batch's position), a fatal Kafka error
     *                             ({@link RunStoppedException.Stop#FATAL_KAFKA}) or a value its column
     *                             cannot hold without rounding ({@link RunStoppedException.Stop#TARGET_TOO_NARROW},
     *                             claim B15); nothing of the failing batch was committed, also when the
     *                             stop came from a flush before a rebalance; {@link #summary()} has the counts so far
     * @throws org.apache.kafka.common.KafkaException if the consumer or producer cannot be created
     */
    public SinkSummary run() {
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(consumerProperties(options));
             DeadLetterWriter deadLetters = new DeadLetterWriter(options.source().bootstrapServers(),
                     options.membership().groupId() + "-" + options.mode().cliName() + "-dlq", options.source().kafkaConfig());
             Client client = options.clickhouse().open();
             ClickHouseWriter writer = new ClickHouseWriter(client, options.clickhouse().database(),
                     options.clickhouse().timeout(), mapper.tables().size()).withCrash(crash);
             InFlightWrite<Written> writes = new InFlightWrite<>()) {
            inFlight = writes;
            target = null;
            stoppedInRebalance = null;
            session = new PollSession(consumer, options.window());
            if (stopRequested) {
                session.requestStop();
            }
            committer = new OffsetCommitter(consumer, options.commitInterval());
            if (options.faults().offsetFault() == OffsetFault.NO_COMMIT_ON_REVOCATION) {
                committer.skipRevocationCommits();   // FAULT INJECTION, TEST-ONLY (B12's twin)
            }
            session.afterEachPoll(committer::retryPending);
            pending = new PollAccumulator(options.batching(), Clock.systemUTC());
            session.subscribe(options.source().topic(), listener(consumer, writer, deadLetters));
            try {
                consume(consumer, writer, deadLetters);
            } catch (RuntimeException e) {
                countUnsettled(e);
                throw e;
            }
            committer.commitAll();
            // a commit still in flight when the window ended kept commitSkipped() from moving over the
            // last transaction's marker: without this the group's lag at rest stays 1 (G12, B12)
            committer.commitSkipped();
            if (lastCommitNanos != 0) {   // the drain ends when every written record's offset is committed
                lastCommitNanos = System.nanoTime();
            }
        }
        SinkSummary summary = summary();
        LOG.info(summary.line());
        return summary;
    }

    /**
     * Asks a running (or about to run) {@link #run()} to end: it finishes the batch in hand — written
     * and committed — then the consumer leaves the group and {@link #run()} returns its summary
     * ({@link PollSession#requestStop()}). Thread-safe: meant for another thread (an embedding
     * application shutting down; claim B12's second instance leaving the group).
     */
    public void stop() {
        stopRequested = true;
        PollSession current = session;
        if (current != null) {
            current.requestStop();
        }
    }

    /**
     * @return the counts of the current or last run so far (also after a {@link RunStoppedException});
     *     call it from the thread that ran {@link #run()}
     */
    public SinkSummary summary() {
        PollSession s = session;
        Rebalances r = s == null ? null : s.rebalances();
        return new SinkSummary(counters.inserted, counters.bad, counters.tombstones, counters.dlqErrors,
                counters.insertErrors, s == null ? 0 : s.fetchErrors(), options.faults().dup(), options.fromStart(),
                options.mode().cliName(), counters.uncommitted + (committer == null ? 0 : committer.pendingRecords()),
                committer == null ? 0 : committer.errors(), r == null ? 0 : r.rebalances(),
                r == null ? 0 : r.rebalancesMidDrain(), r == null ? 0 : r.revokedMidDrain());
    }

    /**
     * @return how long the run took from the first partition assignment (after the consumer's start
     *     and group join) to the end of the run's closing commits ({@link OffsetCommitter#commitAll()},
     *     then {@link OffsetCommitter#commitSkipped()}): every written record's offset committed, the
     *     same end whatever the commit interval; zero if nothing was written (issue 13 P1: the sink's
     *     drain time)
     */
    public Duration drainTime() {
        return lastCommitNanos == 0 ? Duration.ZERO : Duration.ofNanos(lastCommitNanos - assignedNanos);
    }

    private void consume(Consumer<byte[], byte[]> consumer, ClickHouseWriter writer, DeadLetterWriter deadLetters) {
        Backoff backoff = new Backoff();
        while (true) {
            if (!session.running()) {   // the window closed: the write in flight and the gathered records are written, committed
                if (finish(consumer, writer, deadLetters, backoff) || !session.running()) {
                    return;
                }
                continue;   // a last write failed and was rewound: the run is behind again (until caught up, until idle)
            }
            ConsumerRecords<byte[], byte[]> polled = session.poll(pending.pollTimeout(POLL));
            boolean caughtUp = committer.afterPoll(polled.count(), SinkConsumer.MAX_POLL_RECORDS);   // a full poll: behind, offsets wait for the interval
            pending.add(polled);
            if (stoppedInRebalance != null) {   // a listener must not throw into the poll: the stop is raised here
                throw stoppedInRebalance;
            }
            if (pending.due()) {   // written while the next poll is read, if this one was full
                flush(pending.drain(), consumer, writer, deadLetters, backoff);
            }
            if (caughtUp) {   // not behind: written and committed now, as a caught-up sink must
                settle(consumer, backoff, null);
            }
            if (pending.isEmpty() && inFlight.isEmpty()) {   // nothing read and not written: positions that moved did so over markers only (G12, B12)
                committer.commitSkipped();
            }
        }
    }

    /** @return whether the gathered records and the write in flight were all written (their offsets handed to the committer) */
    private boolean finish(Consumer<byte[], byte[]> consumer, ClickHouseWriter writer, DeadLetterWriter deadLetters, Backoff backoff) {
        boolean started = pending.isEmpty() || flush(pending.drain(), consumer, writer, deadLetters, backoff);
        return settle(consumer, backoff, null) && started;
    }

    /**
     * Maps the gathered records, finishes the write in flight ({@link #settle}), then starts theirs
     * ({@link InFlightWrite}): their offsets are committed once it is acknowledged ({@link #settle}). If the
     * previous write failed, or reading the target's columns did, they are rewound with it for a re-read and
     * no write starts.
     *
     * @return whether their write started
     */
    private boolean flush(ConsumerRecords<byte[], byte[]> records, Consumer<byte[], byte[]> consumer, ClickHouseWriter writer,
                       DeadLetterWriter deadLetters, Backoff backoff) {
        Batch batch;
        try {
            if (target == null) {   // once per run: a column widened while the sink was stopped is seen at its restart
                target = writer.columns(mapper.tables());
            }
            batch = map(records, target);   // while the previous batch's write is in flight
        } catch (WriteFailedException e) {   // reading the column types failed: a ClickHouse request like an insert
            if (settle(consumer, backoff, records)) {
                counters.insertErrors++;
                failed(consumer, records, backoff, e);
            }
            return false;
        } catch (RunStoppedException e) {   // B15: the batch in flight is finished first; nothing of this one written
            if (settle(consumer, backoff, records)) {   // else settle counted it, rewound
                counters.uncommitted = records.count();
            }
            throw e;
        }
        Map<TopicPartition, OffsetAndMetadata> next = Batches.nextOffsets(consumer, records);   // the positions right after this batch
        if (!settle(consumer, backoff, records)) {   // the previous write failed: this batch is read again after it
            return false;
        }
        boolean committedAhead = options.faults().offsetFault() == OffsetFault.COMMIT_BEFORE_WRITE;
        if (committedAhead) {   // FAULT INJECTION, TEST-ONLY (B5's twin): the offsets go before the insert
            committer.commitAsync(next, Batches.counts(records));
        }
        inFlight.start(new Written(records, next, batch, committedAhead), () -> write(batch, writer, deadLetters));
        return true;
    }

    /**
     * Waits for the write in flight, if any, and finishes it: acknowledged — the batch counted and its
     * offsets handed to the {@link OffsetCommitter} (B5: only now); failed — nothing committed, the batch
     * re-read after a backoff or the run stopped ({@link #failed}), and whatever was read after it
     * ({@code readSince}, the gathered polls) rewound to be read again after it.
     *
     * @param readSince a batch read after the one in flight and not yet handed to a write, or null
     * @return whether the write in flight (if any) was acknowledged
     * @throws RunStoppedException if it failed permanently
     */
    private boolean settle(Consumer<byte[], byte[]> consumer, Backoff backoff, ConsumerRecords<byte[], byte[]> readSince) {
        InFlightWrite.Outcome<Written> done = inFlight.await();
        if (done == null) {
            return true;
        }
        Written w = done.batch();
        if (done.failure() != null) {
            long unread = 0;
            for (ConsumerRecords<byte[], byte[]> later : Arrays.asList(readSince, pending.drain())) {
                if (later != null) {   // rewound before the failed batch: a partition in both ends at the failed batch's first offset
                    Batches.rewind(consumer, later);
                    unread += later.count();
                }
            }
            try {
                failed(consumer, w.records(), backoff, done.failure());
            } finally {
                counters.uncommitted += unread;
            }
            return false;
        }
        crash.maybeCrash(SinkCrash.Point.AFTER_INSERT, () -> "batch " + Batches.position(w.records()) + " inserted ("
                + w.batch().inserted + " rows), offsets not committed");
        backoff.reset();
        counters.uncommitted = 0;
        counters.add(w.batch());
        if (!w.committedAhead()) {
            committer.commitAsync(w.next(), Batches.counts(w.records()));
        }
        lastCommitNanos = System.nanoTime();
        return true;
    }

    /**
     * A batch that could not be written: a permanent failure stops the run, a retriable one rewinds
     * the batch for a re-read after the backoff; either way nothing of it is committed.
     *
     * @throws RunStoppedException for a permanent failure ({@link RunStoppedException.Stop#PERMANENT_WRITE})
     */
    private void failed(Consumer<byte[], byte[]> consumer, ConsumerRecords<byte[], byte[]> records, Backoff backoff,
                        WriteFailedException e) {
        if (!e.classification().retriable()) {
            counters.uncommitted = records.count();
            throw new RunStoppedException(RunStoppedException.Stop.PERMANENT_WRITE,
                    e.getMessage() + "; batch " + Batches.position(records) + " not committed", e);
        }
        counters.uncommitted = Batches.reread(consumer, records, backoff, e.getMessage());
    }

    /**
     * At a run's exceptional end: the write in flight, if any, ends and is counted — inserted if it was
     * acknowledged, uncommitted either way: nothing of it is committed, the next run reads it again.
     *
     * @param ending the error that ends the run; a failure of this wait is added to it as suppressed
     */
    private void countUnsettled(RuntimeException ending) {
        try {
            InFlightWrite.Outcome<Written> done = inFlight.await();
            if (done == null) {
                return;
            }
            if (done.failure() == null) {
                counters.add(done.batch().batch());
            }
            counters.uncommitted += done.batch().records().count();
        } catch (RuntimeException e) {
            ending.addSuppressed(e);
        }
    }

    /**
     * Before partitions move: the write in flight and the gathered records are written and committed
     * while this member still owns them; if that fails they are not committed, and those of partitions it
     * keeps are rewound so it re-reads them (the new owner of the others reads from their committed offsets).
     */
    private void flushBeforeRebalance(Consumer<byte[], byte[]> consumer, Collection<TopicPartition> moving,
                                      ClickHouseWriter writer, DeadLetterWriter deadLetters) {
        if (pending.isEmpty() && inFlight.isEmpty()) {
            return;
        }
        ConsumerRecords<byte[], byte[]> records = pending.drain();
        try {
            Backoff backoff = new Backoff();
            if (!records.isEmpty()) {
                flush(records, consumer, writer, deadLetters, backoff);
            }
            settle(consumer, backoff, null);
        } catch (RuntimeException e) {
            LOG.warn("writing the gathered records before partitions {} move failed: {}", moving, e.toString());
            records.partitions().stream().filter(tp -> !moving.contains(tp))
                    .forEach(tp -> consumer.seek(tp, records.records(tp).get(0).offset()));
            if (e instanceof RunStoppedException stop) {   // raised once the poll returns (consume), never swallowed
                stoppedInRebalance = stop;
            }
        }
    }

    /**
     * Starts a batch's write: after the test-only delay ({@link SinkOptions#insertDelay()}, a slow ClickHouse), its
     * inserts, concurrently ({@link ClickHouseWriter#insertAll}), then, once every insert was acknowledged, its dead
     * letters, on the request thread that finished last.
     *
     * @return completes when all of it was acknowledged; exceptionally with the {@link WriteFailedException} of the
     *     first part that failed (counted here: an insert error or a DLQ error)
     */
    private CompletableFuture<Void> write(Batch batch, ClickHouseWriter writer, DeadLetterWriter deadLetters) {
        long delayMs = options.faults().insertDelay().toMillis();
        CompletableFuture<Void> due = delayMs == 0 ? CompletableFuture.completedFuture(null)
                : CompletableFuture.runAsync(() -> { }, CompletableFuture.delayedExecutor(delayMs, TimeUnit.MILLISECONDS));
        return due.thenCompose(ready -> writer.insertAll(batch.rowsByTable))
                .whenComplete((inserted, e) -> {
                    if (e != null) {
                        counters.insertErrors++;
                    }
                })
                .thenRun(() -> {
                    try {
                        deadLetters.write(batch.deadLetters);
                    } catch (WriteFailedException e) {
                        counters.dlqErrors++;
                        throw e;
                    }
                });
    }

    private ConsumerRebalanceListener listener(Consumer<byte[], byte[]> consumer, ClickHouseWriter writer,
                                               DeadLetterWriter deadLetters) {
        Set<TopicPartition> rewound = new HashSet<>();
        ConsumerRebalanceListener commits = committer.listener(partitions -> {
            if (assignedNanos == 0 && !partitions.isEmpty()) {
                assignedNanos = System.nanoTime();
            }
            List<TopicPartition> fresh = partitions.stream().filter(rewound::add).toList();
            if (options.fromStart() && !fresh.isEmpty()) {   // an empty list would rewind every assigned partition
                consumer.seekToBeginning(fresh);
            }
        });
        return new ConsumerRebalanceListener() {
            @Override
            public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
                commits.onPartitionsAssigned(partitions);
            }

            @Override
            public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
                flushBeforeRebalance(consumer, partitions, writer, deadLetters);
                commits.onPartitionsRevoked(partitions);
            }

            @Override
            public void onPartitionsLost(Collection<TopicPartition> partitions) {
                flushBeforeRebalance(consumer, partitions, writer, deadLetters);
                commits.onPartitionsLost(partitions);
            }
        };
    }

    /** @throws RunStoppedException if a value does not fit its column ({@link RunStoppedException.Stop#TARGET_TOO_NARROW}) */
    private Batch map(ConsumerRecords<byte[], byte[]> records, TargetColumns columns) {
        Batch batch = new Batch();
        for (String table : mapper.tables()) {
            batch.rowsByTable.put(table, new RowsBody(records.count()));
        }
        int copies = options.faults().dup() ? 2 : 1;
        for (ConsumerRecord<byte[], byte[]> record : records) {
            try {
                boolean hasRows = false;
                for (int i = 0; i < copies; i++) {
                    hasRows = mapper.map(record, batch.rowsByTable, columns);
                }
                if (hasRows) {
                    batch.inserted += copies;
                } else {
                    batch.tombstones++;
                    LOG.info("tombstone {}-{}@{}: no row", record.topic(), record.partition(), record.offset());
                }
            } catch (TargetTooNarrowException e) {   // B15: stop before the server rounds it; nothing of the batch written
                throw new RunStoppedException(RunStoppedException.Stop.TARGET_TOO_NARROW, "record " + record.topic() + "-"
                        + record.partition() + "@" + record.offset() + ": " + e.getMessage() + "; batch "
                        + Batches.position(records) + " neither written nor committed", e);
            } catch (BadRecordException e) {
                batch.bad++;
                LOG.warn("bad record {}-{}@{}: {}", record.topic(), record.partition(), record.offset(), e.getMessage());
                batch.deadLetters.add(DeadLetters.of(options.rejects().dlqTopic(), record.key(), record.value(), record.timestamp(),
                        record.headers(), e.getMessage(), record.topic(), record.partition(), record.offset(),
                        Instant.now()));
            }
        }
        return batch;
    }

    /** A batch handed to {@link #inFlight}: its records, the positions right after them, its rows and dead letters. */
    private record Written(ConsumerRecords<byte[], byte[]> records, Map<TopicPartition, OffsetAndMetadata> next, Batch batch,
                           boolean committedAhead) {
    }

    private static final class Batch {
        final Map<String, RowsBody> rowsByTable = new LinkedHashMap<>();
        final List<ProducerRecord<byte[], byte[]>> deadLetters = new ArrayList<>();
        long inserted;
        long bad;
        long tombstones;
    }

    private static final class Counters {
        long inserted;
        long bad;
        long tombstones;
        long dlqErrors;
        long insertErrors;
        long uncommitted;

        /** Counts an acknowledged batch's rows: inserted, rejected to the DLQ, tombstones. */
        void add(Batch batch) {
            inserted += batch.inserted;
            bad += batch.bad;
            tombstones += batch.tombstones;
        }
    }
}
