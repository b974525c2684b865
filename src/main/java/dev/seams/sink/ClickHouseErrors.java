package dev.seams.sink;

import com.clickhouse.client.api.ClientMisconfigurationException;
import com.clickhouse.client.api.ConnectionInitiationException;
import com.clickhouse.client.api.DataTransferException;
import com.clickhouse.client.api.ServerException;
import dev.seams.consumer.Classification;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.UnknownHostException;
import java.util.Map;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;

/**
 * The error classes of a ClickHouse insert through client-v2 (docs/sink.md; claim B5).
 * The rules are tried in this order, each against the whole cause chain (outside in); the first
 * rule that matches anywhere decides:
 * <ol>
 *   <li>a {@link ServerException} (the server answered with an error): retriable if client-v2
 *       itself classifies its code as retryable ({@link ServerException#isRetryable()}: 3, 107, 159
 *       TIMEOUT_EXCEEDED, 164, 202 TOO_MANY_SIMULTANEOUS_QUERIES, 203, 209 SOCKET_TIMEOUT, 210
 *       NETWORK_ERROR, 241 MEMORY_LIMIT_EXCEEDED, 242 TABLE_IS_READ_ONLY, 252 TOO_MANY_PARTS, 285,
 *       319, 425, 999), or if it carries no ClickHouse code and the HTTP status is 502, 503 or 504
 *       (server unavailable, e.g. behind a proxy); every other code is permanent — e.g. 16
 *       NO_SUCH_COLUMN_IN_TABLE, 60 UNKNOWN_TABLE, 53 TYPE_MISMATCH, 27/117 a value the column
 *       cannot take, 321 VALUE_IS_OUT_OF_RANGE_OF_DATA_TYPE, 192/193/516 authentication, 497
 *       ACCESS_DENIED: {@code server error 60 (unknown table)};</li>
 *   <li>a timeout — our wait for the acknowledgement ({@link TimeoutException}) or the socket's
 *       ({@link InterruptedIOException}, e.g. a frozen server past {@code --clickhouse-timeout}):
 *       retriable, {@code timeout (SocketTimeoutException: Read timed out)};</li>
 *   <li>no connection ({@link ConnectionInitiationException}, {@link ConnectException} — connection
 *       refused —, {@link NoRouteToHostException}, {@link UnknownHostException}): retriable,
 *       {@code cannot connect (ConnectException: Connection refused)};</li>
 *   <li>the request or response broke off ({@link DataTransferException}, any {@link IOException}):
 *       retriable, {@code transfer failed (...)};</li>
 *   <li>anything else (e.g. {@link ClientMisconfigurationException}, a serialization bug): permanent,
 *       {@code unclassified (ClassName: message)}.</li>
 * </ol>
 */
public final class ClickHouseErrors {

    /** Names of the codes an operator meets most, for the log line (ClickHouse's ErrorCodes.cpp). */
    private static final Map<Integer, String> CODE_NAMES = Map.ofEntries(
            Map.entry(16, "no such column"), Map.entry(27, "cannot parse input"), Map.entry(53, "type mismatch"),
            Map.entry(60, "unknown table"), Map.entry(62, "syntax error"), Map.entry(81, "unknown database"),
            Map.entry(117, "incorrect data"), Map.entry(159, "timeout exceeded"), Map.entry(192, "unknown user"),
            Map.entry(193, "wrong password"), Map.entry(202, "too many simultaneous queries"),
            Map.entry(209, "socket timeout"), Map.entry(210, "network error"), Map.entry(241, "memory limit exceeded"),
            Map.entry(242, "table is read only"), Map.entry(252, "too many parts"),
            Map.entry(321, "value out of range of the data type"), Map.entry(497, "access denied"),
            Map.entry(516, "authentication failed"));

    private ClickHouseErrors() {
    }

    /**
     * @param failure what an insert threw (possibly wrapped in an {@code ExecutionException})
     * @return its class and a short name (see the class comment)
     */
    public static Classification classify(Throwable failure) {
        if (find(failure, t -> t instanceof ServerException) instanceof ServerException server) {
            return server(server);
        }
        Throwable timeout = find(failure, t -> t instanceof TimeoutException || t instanceof InterruptedIOException);
        if (timeout != null) {
            return Classification.retriable("timeout (" + describe(innermost(timeout)) + ")");
        }
        Throwable connect = find(failure, t -> t instanceof ConnectionInitiationException || t instanceof ConnectException
                || t instanceof NoRouteToHostException || t instanceof UnknownHostException);
        if (connect != null) {
            return Classification.retriable("cannot connect (" + describe(innermost(connect)) + ")");
        }
        Throwable transfer = find(failure, t -> t instanceof DataTransferException || t instanceof IOException);
        if (transfer != null) {
            return Classification.retriable("transfer failed (" + describe(innermost(transfer)) + ")");
        }
        return Classification.permanent("unclassified (" + describe(failure) + ")");
    }

    private static Classification server(ServerException e) {
        int code = e.getCode();
        int http = e.getTransportProtocolCode();
        if (code <= 0) {
            return http == 502 || http == 503 || http == 504
                    ? Classification.retriable("server unavailable (HTTP " + http + ")")
                    : Classification.permanent("server error without code (HTTP " + http + ")");
        }
        String name = "server error " + code + (CODE_NAMES.containsKey(code) ? " (" + CODE_NAMES.get(code) + ")" : "");
        return e.isRetryable() ? Classification.retriable(name) : Classification.permanent(name);
    }

    /** @return the outermost throwable of the cause chain that matches, or null */
    private static Throwable find(Throwable failure, Predicate<Throwable> rule) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (rule.test(t)) {
                return t;
            }
        }
        return null;
    }

    private static Throwable innermost(Throwable t) {
        Throwable inner = t;
        while (inner.getCause() != null && inner.getCause() != inner) {
            inner = inner.getCause();
        }
        return inner;
    }

    private static String describe(Throwable t) {
        return t.getClass().getSimpleName() + (t.getMessage() == null ? "" : ": " + t.getMessage());
    }
}
