package dev.seams.sink;

import com.clickhouse.client.api.Client;
import com.clickhouse.client.api.ClientFaultCause;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.Objects;

/**
 * Where the sink writes: a ClickHouse HTTP endpoint, credentials, and how long a request may take.
 *
 * <p>Clients are built with HTTP compression off: client-v2 0.10.0 then works with both Debian's
 * ClickHouse 18.16 (offline profile) and current servers (docs/profiles.md). The client's own retries are
 * off: the sink retries a failed batch itself, one log line per retry ({@link ClickHouseErrors}).
 * {@link #toString()} never shows the password.
 *
 * @param endpoint HTTP endpoint, e.g. {@code http://localhost:8123}
 * @param user     ClickHouse user
 * @param password its password (may be empty)
 * @param database database holding the sink's tables
 * @param timeout  connect and socket (response) timeout of one request ({@code --clickhouse-timeout}),
 *                 > 0: a server that stops answering (paused, overloaded) is detected after this
 *                 long and the insert retried; default {@link #DEFAULT_TIMEOUT}
 */
public record ClickHouseTarget(String endpoint, String user, String password, String database, Duration timeout) {

    /** Default of {@code --clickhouse-timeout}: 30 s, far above a healthy insert of 1,000 rows. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(30);

    /**
     * @throws NullPointerException     if a component is null
     * @throws IllegalArgumentException if the timeout is not positive
     */
    public ClickHouseTarget {
        Objects.requireNonNull(endpoint, "endpoint");
        Objects.requireNonNull(user, "user");
        Objects.requireNonNull(password, "password");
        Objects.requireNonNull(database, "database");
        Objects.requireNonNull(timeout, "timeout");
        if (timeout.isZero() || timeout.isNegative()) {
            throw new IllegalArgumentException("--clickhouse-timeout must be > 0, got " + timeout);
        }
    }

    /** A target with the {@link #DEFAULT_TIMEOUT}. */
    public ClickHouseTarget(String endpoint, String user, String password, String database) {
        this(endpoint, user, password, database, DEFAULT_TIMEOUT);
    }

    /** @return a copy with another request timeout */
    public ClickHouseTarget withTimeout(Duration value) {
        return new ClickHouseTarget(endpoint, user, password, database, value);
    }

    /** @return a copy bound to another database of the same server (e.g. scratch tables of a negative control) */
    public ClickHouseTarget withDatabase(String value) {
        return new ClickHouseTarget(endpoint, user, password, value, timeout);
    }

    /**
     * Opens a client; the caller closes it.
     *
     * @return a client-v2 {@link Client} bound to {@link #database()}
     */
    public Client open() {
        return new Client.Builder()
                .addEndpoint(endpoint)
                .setUsername(user)
                .setPassword(password)
                .setDefaultDatabase(database)
                .compressServerResponse(false)
                .compressClientRequest(false)
                .useHttpCompression(false)
                .setConnectTimeout(timeout.toMillis(), ChronoUnit.MILLIS)
                .setSocketTimeout(timeout.toMillis(), ChronoUnit.MILLIS)
                .setMaxRetries(0)
                .retryOnFailures(ClientFaultCause.None)
                .build();
    }

    /** @return the components, the password masked: {@code ClickHouseTarget[endpoint=…, user=…, password=***, database=…, timeout=PT30S]} */
    @Override
    public String toString() {
        return "ClickHouseTarget[endpoint=" + endpoint + ", user=" + user + ", password="
                + (password.isEmpty() ? "" : "***") + ", database=" + database + ", timeout=" + timeout + "]";
    }
}
