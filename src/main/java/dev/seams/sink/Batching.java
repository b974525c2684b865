package dev.seams.sink;

import java.time.Duration;
import java.util.Objects;

/**
 * How many polls one ClickHouse insert gathers ({@code --batch-rows}, {@code --batch-wait};
 * issue 13 P2). The sink accumulates polled records and writes them in one insert per table once
 * {@code rows} records are gathered or the oldest of them has waited {@code maxWait}, whichever comes
 * first; the offsets of every accumulated poll are committed only after that insert was
 * acknowledged (at-least-once unchanged). Fewer, larger inserts cost ClickHouse less (one part per
 * insert) and cost freshness up to {@code maxWait}.
 *
 * @param rows records that trigger the insert, >= 0; 0 writes every poll on its own (the default)
 * @param maxWait longest time the oldest accumulated record waits for its insert, >= 0
 */
public record Batching(int rows, Duration maxWait) {

    /** Every poll is its own insert (the default). */
    public static final Batching PER_POLL = new Batching(0, Duration.ZERO);
    /** Default of {@code --batch-wait} when {@code --batch-rows} is given: 1 s. */
    public static final Duration DEFAULT_WAIT = Duration.ofSeconds(1);

    /**
     * @throws IllegalArgumentException if rows or wait is negative
     * @throws NullPointerException     if wait is null
     */
    public Batching {
        Objects.requireNonNull(maxWait, "maxWait");
        if (rows < 0 || maxWait.isNegative()) {
            throw new IllegalArgumentException("--batch-rows and --batch-wait must not be negative, got " + rows + " and " + maxWait);
        }
    }

    /**
     * @param accumulated records gathered so far, >= 1
     * @param waited      how long the oldest of them has waited
     * @return whether they are to be written now
     */
    public boolean due(long accumulated, Duration waited) {
        return rows == 0 || accumulated >= rows || waited.compareTo(maxWait) >= 0;
    }
}
