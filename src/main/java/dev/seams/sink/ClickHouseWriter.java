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
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Batched inserts into ClickHouse: one HTTP request per table per batch, format JSONEachRow,
 * values serialised by Jackson (never SQL built from values; DESIGN.md "The sink").
 *
 * <p>Decimals are written as plain JSON numbers ({@code 1112.08}), exact, because ClickHouse 18.16
 * does not parse quoted decimals in JSONEachRow.
 */
public final class ClickHouseWriter {

    private static final ObjectMapper JSON = new ObjectMapper()
            .configure(JsonGenerator.Feature.WRITE_BIGDECIMAL_AS_PLAIN, true);

    private final Client client;
    private final String database;

    /**
     * @param client   an open client-v2 client; not closed by this writer
     * @param database the database of the tables; inserts name it explicitly, because client-v2
     *                 sends its default database as the header {@code X-ClickHouse-Database}, which
     *                 ClickHouse 18.16 ignores (rows would land in {@code default})
     */
    public ClickHouseWriter(Client client, String database) {
        this.client = client;
        this.database = database;
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
     * @throws InsertFailedException if the request fails or times out (nothing may be committed then)
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
        try (InsertResponse response = client.insert(qualified, new ByteArrayInputStream(body.toByteArray()),
                ClickHouseFormat.JSONEachRow).get(120, TimeUnit.SECONDS)) {
            return response.getWrittenRows();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InsertFailedException(table, rows.size(), e);
        } catch (ExecutionException | TimeoutException | RuntimeException e) {
            throw new InsertFailedException(table, rows.size(), e);
        } catch (Exception e) {
            throw new InsertFailedException(table, rows.size(), e);
        }
    }

    /** An insert that the server did not acknowledge. */
    public static final class InsertFailedException extends RuntimeException {
        InsertFailedException(String table, int rows, Throwable cause) {
            super("insert of " + rows + " rows into " + table + " failed: " + cause, cause);
        }
    }
}
