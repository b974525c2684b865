package dev.seams.faults;

import dev.seams.load.OrderLoad;
import dev.seams.stand.Stand;
import dev.seams.truth.Futures;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * Applies an {@link OrderLoad} to PostgreSQL on a background thread at a steady rate, so that the
 * pipeline is busy from the first change to the last and a fault injected "at 50 % of the load" lands
 * in the middle of real traffic (claim B5). The source keeps producing while a fault is held, as a
 * production database would. Pacing is the one place a wait is a fixed time: the driver parks until
 * the next batch is due (a load generator's clock, not a wait for a condition).
 */
public final class LoadDriver implements AutoCloseable {

    private final OrderLoad load;
    private final AtomicInteger applied = new AtomicInteger();
    private final ExecutorService thread = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "order-load");
        t.setDaemon(true);
        return t;
    });
    private final Future<OrderLoad.Applied> result;
    /** The pace: from {@code since} (nanoTime) on, changes after the first {@code from} are due at {@code perSecond}. */
    private volatile Pace pace;

    private record Pace(long since, int from, double perSecond) {

        long due(int done) {
            return since + (long) ((done - from) / perSecond * 1e9);
        }
    }

    private LoadDriver(Stand stand, OrderLoad load, int batch, double changesPerSecond) {
        this.load = load;
        this.pace = new Pace(System.nanoTime(), 0, positive(changesPerSecond));
        this.result = thread.submit(() -> load.apply(stand, batch, done -> {
            applied.set(done);
            long ahead = pace.due(done) - System.nanoTime();
            if (ahead > 0) {
                LockSupport.parkNanos(ahead);
            }
        }));
    }

    private static double positive(double changesPerSecond) {
        if (!(changesPerSecond > 0)) {
            throw new IllegalArgumentException("the rate must be > 0 changes/s, got " + changesPerSecond);
        }
        return changesPerSecond;
    }

    /**
     * Starts applying the load.
     *
     * @param batch            changes per PG transaction, >= 1
     * @param changesPerSecond target rate, > 0
     * @return the running driver
     */
    public static LoadDriver start(Stand stand, OrderLoad load, int batch, double changesPerSecond) {
        return new LoadDriver(stand, load, batch, changesPerSecond);
    }

    /**
     * Changes the rate from now on, for the changes not applied yet (e.g. slow up to a fault, so that it lands on its
     * point, then fast: B9's kill).
     *
     * @param changesPerSecond the new target rate, > 0
     * @throws IllegalArgumentException if it is not
     */
    public void rate(double changesPerSecond) {
        pace = new Pace(System.nanoTime(), applied.get(), positive(changesPerSecond));
    }

    /** @return the share of the load's changes committed in PG so far, 0..1 */
    public double progress() {
        return applied.get() / (double) load.size();
    }

    /**
     * Waits until every change is committed.
     *
     * @return what was applied
     * @throws IllegalStateException if the load failed or did not finish within the timeout
     */
    public OrderLoad.Applied await(Duration timeout) {
        return Futures.get(result, timeout, "the order load did not complete");
    }

    @Override
    public void close() {
        thread.shutdownNow();
    }
}
