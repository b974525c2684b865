package dev.seams.truth;

import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Waits for the future of a client call (Kafka Admin API, producer send, a background load, a Docker reading) with a
 * bound, the one way the harness does so: the thread's interrupt is restored, and a failure, a timeout
 * or an interrupt becomes an {@link IllegalStateException} that says what was asked.
 */
public final class Futures {

    /** The default bound, the Admin client's own {@code default.api.timeout.ms} (60 s). */
    public static final Duration TIMEOUT = Duration.ofSeconds(60);

    private Futures() {
    }

    /** {@link #get(Future, Duration, String)} within {@link #TIMEOUT}. */
    public static <T> T get(Future<T> future, String what) {
        return get(future, TIMEOUT, what);
    }

    /**
     * @param future  the call's future
     * @param timeout how long to wait for it
     * @param what    what was asked, for the error, e.g. {@code cannot describe customer.totals}
     * @return the future's value
     * @throws IllegalStateException {@code what: cause} if the call failed, timed out or the thread was
     *                               interrupted (interrupt restored); the cause is the call's own exception
     */
    public static <T> T get(Future<T> future, Duration timeout, String what) {
        try {
            return future.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(what + ": interrupted", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException(what + ": " + e.getCause(), e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException(what + ": no answer within " + timeout.toSeconds() + " s", e);
        }
    }
}
