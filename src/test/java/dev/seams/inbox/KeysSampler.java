package dev.seams.inbox;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The largest keys-table size seen by periodic {@code count(*)} reads on one connection in
 * auto-commit mode, i.e. of committed states only (claim B4: the keys table stays bounded by
 * keep-factor × commit-size). Started by {@link LedgerDb#sampleKeys}; samples until closed.
 */
public final class KeysSampler implements AutoCloseable {

    private final ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor();
    private final AtomicLong max = new AtomicLong();
    private final AtomicLong samples = new AtomicLong();
    private final AtomicLong errors = new AtomicLong();
    private final LedgerDb db;
    private Connection connection;

    KeysSampler(LedgerDb db, Duration period) {
        this.db = db;
        executor.scheduleWithFixedDelay(this::sample, 0, period.toMillis(), TimeUnit.MILLISECONDS);
    }

    private void sample() {
        try {
            if (connection == null) {
                connection = db.connect();
            }
            max.accumulateAndGet(db.keysCount(connection), Math::max);
            samples.incrementAndGet();
        } catch (SQLException e) {
            errors.incrementAndGet();
            closeConnection();
        }
    }

    /** @return the largest count seen so far */
    public long max() {
        return max.get();
    }

    /** @return how many samples were taken */
    public long samples() {
        return samples.get();
    }

    /** @return how many samples failed (the database did not answer) */
    public long errors() {
        return errors.get();
    }

    /** Stops sampling (waits up to 10 s for a running sample) and closes the connection. */
    @Override
    public void close() {
        executor.shutdown();
        try {
            executor.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        closeConnection();
    }

    private void closeConnection() {
        if (connection != null) {
            try {
                connection.close();
            } catch (SQLException e) {
                errors.incrementAndGet();
            }
            connection = null;
        }
    }
}
