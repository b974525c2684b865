package dev.seams.sink;

import com.clickhouse.client.api.Client;
import com.clickhouse.client.api.insert.InsertResponse;
import com.clickhouse.data.ClickHouseFormat;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * Batched inserts into ClickHouse: one HTTP request per table per batch, format JSONEachRow,
 * values serialised by Jackson (never SQL built from values; DESIGN.md "The sink").
 *
 * <p>Decimals are written as plain JSON numbers ({@code 1112.08}), exact, because ClickHouse 18.16
 * does not parse quoted decimals in JSONEachRow.
 *
 * <p>A failed insert throws {@link WriteFailedException} classified by {@link ClickHouseErrors}:
 * retriable (connection refused, timeout, too many parts, memory limit, server unavailable) or
 * permanent (unknown column or table, type mismatch, value out of range, authentication).
 */
public final class ClickHouseWriter {

    private static final ObjectMapper JSON = new ObjectMapper()
            .configure(JsonGenerator.Feature.WRITE_BIGDECIMAL_AS_PLAIN, true);
    /** Our wait for the acknowledgement beyond the client's own socket timeout. */
    private static final Duration GRACE = Duration.ofSeconds(5);

    private final Client client;
    private final String database;
    private final Duration timeout;

    /**
     * @param client   an open client-v2 client; not closed by this writer
     * @param database the database of the tables; inserts name it explicitly, because client-v2
     *                 sends its default database as the header {@code X-ClickHouse-Database}, which
     *                 ClickHouse 18.16 ignores (rows would land in {@code default})
     * @param timeout  the client's request timeout; the writer waits that plus 5 s for an acknowledgement
     */
    public ClickHouseWriter(Client client, String database, Duration timeout) {
        this.client = client;
        this.database = database;
        this.timeout = timeout;
    }

    /** @return a fresh JSON object for one row, to be filled by the caller */
    public static ObjectNode newRow() {
        return JSON.createObjectNode();
    }

    /**
     * Inserts the rows in one request and waits for the server's acknowledgement.
     *
     * @param table the target table
     * @param rows  rows, one JSON object each, field names = column names
     * @return rows the server reports written
     * @throws WriteFailedException if the request fails or times out (nothing may be committed then),
     *                              classified by {@link ClickHouseErrors}
     */
    public long insert(String table, List<ObjectNode> rows) {
        if (rows.isEmpty()) {
            return 0;
        }
        ByteArrayOutputStream body = new ByteArrayOutputStream(rows.size() * 64);
        try {
            for (ObjectNode row : rows) {
                JSON.writeValue(body, row);
                body.write('\n');
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        String qualified = "`" + database + "`.`" + table + "`";
        String what = "insert of " + rows.size() + " rows into " + table;
        try (InsertResponse response = client.insert(qualified, new ByteArrayInputStream(body.toByteArray()),
                ClickHouseFormat.JSONEachRow).get(timeout.plus(GRACE).toMillis(), TimeUnit.MILLISECONDS)) {
            return response.getWrittenRows();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new WriteFailedException(what, Classification.permanent("interrupted"), e);
        } catch (ExecutionException e) {
            throw new WriteFailedException(what, ClickHouseErrors.classify(e.getCause()), e.getCause());
        } catch (Exception e) {
            throw new WriteFailedException(what, ClickHouseErrors.classify(e), e);
        }
    }
}
