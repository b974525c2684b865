package dev.seams.truth;

import com.clickhouse.client.api.Client;
import com.clickhouse.client.api.ServerException;
import com.clickhouse.client.api.query.QueryResponse;
import com.clickhouse.client.api.query.QuerySettings;
import com.clickhouse.data.ClickHouseFormat;
import dev.seams.sink.ClickHouseTarget;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Test-side reads of the stand's ClickHouse: fixed SQL (no user values), TSV results, decimals read
 * through {@code toString()} so they compare exactly with PostgreSQL.
 */
public final class ClickHouse {

    private final ClickHouseTarget target;

    private ClickHouse(ClickHouseTarget target) {
        this.target = target;
    }

    /**
     * @param target the ClickHouse server, database and credentials (the stand's: {@code stand.clickhouseTarget()})
     * @return a reader of that ClickHouse
     */
    public static ClickHouse of(ClickHouseTarget target) {
        return new ClickHouse(target);
    }

    /** @return this reader with another connect and socket timeout per query (a sampler that must not hang on a frozen server) */
    public ClickHouse withTimeout(java.time.Duration timeout) {
        return new ClickHouse(target.withTimeout(timeout));
    }



    /**
     * Runs every {@code *.sql} file of the directory in name order; statements are separated by
     * lines holding only {@code ;}.
     */
    public void runScript(Path dir) {
        try (Stream<Path> files = Files.list(dir)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".sql")).sorted().toList()) {
                statements(Files.readString(file)).forEach(this::execute);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * @param script statements separated by lines holding only {@code ;}, with {@code --} comment lines
     * @return its statements in order, comment lines and empty statements left out
     */
    public static java.util.List<String> statements(String script) {
        java.util.List<String> statements = new java.util.ArrayList<>();
        for (String statement : script.split("(?m)^;\\s*$")) {
            String sql = statement.lines().filter(l -> !l.trim().startsWith("--")).reduce("", (a, b) -> a + "\n" + b).trim();
            if (!sql.isEmpty()) {
                statements.add(sql);
            }
        }
        return statements;
    }

    /**
     * Runs a statement and waits for it.
     *
     * @throws ServerException with ClickHouse's error code if the server refuses it
     */
    public void execute(String sql) {
        rows(sql);
    }

    /**
     * @return the rows of a query, each a list of TSV fields
     * @throws ServerException with ClickHouse's error code if the server refuses the query
     */
    public List<List<String>> rows(String sql) {
        return rows(sql, Map.of());
    }

    /**
     * Runs a query with server settings sent as HTTP parameters (every version accepts them there;
     * a server that does not know a setting refuses the query with code 115, UNKNOWN_SETTING).
     *
     * @param settings setting name → value, e.g. {@code optimize_on_insert → 0} (G5, G6)
     * @return the rows of the query, each a list of TSV fields
     * @throws ServerException with ClickHouse's error code if the server refuses the query
     */
    public List<List<String>> rows(String sql, Map<String, String> settings) {
        QuerySettings querySettings = new QuerySettings().setFormat(ClickHouseFormat.TabSeparated);
        // the target's database as the HTTP parameter every version reads: client-v2 sends it as the header
        // X-ClickHouse-Database only, which 18.16 ignores (its unqualified names then reach `default`: an external
        // stand's run would read and empty tables that are not its own)
        querySettings.serverSetting("database", target.database());
        settings.forEach(querySettings::serverSetting);
        try (Client client = target.open();
             QueryResponse response = client.query(sql, querySettings).get(120, TimeUnit.SECONDS);
             InputStream in = response.getInputStream()) {
            String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            List<List<String>> rows = new ArrayList<>();
            for (String line : text.split("\n")) {
                if (!line.isEmpty()) {
                    rows.add(Arrays.asList(line.split("\t", -1)));
                }
            }
            return rows;
        } catch (ExecutionException e) {
            if (e.getCause() instanceof ServerException se) {
                throw se;
            }
            throw new IllegalStateException("query failed: " + sql, e.getCause());
        } catch (ServerException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException("query failed: " + sql, e);
        }
    }

    /** @return the single number a query returns */
    public long scalar(String sql) {
        return Long.parseLong(rows(sql).get(0).get(0));
    }

    /** @return the single decimal a query returns (pass {@code toString(...)} for exactness) */
    public BigDecimal decimal(String sql) {
        return new BigDecimal(rows(sql).get(0).get(0));
    }

    /**
     * Creates (or empties) a scratch database holding empty copies of the stand's tables, for a
     * sink run that must not touch the real ones (e.g. a negative control's twin, B10, B11).
     *
     * @param database a name of {@code [a-z_0-9]+}
     * @param tables   tables of the stand's database to copy, structure and engine, no rows
     * @return where a sink writes into them ({@link dev.seams.sink.SinkOptions#withClickhouse})
     */
    public ClickHouseTarget scratch(String database, String... tables) {
        if (!database.matches("[a-z_0-9]+")) {
            throw new IllegalArgumentException("not a database name: " + database);
        }
        execute("CREATE DATABASE IF NOT EXISTS " + database);
        for (String table : tables) {
            execute("DROP TABLE IF EXISTS " + database + "." + table);
            execute("CREATE TABLE " + database + "." + table + " AS " + target.database() + "." + table);
        }
        return target.withDatabase(database);
    }

    /** Empties the tables. */
    public void truncate(String... tables) {
        for (String table : tables) {
            execute("TRUNCATE TABLE " + table);
        }
    }

    /**
     * @param sql a query returning (customer_id, orders, total as text)
     * @return customer id → (orders, total)
     */
    public Map<Long, Totals> perCustomer(String sql) {
        Map<Long, Totals> result = new TreeMap<>();
        for (List<String> row : rows(sql)) {
            result.put(Long.parseLong(row.get(0)), new Totals(Long.parseLong(row.get(1)), new BigDecimal(row.get(2))));
        }
        return result;
    }

    /** @return {@code customer_totals FINAL}, per customer */
    public Map<Long, Totals> finalTotals() {
        return perCustomer("SELECT customer_id, orders, toString(total) FROM customer_totals FINAL ORDER BY customer_id");
    }

    /** @return {@code argMax(…, version)} over {@code raw_totals}, per customer — what FINAL does, by hand */
    public Map<Long, Totals> argMaxTotals() {
        return perCustomer("SELECT customer_id, argMax(orders, version), toString(argMax(total, version)) "
                + "FROM raw_totals GROUP BY customer_id ORDER BY customer_id");
    }

    /**
     * @return ClickHouse's error code of a refused query: the exception's code where the server sent
     *     the {@code X-ClickHouse-Exception-Code} header, else the {@code Code: N} that opens the
     *     server's message (18.16 sends no such header)
     */
    public static int errorCode(ServerException e) {
        if (e.getCode() != 0) {
            return e.getCode();
        }
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("^Code: (\\d+)").matcher(String.valueOf(e.getMessage()));
        return m.find() ? Integer.parseInt(m.group(1)) : 0;
    }

    /**
     * @param name a setting name, e.g. {@code optimize_on_insert}
     * @return whether this server has the setting ({@code system.settings}; G6 probes instead of
     *     assuming a version)
     */
    public boolean hasSetting(String name) {
        if (!name.matches("[a-z_0-9]+")) {
            throw new IllegalArgumentException("not a setting name: " + name);
        }
        return scalar("SELECT count() FROM system.settings WHERE name = '" + name + "'") == 1;
    }

    /** @return the server's version string */
    public String version() {
        return rows("SELECT version()").get(0).get(0);
    }
}
