package dev.seams.inbox;

import dev.seams.consumer.Classification;
import java.io.IOException;
import java.sql.SQLException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTransientException;
import java.util.Map;
import java.util.Set;

/**
 * The error classes of the inbox sink's PostgreSQL transactions (docs/sink.md), by the
 * SQLState's class (its first two characters, PostgreSQL's Appendix A):
 * <ul>
 *   <li>retriable: {@code 08} connection exception (server down, connection lost), {@code 40}
 *       transaction rollback (serialization failure, deadlock), {@code 53} insufficient resources
 *       (disk full, too many connections), {@code 57} operator intervention (admin shutdown,
 *       cannot connect now) — the poll is rolled back and re-read after a backoff;</li>
 *   <li>permanent: every other class, e.g. {@code 22} data exception (a value out of range),
 *       {@code 23} integrity constraint violation, {@code 42} syntax error or access rule violation
 *       (undefined table, insufficient privilege), {@code 28} invalid authorization, {@code 3D}
 *       unknown database — the run stops, nothing of the poll committed;</li>
 *   <li>without a SQLState: retriable if the driver says so ({@link SQLTransientException},
 *       {@link SQLRecoverableException}) or an {@link IOException} caused it, permanent otherwise.</li>
 * </ul>
 * Names in the log line: e.g. {@code retriable: SQLState 08006 (connection exception)}.
 */
public final class PgErrors {

    private static final Set<String> RETRIABLE_CLASSES = Set.of("08", "40", "53", "57");
    private static final Map<String, String> CLASS_NAMES = Map.of(
            "08", "connection exception", "40", "transaction rollback", "53", "insufficient resources",
            "57", "operator intervention", "22", "data exception", "23", "integrity constraint violation",
            "42", "syntax error or access rule violation", "28", "invalid authorization", "3D", "invalid catalog name");

    private PgErrors() {
    }

    /**
     * @param e what a JDBC call threw
     * @return its class and name (see the class comment)
     */
    public static Classification classify(SQLException e) {
        String state = e.getSQLState();
        if (state != null && state.length() >= 2) {
            String stateClass = state.substring(0, 2);
            String name = "SQLState " + state + (CLASS_NAMES.containsKey(stateClass) ? " (" + CLASS_NAMES.get(stateClass) + ")" : "");
            return RETRIABLE_CLASSES.contains(stateClass) ? Classification.retriable(name) : Classification.permanent(name);
        }
        String name = "no SQLState (" + e.getClass().getSimpleName() + ": " + e.getMessage() + ")";
        if (e instanceof SQLTransientException || e instanceof SQLRecoverableException || e.getCause() instanceof IOException) {
            return Classification.retriable(name);
        }
        return Classification.permanent(name);
    }
}
