package dev.seams.inbox;

/**
 * How the inbox sink writes a poll into PostgreSQL (claim B4, seed 001).
 *
 * <ul>
 *   <li>{@link #INBOX}: exactly-once. Per poll, in ONE database transaction: the ledger rows of the
 *       records whose key is not yet in the processed-keys table, those keys, and the trim of the
 *       keys table to the keys of its newest {@code keep} changes by source LSN; then the Kafka offsets.</li>
 *   <li>{@link #PLAIN}: the unprotected twin, at-least-once: every record of the poll is inserted
 *       into the ledger in one database transaction, then the offsets are committed. A crash
 *       between the two commits inserts the poll's rows again after the restart (the negative
 *       control of B4).</li>
 * </ul>
 */
public enum InboxMode {
    INBOX("inbox"),
    PLAIN("plain");

    private final String cliName;

    InboxMode(String cliName) {
        this.cliName = cliName;
    }

    /** @return the mode's name on the command line and in the summary line */
    public String cliName() {
        return cliName;
    }

    /**
     * @param name {@code inbox} or {@code plain}
     * @return the mode
     * @throws IllegalArgumentException for any other name
     */
    public static InboxMode fromCliName(String name) {
        for (InboxMode mode : values()) {
            if (mode.cliName.equals(name)) {
                return mode;
            }
        }
        throw new IllegalArgumentException("unknown inbox mode '" + name + "' (expected inbox or plain)");
    }
}
