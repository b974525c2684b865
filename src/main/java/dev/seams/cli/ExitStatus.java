package dev.seams.cli;

import dev.seams.consumer.RunStoppedException;
import dev.seams.inbox.CrashSwitch;

/**
 * The exit statuses of every {@code seams} command (docs/sink.md, "Error classes and exit statuses"). Each names one
 * outcome, so a supervisor can tell "run again" from "fix something first"; {@code seams compare} adds its own
 * ({@link CompareCommand}).
 */
public final class ExitStatus {

    /** The run ended normally: every record read was written and its offsets committed. */
    public static final int OK = 0;
    /**
     * The run window ended while a batch was still uncommitted after retriable failures (write or
     * offset commit); the next run re-reads it.
     */
    public static final int UNCOMMITTED = 1;
    /** Invalid command line (unknown option, bad value): picocli's usage error. */
    public static final int USAGE = 2;
    /** A record the sink cannot process and has no dead-letter topic for (inbox); its poll not committed. */
    public static final int UNPROCESSABLE_RECORD = 3;
    /** A fatal Kafka error: authorization, unknown topic, invalid offset configuration, fenced instance id. */
    public static final int FATAL_KAFKA = 4;
    /** A permanent error of the target (ClickHouse, PostgreSQL, the dead-letter topic); the batch's position is printed. */
    public static final int PERMANENT_WRITE = 5;
    /** {@code seams lag --fail-above N}: a group's lag (log end − committed, summed over its partitions) is above N. */
    public static final int LAG_ABOVE = 6;
    /** {@code seams seed}, {@code seams reconcile}: PostgreSQL refused the connection or the statement; nothing written. */
    public static final int PG_REFUSED = 7;
    /** {@code seams slot}: the slot is lost (missing, or {@code wal_status} {@code lost}); recovery is a re-snapshot. */
    public static final int SLOT_LOST = 8;
    /** {@code seams slot}: the slot is at risk ({@code wal_status} {@code unreserved}, or above {@code --max-retained-mib}). */
    public static final int SLOT_AT_RISK = 9;
    /**
     * {@code seams sink}: a value the source legitimately holds does not fit its ClickHouse column without rounding
     * (claim B15, e.g. 3 decimals into {@code Decimal(18, 2)}); the message names the record and the ALTER that
     * widens the column; nothing of its batch was written or committed, so the run after the ALTER carries it.
     */
    public static final int TARGET_TOO_NARROW = 10;
    /** {@code seams check-config}: a setting or table definition the claims show breaking a guarantee was found. */
    public static final int CONFIG_FINDINGS = 11;
    /**
     * A server the command needs did not answer within its timeout (sysexits' EX_UNAVAILABLE): nothing was measured,
     * judged or read; run it again when the server answers ({@code seams lag --timeout}; {@code seams sink} and
     * {@code seams inbox} when the cluster does not answer for the topic's partitions at start).
     */
    public static final int UNAVAILABLE = 69;
    /** An unexpected error (a bug, or an exception no outcome above names): the stack trace on stderr (sysexits' EX_SOFTWARE). */
    public static final int UNEXPECTED = 70;
    /** FAULT INJECTION: the inbox's {@code --crash-at} killed the process with SIGKILL (128 + 9). */
    public static final int CRASHED = CrashSwitch.SIGKILL_EXIT;

    private ExitStatus() {
    }

    /** @return the exit status of a run that stopped for this reason */
    public static int of(RunStoppedException.Stop stop) {
        return switch (stop) {
            case FATAL_KAFKA -> FATAL_KAFKA;
            case PERMANENT_WRITE -> PERMANENT_WRITE;
            case UNPROCESSABLE_RECORD -> UNPROCESSABLE_RECORD;
            case TARGET_TOO_NARROW -> TARGET_TOO_NARROW;
            case UNAVAILABLE -> UNAVAILABLE;
        };
    }
}
