package dev.seams.bench;

import dev.seams.sink.ClickHouseTarget;
import dev.seams.stand.Stand;
import dev.seams.truth.ClickHouse;

/**
 * The benchmarks' own ClickHouse database {@value #DATABASE}: copies of the sink's tables
 * ({@code raw_totals} MergeTree, {@code customer_totals} ReplacingMergeTree(version), created
 * {@code AS} the stand's, so the DDL of {@code containers/clickhouse} is the one measured), emptied
 * before every contender, so the claims' tables are never touched.
 */
public final class BenchTables {

    /** The database. */
    public static final String DATABASE = "bench";
    /** The sink's two tables, in its insert order. */
    public static final String RAW = "raw_totals";
    /** The ReplacingMergeTree table. */
    public static final String FINAL = "customer_totals";

    private final ClickHouse ch;
    private final ClickHouseTarget target;

    private BenchTables(ClickHouse ch, ClickHouseTarget target) {
        this.ch = ch;
        this.target = target;
    }

    /** Creates the database and the tables if missing. */
    public static BenchTables create(Stand stand) {
        ClickHouse ch = ClickHouse.of(stand.clickhouseTarget());
        ch.execute("CREATE DATABASE IF NOT EXISTS " + DATABASE);
        for (String table : new String[] {RAW, FINAL}) {
            ch.execute("CREATE TABLE IF NOT EXISTS " + DATABASE + "." + table + " AS default." + table);
        }
        ClickHouseTarget t = stand.clickhouseTarget();
        return new BenchTables(ch, new ClickHouseTarget(t.endpoint(), t.user(), t.password(), DATABASE, t.timeout()));
    }

    /** @return where a sink or a direct insert writes: the stand's ClickHouse, database {@value #DATABASE} */
    public ClickHouseTarget target() {
        return target;
    }

    /** @return the stand's ClickHouse */
    public ClickHouse ch() {
        return ch;
    }

    /** Empties both tables. */
    public void truncate() {
        ch.truncate(DATABASE + "." + RAW, DATABASE + "." + FINAL);
    }

    /** @return rows in {@code raw_totals} */
    public long rawRows() {
        return ch.scalar("SELECT count() FROM " + DATABASE + "." + RAW);
    }

    /** @return rows in {@code customer_totals} (before any merge: one per insert of a row) */
    public long finalRows() {
        return ch.scalar("SELECT count() FROM " + DATABASE + "." + FINAL);
    }

    /** @return INSERT queries the server has run since it started ({@code system.events} InsertQuery) */
    public long insertQueries() {
        return ch.scalar("SELECT toInt64(sum(value)) FROM system.events WHERE event = 'InsertQuery'");
    }
}
