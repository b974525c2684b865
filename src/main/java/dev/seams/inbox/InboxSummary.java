package dev.seams.inbox;

/**
 * What one inbox sink run did, as counted by itself (claim B4).
 *
 * @param polls        non-empty polls, each one database transaction when it succeeded
 * @param records      records polled and committed, row-less deletions included
 * @param inserted     ledger rows inserted (one per change)
 * @param skipped      changes not inserted because their change key was already processed (mode
 *                     inbox: re-sends the keys table caught; always 0 in mode plain)
 * @param redelivered  changes not inserted because the database's stored offsets were already
 *                     beyond them (mode inbox: Kafka redeliveries, excluded exactly)
 * @param tombstones   row-less deletions (a tombstone or the JSON value null): no row
 * @param trimmed      keys deleted by the trim
 * @param dbErrors     database transactions that failed and were rolled back
 * @param commitErrors failed Kafka offset commit attempts after a database commit (retried, or left
 *                     to the new owner after a rebalance)
 * @param fetchErrors  polls that failed retriably
 * @param uncommitted  records of a poll whose database transaction (or, in mode plain, offset
 *                     commit) had still not succeeded when the run ended; 0 after a clean run
 * @param mode         the mode's command-line name
 * @param commitSize   records per poll
 * @param keep         the keys table's bound
 */
public record InboxSummary(long polls, long records, long inserted, long skipped, long redelivered, long tombstones,
                           long trimmed, long dbErrors, long commitErrors, long fetchErrors, long uncommitted,
                           String mode, int commitSize, int keep) {

    /** The first word of the summary line. */
    public static final String LINE_PREFIX = "inbox: records=";

    /**
     * @return the closing line, e.g. {@code inbox: records=5000 inserted=5000 skipped=0 redelivered=0
     *     tombstones=0 trimmed=4700 polls=50 db_errors=0 commit_errors=0 fetch_errors=0 uncommitted=0
     *     (mode=inbox, commit-size=100, keep=300)}
     */
    public String line() {
        return LINE_PREFIX + records + " inserted=" + inserted + " skipped=" + skipped + " redelivered=" + redelivered
                + " tombstones=" + tombstones + " trimmed=" + trimmed + " polls=" + polls + " db_errors=" + dbErrors
                + " commit_errors=" + commitErrors + " fetch_errors=" + fetchErrors + " uncommitted=" + uncommitted
                + " (mode=" + mode + ", commit-size=" + commitSize + ", keep=" + keep + ")";
    }
}
