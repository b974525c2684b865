package dev.seams.bench;

import com.clickhouse.client.api.Client;
import com.clickhouse.client.api.insert.InsertResponse;
import com.clickhouse.data.ClickHouseFormat;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The peer of the sink that a hand-written loader would be (issue 13 P1, P2): the same rows, in
 * batches of a given size, each batch one JSONEachRow insert into {@code raw_totals} and one into
 * {@code customer_totals}, from this JVM with client-v2 (the sink's client settings,
 * {@link dev.seams.sink.ClickHouseTarget#open()}). The JSON is written by hand, once per row and
 * table; the timed span covers serialising and inserting every batch.
 */
public final class DirectInsert {

    private DirectInsert() {
    }

    /**
     * @param tables    where to insert ({@link BenchTables#target()})
     * @param rows      the rows
     * @param batchRows rows per insert; {@code rows.size()} for one bulk insert per table
     * @return the wall time of all inserts, nanoseconds (the client opened before)
     */
    public static long run(BenchTables tables, List<ScratchTotals.Row> rows, int batchRows) throws Exception {
        try (Client client = tables.target().open()) {
            long t0 = System.nanoTime();
            for (int from = 0; from < rows.size(); from += batchRows) {
                List<ScratchTotals.Row> batch = rows.subList(from, Math.min(rows.size(), from + batchRows));
                insert(client, BenchTables.RAW, body(batch, true));
                insert(client, BenchTables.FINAL, body(batch, false));
            }
            return System.nanoTime() - t0;
        }
    }

    private static byte[] body(List<ScratchTotals.Row> batch, boolean position) {
        StringBuilder json = new StringBuilder(batch.size() * 96);
        for (ScratchTotals.Row row : batch) {
            json.append("{\"customer_id\":").append(row.totals().customerId())
                    .append(",\"orders\":").append(row.totals().orders())
                    .append(",\"total\":").append(row.totals().total().toPlainString())
                    .append(",\"version\":").append(row.totals().version());
            if (position) {
                json.append(",\"kafka_partition\":").append(row.partition()).append(",\"kafka_offset\":").append(row.offset());
            }
            json.append("}\n");
        }
        return json.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static void insert(Client client, String table, byte[] body) throws Exception {
        try (InsertResponse response = client.insert("`" + BenchTables.DATABASE + "`.`" + table + "`",
                new ByteArrayInputStream(body), ClickHouseFormat.JSONEachRow).get(60, TimeUnit.SECONDS)) {
            response.getWrittenRows();
        }
    }
}
