package dev.seams.sink;

import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The lifetime of one consumer run, shared by the ClickHouse sink and the inbox sink: it ends
 * after {@code --for}, or after {@code --until-idle} with nothing to read, the idle clock starting
 * once the group assigned partitions (DESIGN.md "The sink"). A failed poll is logged and counted
 * as a fetch error, and the run goes on.
 */
public final class PollSession {

    private static final Logger LOG = LoggerFactory.getLogger(PollSession.class);

    private final Duration runFor;
    private final Duration untilIdle;
    private final Instant started = Instant.now();
    private Instant lastActivity;
    private long fetchErrors;

    /**
     * @param runFor    stop this long after the start; null to stop on idleness instead
     * @param untilIdle stop after this long with nothing read (used when runFor is null)
     * @throws IllegalArgumentException if both are null
     */
    public PollSession(Duration runFor, Duration untilIdle) {
        if (runFor == null && untilIdle == null) {
            throw new IllegalArgumentException("one of --for and --until-idle must be given");
        }
        this.runFor = runFor;
        this.untilIdle = untilIdle;
    }

    /**
     * Subscribes the consumer to the topic; the idle clock starts at the first assignment.
     *
     * @param onAssigned called with every assignment before the clock check (e.g. to seek), may do nothing
     */
    public void subscribe(KafkaConsumer<byte[], byte[]> consumer, String topic,
                          Consumer<Collection<TopicPartition>> onAssigned) {
        consumer.subscribe(List.of(topic), new ConsumerRebalanceListener() {
            @Override
            public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
                onAssigned.accept(partitions);
                if (lastActivity == null) {
                    lastActivity = Instant.now();
                }
            }

            @Override
            public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
            }
        });
    }

    /** @return whether the run should go on: --for not elapsed, or not idle for --until-idle */
    public boolean running() {
        Instant now = Instant.now();
        if (runFor != null) {
            return !now.isAfter(started.plus(runFor));
        }
        return lastActivity == null || !now.isAfter(lastActivity.plus(untilIdle));
    }

    /**
     * Polls once; a non-empty result resets the idle clock.
     *
     * @param timeout how long the poll may block
     * @return the records, or none if the poll failed (counted in {@link #fetchErrors()})
     */
    public ConsumerRecords<byte[], byte[]> poll(KafkaConsumer<byte[], byte[]> consumer, Duration timeout) {
        ConsumerRecords<byte[], byte[]> records;
        try {
            records = consumer.poll(timeout);
        } catch (KafkaException e) {
            fetchErrors++;
            LOG.warn("fetch failed: {}", e.toString());
            return ConsumerRecords.empty();
        }
        if (!records.isEmpty()) {
            lastActivity = Instant.now();
        }
        return records;
    }

    /**
     * Waits before a failed batch is re-read (both sinks back off the same way).
     *
     * @param ms milliseconds to wait
     * @throws IllegalStateException if interrupted (the interrupt flag is set again)
     */
    public static void backoff(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while backing off", e);
        }
    }

    /** @return polls that failed so far */
    public long fetchErrors() {
        return fetchErrors;
    }
}
