package dev.seams.faults;

import dev.seams.truth.ClickHouse;
import dev.seams.truth.RunNames;
import dev.seams.truth.Topics;
import dev.seams.wire.CustomerTotals;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.TopicPartition;

/**
 * Every snapshot the sink inserted into {@code customer_totals}, kept (claim B5, issue 21 "reconciliation
 * that cannot heal"): {@code customer_totals FINAL} holds each customer's last snapshot only, so a
 * snapshot lost in the middle of a run is invisible there once a later one arrives, and {@code raw_totals}
 * is a different insert of the sink. A materialized view on {@code customer_totals} copies each inserted
 * row's (customer, version) into a plain MergeTree as the insert happens, before any merge replaces it;
 * {@link #missing} then names the committed {@code customer.totals} records of the run whose
 * (customer, version) never reached {@code customer_totals}. Created before the run, dropped by
 * {@link #close()}.
 */
public final class SnapshotLedger implements AutoCloseable {

    /** The ledger table. */
    public static final String TABLE = "b5_snapshot_ledger";
    private static final String VIEW = TABLE + "_mv";

    private final ClickHouse ch;

    private SnapshotLedger(ClickHouse ch) {
        this.ch = ch;
    }

    /**
     * Creates the ledger and its view, empty (a previous run's are dropped first).
     *
     * @param ch the stand's ClickHouse
     * @return the ledger, recording from now on
     */
    public static SnapshotLedger start(ClickHouse ch) {
        SnapshotLedger ledger = new SnapshotLedger(ch);
        ledger.close();
        ch.execute("CREATE TABLE " + TABLE + " (customer_id Int64, version UInt64) ENGINE = MergeTree ORDER BY (customer_id, version)");
        ch.execute("CREATE MATERIALIZED VIEW " + VIEW + " TO " + TABLE + " AS SELECT customer_id, version FROM customer_totals");
        return ledger;
    }

    /**
     * @param topics the stand's topics
     * @param from   the run's first offsets of {@code customer.totals}
     * @return the committed records of {@code customer.totals} from {@code from} whose (customer, version) is not in the
     *     ledger, as {@code partition@offset customer/version}
     */
    public List<String> missing(Topics topics, Map<TopicPartition, Long> from) {
        Set<String> stored = new HashSet<>();
        ch.rows("SELECT customer_id, version FROM " + TABLE).forEach(r -> stored.add(r.get(0) + "/" + r.get(1)));
        List<String> missing = new ArrayList<>();
        topics.readFrom(RunNames.CUSTOMER_TOTALS, "read_committed", from, r -> {
            if (r.value() == null) {
                return;
            }
            CustomerTotals t;
            try {
                t = CustomerTotals.fromJson(r.value());
            } catch (RuntimeException notASnapshot) {   // a bad payload is the DLQ's claim (G10, G11), not a snapshot
                return;
            }
            if (!stored.contains(t.customerId() + "/" + t.version())) {
                missing.add(r.partition() + "@" + r.offset() + " " + t.customerId() + "/" + t.version());
            }
        });
        return missing;
    }

    /** @return rows the ledger holds */
    public long rows() {
        return ch.scalar("SELECT count() FROM " + TABLE);
    }

    /** Drops the view and the ledger (the view first: no insert into customer_totals writes to a dropped table). */
    @Override
    public void close() {
        ch.execute("DROP TABLE IF EXISTS " + VIEW);
        ch.execute("DROP TABLE IF EXISTS " + TABLE);
    }
}
