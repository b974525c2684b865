package dev.seams.inbox;

/**
 * Where a TEST-ONLY crash can be injected into one poll of the inbox sink ({@link CrashSwitch}),
 * in the order the points occur (claim B4: each window between the database transaction and the
 * Kafka offset commit must be survived without duplicates or loss; seed 001, "Регламент чтения").
 *
 * <ul>
 *   <li>{@link #MID_TRANSACTION}: the poll's ledger rows, keys and trim were written in the open
 *       database transaction, which was not committed: PostgreSQL rolls it back.</li>
 *   <li>{@link #AFTER_DB_COMMIT}: the database transaction committed, the Kafka offsets were not:
 *       the poll's records are redelivered after a restart (the window the keys table exists for).</li>
 *   <li>{@link #AFTER_OFFSET_COMMIT}: both committed: nothing is redelivered.</li>
 * </ul>
 */
public enum CrashPoint {
    MID_TRANSACTION("mid-transaction"),
    AFTER_DB_COMMIT("after-db-commit"),
    AFTER_OFFSET_COMMIT("after-offset-commit");

    private final String cliName;

    CrashPoint(String cliName) {
        this.cliName = cliName;
    }

    /** @return the point's name on the command line and in the crash line, e.g. {@code after-db-commit} */
    public String cliName() {
        return cliName;
    }

    /**
     * @param name a command-line name ({@code mid-transaction}, {@code after-db-commit} or {@code after-offset-commit})
     * @return the point
     * @throws IllegalArgumentException for any other name
     */
    public static CrashPoint fromCliName(String name) {
        for (CrashPoint point : values()) {
            if (point.cliName.equals(name)) {
                return point;
            }
        }
        throw new IllegalArgumentException("unknown crash point '" + name
                + "' (expected mid-transaction, after-db-commit or after-offset-commit)");
    }

    /** @return {@link #cliName()} */
    @Override
    public String toString() {
        return cliName;
    }
}
