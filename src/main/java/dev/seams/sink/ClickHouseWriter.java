package dev.seams.sink;

import com.clickhouse.client.api.Client;
import com.clickhouse.client.api.DataStreamWriter;
import com.clickhouse.client.api.insert.InsertResponse;
import com.clickhouse.client.api.insert.InsertSettings;
import com.clickhouse.client.api.query.QueryResponse;
import com.clickhouse.client.api.query.QuerySettings;
import com.clickhouse.data.ClickHouseFormat;
import dev.seams.consumer.Classification;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * Batched inserts into ClickHouse: one HTTP request per table per batch, format JSONEachRow, the
 * body built in place by the mapper ({@link RowsBody}) and streamed into the request without a copy
 * (never SQL built from values; docs/sink.md). A batch's tables are inserted concurrently,
 * one request each on its own thread, and the batch counts as written only once every request was
 * acknowledged (issue 13: two sequential inserts per poll were half of the sink's time waiting); the
 * caller is told by a future, not by a thread waiting for the requests ({@link #insertAll}).
 *
 * <p>Decimals are written as plain JSON numbers ({@code 1112.08}), exact, because ClickHouse 18.16
 * does not parse quoted decimals in JSONEachRow.
 *
 * <p>A failed insert throws {@link WriteFailedException} classified by {@link ClickHouseErrors}:
 * retriable (connection refused, timeout, too many parts, memory limit, server unavailable) or
 * permanent (unknown column or table, type mismatch, value out of range, authentication). When
 * one table's insert fails the other's may have succeeded: the batch is not committed and its
 * re-read writes that table's rows again (at-least-once, harmless to FINAL/argMax).
 */
public final class ClickHouseWriter implements AutoCloseable {

    /** Our wait for the acknowledgement beyond the client's own socket timeout. */
    private static final Duration GRACE = Duration.ofSeconds(5);

    private final Client client;
    private final String database;
    private final Duration timeout;
    private final ExecutorService requests;
    private SinkCrash crash = SinkCrash.OFF;

    /**
     * @param client   an open client-v2 client; not closed by this writer
     * @param database the database of the tables; inserts name it explicitly, because client-v2
     *                 sends its default database as the header {@code X-ClickHouse-Database}, which
     *                 ClickHouse 18.16 ignores (rows would land in {@code default})
     * @param timeout  the client's request timeout; the writer waits that plus 5 s for an acknowledgement
     * @param tables   how many tables a batch writes (threads for concurrent requests)
     */
    public ClickHouseWriter(Client client, String database, Duration timeout, int tables) {
        this.client = client;
        this.database = database;
        this.timeout = timeout;
        this.requests = Executors.newFixedThreadPool(Math.max(1, tables), r -> {
            Thread t = new Thread(r, "sink-insert");
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * FAULT INJECTION, TEST-ONLY (claim B5): arms {@link SinkCrash.Point#MID_INSERT}, which stops the
     * process with the batch's first table's request half sent.
     *
     * @return this
     */
    public ClickHouseWriter withCrash(SinkCrash value) {
        this.crash = value;
        return this;
    }

    /**
     * Starts each table's insert in its own request, concurrently, on this writer's request threads, and
     * returns at once: the caller (the sink's polling thread) reads the next poll meanwhile and is woken by
     * the last acknowledgement, with no thread of its own between them (issue 26).
     *
     * @param bodies table → its rows, in the mapper's table order; empty bodies are skipped
     * @return completes once every request was acknowledged; or, after every request ended, exceptionally
     *     with the {@link WriteFailedException} of the first table (in that order) whose insert failed
     */
    public CompletableFuture<Void> insertAll(Map<String, RowsBody> bodies) {
        List<CompletableFuture<Long>> acks = new ArrayList<>();
        String cut = crash.armed(SinkCrash.Point.MID_INSERT) ? bodies.entrySet().stream()
                .filter(en -> !en.getValue().isEmpty()).map(Map.Entry::getKey).findFirst().orElse(null) : null;
        bodies.forEach((table, rows) -> acks.add(CompletableFuture.supplyAsync(() -> insert(table, rows, table.equals(cut)),
                requests)));
        return CompletableFuture.allOf(acks.toArray(CompletableFuture[]::new)).handle((all, failed) -> {
            if (failed == null) {
                return null;
            }
            for (CompletableFuture<Long> ack : acks) {   // every request ended: the first failure in table order
                Throwable e = ack.handle((rows, error) -> error).join();
                if (e != null) {
                    Throwable cause = e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
                    throw cause instanceof WriteFailedException w ? w
                            : new WriteFailedException("insert", ClickHouseErrors.classify(cause), cause);
                }
            }
            throw new IllegalStateException("a failed insert that no table's request reports", failed);
        });
    }

    /**
     * Inserts the rows in one request and waits for the server's acknowledgement.
     *
     * @param table the target table
     * @param rows  its rows, field names = column names
     * @return rows the server reports written
     * @throws WriteFailedException if the request fails or times out (nothing may be committed then),
     *                              classified by {@link ClickHouseErrors}
     */
    public long insert(String table, RowsBody rows) {
        return insert(table, rows, false);
    }

    private long insert(String table, RowsBody rows, boolean cut) {
        if (rows.isEmpty()) {
            return 0;
        }
        String qualified = "`" + database + "`.`" + table + "`";
        String what = "insert of " + rows.rows() + " rows into " + table;
        DataStreamWriter body = !cut ? rows::writeTo : out -> {
            int half = rows.bytes() / 2;
            rows.writeTo(out, 0, half);
            out.flush();
            crash.crash(SinkCrash.Point.MID_INSERT, what + ": " + half + " of " + rows.bytes() + " bytes sent, no acknowledgement");
        };
        return acknowledged(what, () -> {
            try (InsertResponse response = client.insert(qualified, body, ClickHouseFormat.JSONEachRow,
                    new InsertSettings()).get(timeout.plus(GRACE).toMillis(), TimeUnit.MILLISECONDS)) {
                return response.getWrittenRows();
            }
        });
    }

    /**
     * Reads the declared types of the tables' columns ({@code system.columns}), for the check that
     * a value fits its column before it is written (claim B15).
     *
     * @param tables the tables a batch writes
     * @return their columns
     * @throws WriteFailedException if the query fails or times out, classified by {@link ClickHouseErrors}
     *                              (a run re-reads its batch after a retriable one, as after a failed insert)
     */
    public TargetColumns columns(List<String> tables) {
        String sql = "SELECT table, name, type FROM system.columns WHERE database = " + quoted(database)
                + " AND table IN (" + String.join(", ", tables.stream().map(ClickHouseWriter::quoted).toList()) + ")";
        String what = "reading the column types of " + tables;
        return acknowledged(what, () -> {
            try (QueryResponse response = client.query(sql, new QuerySettings().setFormat(ClickHouseFormat.TabSeparated))
                    .get(timeout.plus(GRACE).toMillis(), TimeUnit.MILLISECONDS);
                 InputStream in = response.getInputStream()) {
                Map<String, String> types = new HashMap<>();
                for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                    String[] f = line.split("\t", -1);
                    if (f.length == 3) {
                        types.put(f[0] + "." + f[1], f[2]);
                    }
                }
                return new TargetColumns(database, types);
            }
        });
    }

    /**
     * Runs one request and waits for the server's answer.
     *
     * @throws WriteFailedException if it fails or times out, classified by {@link ClickHouseErrors}
     */
    private static <T> T acknowledged(String what, Callable<T> request) {
        try {
            return request.call();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new WriteFailedException(what, Classification.permanent("interrupted"), e);
        } catch (ExecutionException e) {
            throw new WriteFailedException(what, ClickHouseErrors.classify(e.getCause()), e.getCause());
        } catch (Exception e) {
            throw new WriteFailedException(what, ClickHouseErrors.classify(e), e);
        }
    }

    /** @return a ClickHouse string literal (names come from the command line, never from records) */
    private static String quoted(String text) {
        return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'";
    }

    /** Stops the request threads. */
    @Override
    public void close() {
        requests.shutdownNow();
    }
}
