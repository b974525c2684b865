package dev.seams.sink;

import dev.seams.consumer.Classification;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.function.Supplier;

/**
 * The one batch whose write (its inserts, then its dead letters) runs while the sink reads and maps the
 * next poll (issue 26: reading and mapping a poll no longer waits for the previous insert, the largest
 * share of a drain). The write is a future the {@link ClickHouseWriter}'s request threads complete: no
 * thread stands between the polling thread and the requests, which saves two thread wake-ups per batch
 * on the way out and back (docs/performance.md). At most one write is in flight: the next one starts only after
 * {@link #await()} returned this one's outcome, and the sink commits a batch's offsets only after that
 * outcome was a success (claim B5), batch after batch in order. Used by one thread, the sink's polling
 * thread.
 *
 * @param <T> what the sink keeps of the batch meanwhile (its records, its offsets, its rows)
 */
final class InFlightWrite<T> implements AutoCloseable {

    /** What became of the write: {@code failure} null when it was acknowledged. */
    record Outcome<T>(T batch, WriteFailedException failure) {
    }

    private T batch;
    private Future<?> write;

    /**
     * Starts a batch's write.
     *
     * @param batch what the sink keeps of it, given back by {@link #await()}
     * @param write starts the write and returns its future, which fails with {@link WriteFailedException} when
     *              ClickHouse or the DLQ refuses it
     * @throws IllegalStateException if a write is already in flight (the new one is not started)
     */
    void start(T batch, Supplier<? extends Future<?>> write) {
        if (this.write != null) {
            throw new IllegalStateException("a write is already in flight");
        }
        this.batch = batch;
        this.write = write.get();
    }

    /** @return whether no write is in flight */
    boolean isEmpty() {
        return write == null;
    }

    /**
     * Waits for the write in flight (bounded: each request has its own timeout, {@link ClickHouseWriter}).
     *
     * @return its outcome, or null if none was in flight; anything the write threw other than a
     *     {@link WriteFailedException} (a bug, an interrupted test-only delay) is a permanent failure of the
     *     batch, so that the sink rewinds and stops as for one, never carrying on past it
     */
    Outcome<T> await() {
        if (write == null) {
            return null;
        }
        T done = batch;
        Future<?> f = write;
        batch = null;
        write = null;
        try {
            f.get();
            return new Outcome<>(done, null);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Outcome<>(done, new WriteFailedException("waiting for a write", Classification.permanent("interrupted"), e));
        } catch (ExecutionException e) {
            if (e.getCause() instanceof WriteFailedException w) {
                return new Outcome<>(done, w);
            }
            return new Outcome<>(done, new WriteFailedException("a write", Classification.permanent("unexpected "
                    + e.getCause()), e.getCause()));
        }
    }

    /** Lets the write in flight, if any, end before the writer's request threads stop (its outcome unread: the sink reads it first). */
    @Override
    public void close() {
        await();
    }
}
