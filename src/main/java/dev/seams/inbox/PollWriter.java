package dev.seams.inbox;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;

/**
 * One poll's database transaction of the inbox sink (claim B4; seed 001, "Регламент чтения и
 * обработки сообщения", with the offsets added). Mode {@link InboxMode#INBOX}, in ONE transaction:
 * <ol>
 *   <li>lock the poll's partitions' stored offsets and drop the entries below them (Kafka
 *       redeliveries: {@link OffsetStore});</li>
 *   <li>drop the entries whose change key is already in the keys table, and repeats within the
 *       poll (Debezium re-sending a change at a new offset: {@link ChangeKeys});</li>
 *   <li>insert the remaining entries' ledger rows and keys (with their source LSNs), trim the keys
 *       table to the keys of its newest {@code keep} changes by source LSN ({@link InboxStore#trim});</li>
 *   <li>store the poll's next offsets; commit.</li>
 * </ol>
 * Mode {@link InboxMode#PLAIN}: insert every entry's ledger row; commit. Anything failing rolls
 * the transaction back and is rethrown.
 */
final class PollWriter {

    private final InboxOptions options;
    private final InboxDatabase database;

    PollWriter(InboxOptions options, InboxDatabase database) {
        this.options = options;
        this.database = database;
    }

    /**
     * @param batch the poll's entries
     * @param next  partition → the consumer's position after the poll
     * @param poll  the 1-based poll number (for the test-only crash switch)
     * @return what was written
     * @throws SQLException if the transaction failed; it was rolled back
     */
    Written write(PollBatch batch, Map<Integer, Long> next, long poll) throws SQLException {
        Connection connection = database.connection();
        try {
            InboxStore store = new InboxStore(connection, options.source().topic());
            List<LedgerEntry> rows = batch.entries();
            int redelivered = 0;
            int resent = 0;
            int trimmed = 0;
            if (options.mode() == InboxMode.INBOX) {
                OffsetStore offsets = database.offsets(connection);
                List<LedgerEntry> beyond = batch.beyond(offsets.lock(next.keySet()));
                redelivered = rows.size() - beyond.size();
                rows = PollBatch.fresh(beyond, store.processed(PollBatch.keys(beyond)));
                resent = beyond.size() - rows.size();
                store.insertLedger(rows);
                store.insertKeys(rows);
                trimmed = store.trim(options.keep());
                offsets.save(next);
            } else {
                store.insertLedger(rows);
            }
            String detail = "poll=" + poll + " txid=" + (options.faults().crash().armedFor(poll) ? store.txid() : -1)
                    + " records=" + batch.records() + " rows=" + rows.size();
            options.faults().crash().maybeCrash(CrashPoint.MID_TRANSACTION, poll, detail);
            connection.commit();
            return new Written(rows.size(), redelivered, resent, trimmed, detail);
        } catch (SQLException | RuntimeException e) {
            database.discard();
            throw e;
        }
    }

    /**
     * @param inserted    ledger rows written
     * @param redelivered entries below the stored offsets (Kafka redeliveries), not written
     * @param resent      entries whose change key was already processed (re-sends), not written
     * @param trimmed     keys deleted by the trim
     * @param detail      the crash line's detail ({@code poll=… txid=… records=… rows=…})
     */
    record Written(int inserted, int redelivered, int resent, int trimmed, String detail) {
    }
}
