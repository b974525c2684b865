package dev.seams.consumer;

import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * When an {@link OffsetCommitter}'s deferred offsets are due: at once while the consumer is caught up, and at most
 * once per commit interval while it is behind ({@code --commit-interval}; issue 26). The consumer is behind while its
 * polls come back full ({@code max.poll.records}: more records are waiting); a poll that was not full means it had
 * nothing more at hand. Until the first poll is told, the consumer counts as behind. Not thread-safe: the polling
 * thread's.
 */
final class CommitPacing {

    private final long intervalNanos;
    private final LongSupplier nanoClock;
    private long lastSentNanos;
    private boolean behind = true;

    /**
     * @param interval  how long offsets may wait while the consumer is behind; {@link Duration#ZERO}: never
     * @param nanoClock the clock of the interval, nanoseconds ({@link System#nanoTime()} but in tests)
     * @throws IllegalArgumentException for a negative interval
     */
    CommitPacing(Duration interval, LongSupplier nanoClock) {
        if (interval.isNegative()) {
            throw new IllegalArgumentException("the commit interval must not be negative, got " + interval);
        }
        this.intervalNanos = interval.toNanos();
        this.nanoClock = nanoClock;
        this.lastSentNanos = nanoClock.getAsLong();
    }

    /**
     * @param records        records the poll returned
     * @param maxPollRecords the consumer's {@code max.poll.records}
     * @return whether the consumer is caught up now (the poll was not full)
     */
    boolean afterPoll(int records, int maxPollRecords) {
        behind = records >= maxPollRecords;
        return !behind;
    }

    /** @return whether deferred offsets are due now; if so, now counts as their send */
    boolean dueNow() {
        long now = nanoClock.getAsLong();
        if (behind && now - lastSentNanos < intervalNanos) {
            return false;
        }
        lastSentNanos = now;
        return true;
    }
}
