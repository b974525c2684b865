package dev.seams.it;

import dev.seams.report.ClaimEvidence;
import dev.seams.truth.ClickHouse;

/**
 * Scratch tables of the engine claims (G5, G6 in {@code EnginesIT}, G6[version tie] in {@code VersionTieIT}): each
 * test creates its own tables {@code AS raw_totals} or {@code AS customer_totals} (same columns, same engine), drops
 * them first, and reads them back through FINAL and argMax; the server's version and its {@value #SETTING} are
 * recorded, never assumed.
 */
final class ScratchTables {

    /** The setting that collapses duplicates within one insert on current servers (ClickHouse 18.16 has none). */
    static final String SETTING = "optimize_on_insert";
    /** The columns an INSERT into a scratch table names. */
    static final String COLUMNS = "(customer_id, orders, total, version)";

    private ScratchTables() {
    }

    /**
     * Drops and creates scratch tables {@code CREATE TABLE name AS like}, in pairs.
     *
     * @return the server's clock before the tables existed, for part_log reads
     */
    static String recreate(ClickHouse ch, String... nameAndLike) {
        String now = ch.rows("SELECT toString(now())").get(0).get(0);
        for (int i = 0; i < nameAndLike.length; i += 2) {
            ch.execute("DROP TABLE IF EXISTS " + nameAndLike[i]);
            ch.execute("CREATE TABLE " + nameAndLike[i] + " AS " + nameAndLike[i + 1]);
        }
        return now;
    }

    /** @return the query of the table's rows through FINAL: customer_id, orders, total, by customer */
    static String finalSql(String table) {
        return "SELECT customer_id, orders, toString(total) FROM " + table + " FINAL ORDER BY customer_id";
    }

    /** @return the query of the table's latest row per customer by argMax over the version: customer_id, orders, total */
    static String argMaxSql(String table) {
        return "SELECT customer_id, argMax(orders, version), toString(argMax(total, version)) FROM " + table
                + " GROUP BY customer_id ORDER BY customer_id";
    }

    /** Records the server's version and whether it has optimize_on_insert; @return whether it has */
    static boolean recordServer(ClaimEvidence e, ClickHouse ch) {
        e.figure("server_version", ch.version());
        boolean exists = e.figure("setting_exists", ch.hasSetting(SETTING));
        if (exists) {
            e.figure("setting_default", ch.rows("SELECT value FROM system.settings WHERE name = '" + SETTING + "'").get(0).get(0));
        }
        return exists;
    }
}
