package dev.seams.sink;

import com.clickhouse.client.api.Client;
import java.time.temporal.ChronoUnit;

/**
 * Where the sink writes: a ClickHouse HTTP endpoint and credentials.
 *
 * <p>Clients are built with HTTP compression off: client-v2 0.10.0 then works with both Debian's
 * ClickHouse 18.16 (offline profile) and current servers (DESIGN.md).
 *
 * @param endpoint HTTP endpoint, e.g. {@code http://localhost:8123}
 * @param user     ClickHouse user
 * @param password its password (may be empty)
 * @param database database holding the sink's tables
 */
public record ClickHouseTarget(String endpoint, String user, String password, String database) {

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
                .setConnectTimeout(10, ChronoUnit.SECONDS)
                .setSocketTimeout(120, ChronoUnit.SECONDS)
                .build();
    }
}
