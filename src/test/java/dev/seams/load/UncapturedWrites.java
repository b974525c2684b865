package dev.seams.load;

import dev.seams.truth.Pg;

/**
 * WAL that no slot's publication captures (claim B14 "wal retention"): rows written into a table outside every
 * publication, in batches of one transaction each, while the captured table stays idle. pgoutput (PostgreSQL 15+)
 * sends a slot nothing for them, not even an empty transaction, so only a heartbeat lets the slot move past them.
 */
public final class UncapturedWrites {

    /** The table written: in no publication (the shipped connector's is {@code FOR TABLE orders}). */
    public static final String TABLE = "seams_wal_filler";
    /** Bytes of padding per row: with the row's overhead about 1 KiB of WAL per row. */
    static final int PAD_BYTES = 1000;

    private UncapturedWrites() {
    }

    /**
     * Writes {@code batches} transactions of {@code rows} rows each.
     *
     * @param pg      the source database
     * @param batches transactions
     * @param rows    rows per transaction
     * @return the bytes of WAL the server's position moved by meanwhile
     * @throws IllegalStateException if PostgreSQL refuses
     */
    public static long write(Pg pg, int batches, int rows) {
        pg.execute("CREATE TABLE IF NOT EXISTS " + TABLE + " (id bigserial PRIMARY KEY, pad text NOT NULL)");
        long from = walPosition(pg);
        for (int i = 0; i < batches; i++) {
            pg.execute("INSERT INTO " + TABLE + " (pad) SELECT repeat(md5(g::text), " + (PAD_BYTES / 32) + ") "
                    + "FROM generate_series(1, " + rows + ") g");
        }
        return walPosition(pg) - from;
    }

    /** Drops the table (its WAL is recycled once no slot holds it back). */
    public static void drop(Pg pg) {
        pg.execute("DROP TABLE IF EXISTS " + TABLE);
    }

    private static long walPosition(Pg pg) {
        return pg.longs("SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::bigint").get(0);
    }
}
