package dev.seams.sink;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

/**
 * FAULT INJECTION, TEST-ONLY (claim B5, "sink kill -9 mid-batch"): stops the sink at a named point
 * of a batch so that a test can SIGKILL it exactly there. Off by default ({@link #OFF}); the CLI
 * arms it with {@code --crash-at after-insert|mid-insert --crash-trigger FILE}.
 *
 * <p>The point fires at the first batch that reaches it after {@code FILE} appeared (the test creates
 * the file at the moment of the load it chose, e.g. 50 %): the sink deletes the file, prints one line
 * {@code sink: crash at POINT: DETAIL} (flushed) and then stands still at that point, waiting to be
 * killed from outside ({@code docker kill}: a JVM that is PID 1 of its container cannot SIGKILL
 * itself, the kernel drops the signal), so the exit status 137 is a real SIGKILL's. A sink nobody
 * kills halts itself after {@value #HALT_AFTER_S} s with status 137 ({@link Runtime#halt}: no
 * commit, no hook), never going on with the batch.
 * <ul>
 *   <li>{@link Point#AFTER_INSERT}: every insert of the batch was acknowledged by ClickHouse, its
 *       offsets not committed: the batch is redelivered after a restart (raw rows beyond the committed
 *       offsets, written twice: the window at-least-once accepts);</li>
 *   <li>{@link Point#MID_INSERT}: the batch's first table's insert request is in flight — half its
 *       body sent and flushed, no acknowledgement — when the process dies (the other tables' requests,
 *       sent concurrently, may have been acknowledged).</li>
 * </ul>
 *
 * @param point   where to stop, or null when off
 * @param trigger the file whose appearance arms the point, or null when off
 */
public record SinkCrash(Point point, Path trigger) {

    /** No crash. */
    public static final SinkCrash OFF = new SinkCrash(null, null);
    /** The first words of the crash line, followed by the point's name. */
    public static final String LINE_PREFIX = "sink: crash at ";
    /** Seconds a stopped sink waits for its SIGKILL before it halts itself with status 137. */
    public static final long HALT_AFTER_S = 120;
    /** The exit status of a process killed by SIGKILL (128 + 9). */
    public static final int SIGKILL_EXIT = 137;

    /** The points of a batch where the sink can be stopped. */
    public enum Point {
        AFTER_INSERT("after-insert"),
        MID_INSERT("mid-insert");

        private final String cliName;

        Point(String cliName) {
            this.cliName = cliName;
        }

        /** @return its command-line name, e.g. {@code after-insert} */
        public String cliName() {
            return cliName;
        }

        /**
         * @param name {@code after-insert} or {@code mid-insert}
         * @return the point
         * @throws IllegalArgumentException for any other name
         */
        public static Point fromCliName(String name) {
            for (Point p : values()) {
                if (p.cliName.equals(name)) {
                    return p;
                }
            }
            throw new IllegalArgumentException("unknown crash point '" + name + "' (expected after-insert or mid-insert)");
        }
    }

    /** @throws IllegalArgumentException if only one of point and trigger is given */
    public SinkCrash {
        if ((point == null) != (trigger == null)) {
            throw new IllegalArgumentException("--crash-at and --crash-trigger go together");
        }
    }

    /** @return whether the point is armed now: this point, and its trigger file exists */
    public boolean armed(Point at) {
        return point == Objects.requireNonNull(at, "at") && Files.exists(trigger);
    }

    /**
     * Stops here if armed ({@link #armed}); otherwise returns at once.
     *
     * @param at     the point the caller has reached
     * @param detail what is in flight, for the crash line, e.g. {@code batch customer.totals-0@120..419};
     *               built only when armed (issue 13 P1: the position text of every batch showed in the profile)
     */
    public void maybeCrash(Point at, Supplier<String> detail) {
        if (armed(at)) {
            crash(at, detail.get());
        }
    }

    /**
     * Stops here unconditionally (the caller checked {@link #armed}): deletes the trigger, prints the
     * crash line and waits to be killed; never returns.
     */
    public void crash(Point at, String detail) {
        try {
            Files.deleteIfExists(trigger);
        } catch (IOException e) {
            // the line still marks the point; a restarted sink with the file present would stop again
        }
        System.out.println(line(at, detail));
        System.out.flush();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(HALT_AFTER_S);
        while (System.nanoTime() < deadline) {
            LockSupport.parkNanos(Duration.ofSeconds(1).toNanos());
        }
        Runtime.getRuntime().halt(SIGKILL_EXIT);
    }

    /** @return the crash line, e.g. {@code sink: crash at after-insert: batch customer.totals-0@10..19} */
    public static String line(Point at, String detail) {
        return LINE_PREFIX + at.cliName() + ": " + detail;
    }
}
