package dev.seams.consumer;

/**
 * Bounded exponential backoff between retries of a failed batch write or offset commit (docs/sink.md
 * "Error classes and exit statuses": retriable errors are retried with bounded backoff): 200 ms, doubling, capped at
 * 5,000 ms, back to 200 ms after a success ({@link #reset()}). Used by the ClickHouse sink and the
 * inbox sink alike. Not thread-safe: one per loop.
 */
public final class Backoff {

    /** The first wait, ms. */
    public static final long FIRST_MS = 200;
    /** The longest wait, ms. */
    public static final long MAX_MS = 5_000;

    private long nextMs = FIRST_MS;
    private long attempt;

    /** Creates a backoff at its first step. */
    public Backoff() {
    }

    /** @return the wait the next {@link #sleep()} takes, ms */
    public long nextMs() {
        return nextMs;
    }

    /** @return retries since the last {@link #reset()} (1 during the first wait) */
    public long attempt() {
        return attempt;
    }

    /**
     * Waits {@link #nextMs()} and doubles the next wait up to {@value #MAX_MS} ms.
     *
     * @throws IllegalStateException if interrupted (the interrupt flag is set again)
     */
    public void sleep() {
        long ms = step();
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while backing off", e);
        }
    }

    /** @return the wait of this step, ms, after advancing to the next (what {@link #sleep()} waits) */
    long step() {
        long ms = nextMs;
        attempt++;
        nextMs = Math.min(nextMs * 2, MAX_MS);
        return ms;
    }

    /** Back to the first step after a success. */
    public void reset() {
        nextMs = FIRST_MS;
        attempt = 0;
    }
}
