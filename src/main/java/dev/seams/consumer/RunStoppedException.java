package dev.seams.consumer;

import java.util.Objects;

/**
 * A consumer run (the ClickHouse sink or the inbox sink) that stopped because going on cannot
 * help: nothing of the failing batch was committed, and the message names the cause and, for a
 * write, the batch's position ({@code topic-partition@first..last}). The command line turns the
 * {@link Stop} into a distinct exit status (docs/sink.md, "Error classes and exit statuses").
 */
public class RunStoppedException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** Why the run stopped. */
    public enum Stop {
        /** A Kafka error that retrying cannot fix: authorization, unknown topic, invalid offset configuration, fenced instance. */
        FATAL_KAFKA,
        /** A permanent error of the target (ClickHouse, PostgreSQL, the dead-letter topic) writing a batch. */
        PERMANENT_WRITE,
        /** A record the sink cannot process and has no dead-letter topic for (the inbox sink). */
        UNPROCESSABLE_RECORD,
        /**
         * A value the source legitimately holds that a target column cannot hold without rounding
         * (claim B15, {@code sink.TargetTooNarrowException}): the column must be widened first.
         */
        TARGET_TOO_NARROW,
        /** The cluster did not answer within the client's timeout: nothing was read; the run may start again later. */
        UNAVAILABLE
    }

    private final Stop stop;

    /**
     * @param stop    why
     * @param message what happened, where (batch position), and what was not committed
     * @param cause   the underlying failure, or null
     */
    public RunStoppedException(Stop stop, String message, Throwable cause) {
        super(message, cause);
        this.stop = Objects.requireNonNull(stop, "stop");
    }

    /** @return why the run stopped */
    public Stop stop() {
        return stop;
    }
}
