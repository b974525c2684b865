package dev.seams.streams;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.function.BiConsumer;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The uncaught exception handler of ds-streams: a stream thread that dies is replaced
 * ({@code REPLACE_THREAD}) at most {@code max} times within a sliding {@code window}; the next death
 * within the window shuts the client down ({@code SHUTDOWN_CLIENT}: state ERROR, the process exits
 * 1, a supervisor restarts it with its state directory) with one log line saying so. A thread that
 * keeps dying on the same record is therefore not replaced forever (issue 11; G14 recovers the
 * restarted process). Before a replacement, the dying thread's name goes to a hook: with static
 * membership, {@link StaticMemberRemoval} removes its member from the group so that the replacement
 * does not wait for the dead member's session timeout (issue 12). Thread-safe: stream threads may die
 * concurrently.
 */
public final class ThreadReplacements implements StreamsUncaughtExceptionHandler {

    /** Default replacements allowed within {@link #DEFAULT_WINDOW}. */
    public static final int DEFAULT_MAX = 3;
    /** Default window of the count. */
    public static final Duration DEFAULT_WINDOW = Duration.ofMinutes(10);

    private static final Logger LOG = LoggerFactory.getLogger(ThreadReplacements.class);

    private final int max;
    private final Duration window;
    private final Clock clock;
    private final BiConsumer<String, Throwable> beforeReplace;
    private final Deque<Instant> replaced = new ArrayDeque<>();

    /**
     * @param max    replacements allowed within the window, >= 0
     * @param window the sliding window, > 0
     * @throws IllegalArgumentException for a negative max or a non-positive window
     */
    public ThreadReplacements(int max, Duration window) {
        this(max, window, (name, death) -> { }, Clock.systemUTC());
    }

    /**
     * @param max           replacements allowed within the window, >= 0
     * @param window        the sliding window, > 0
     * @param beforeReplace called with the dying stream thread's name and what killed it before {@code REPLACE_THREAD} is
     *                      answered (e.g. {@link StaticMemberRemoval}); must not throw
     * @throws IllegalArgumentException for a negative max or a non-positive window
     */
    public ThreadReplacements(int max, Duration window, BiConsumer<String, Throwable> beforeReplace) {
        this(max, window, beforeReplace, Clock.systemUTC());
    }

    ThreadReplacements(int max, Duration window, BiConsumer<String, Throwable> beforeReplace, Clock clock) {
        if (max < 0 || window.isZero() || window.isNegative()) {
            throw new IllegalArgumentException("need max >= 0 and a positive window, got " + max + " and " + window);
        }
        this.max = max;
        this.window = window;
        this.beforeReplace = beforeReplace;
        this.clock = clock;
    }

    /**
     * @param exception what killed the stream thread
     * @return {@code REPLACE_THREAD} while fewer than {@code max} replacements happened within the
     *     window, else {@code SHUTDOWN_CLIENT}; before {@code REPLACE_THREAD} the hook is called with the
     *     current thread's name (Kafka Streams calls this handler on the dying stream thread)
     */
    @Override
    public synchronized StreamThreadExceptionResponse handle(Throwable exception) {
        Instant now = clock.instant();
        while (!replaced.isEmpty() && !replaced.peekFirst().isAfter(now.minus(window))) {
            replaced.pollFirst();
        }
        if (replaced.size() < max) {
            replaced.addLast(now);
            LOG.error("stream thread died, replacing it ({} of {} replacements within {})", replaced.size(), max, window,
                    exception);
            beforeReplace.accept(Thread.currentThread().getName(), exception);
            return StreamThreadExceptionResponse.REPLACE_THREAD;
        }
        LOG.error("stream thread died {} times within {}: not replacing it again, shutting the client down (exit 1)",
                max + 1, window, exception);
        return StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
    }
}
