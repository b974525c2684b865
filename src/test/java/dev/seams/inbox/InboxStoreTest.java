package dev.seams.inbox;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Proxy;
import java.math.BigDecimal;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The statements the inbox sink's store sends (claim B4), read from a recording JDBC connection —
 * no database: what each statement does to real data is measured by InboxIT (B4[window],
 * B4[upstream re-send]).
 */
class InboxStoreTest {

    private static LedgerEntry entry(String key, Long lsn, long offset) {
        return new LedgerEntry(key, 42, 1, new BigDecimal("10.00"), "u", lsn, false, 0, offset);
    }

    @Test
    void theTrimKeepsTheKeysOfTheNewestChangesBySourceLsnNotTheLastInserted() throws Exception {
        Recorder db = new Recorder();

        new InboxStore(db.connection(), "orders.events").trim(300);

        Sql trim = db.only();
        assertThat(trim.sql()).isEqualTo("DELETE FROM processed_keys_orders_events WHERE id IN (SELECT id FROM "
                + "processed_keys_orders_events ORDER BY source_lsn DESC NULLS LAST, id DESC OFFSET ?)");
        assertThat(trim.params()).containsEntry(1, 300);
    }

    @Test
    void eachKeyIsStoredWithItsChangesSourceLsn() throws Exception {
        Recorder db = new Recorder();

        new InboxStore(db.connection(), "orders.events").insertKeys(List.of(entry("42@100:u", 100L, 7), entry("t-0@8", null, 8)));

        Sql insert = db.only();
        assertThat(insert.sql()).startsWith("INSERT INTO processed_keys_orders_events (msg_key, source_lsn, source_partition, "
                + "source_offset) SELECT m, l, p, o FROM unnest(?::text[], ?::bigint[], ?::int[], ?::bigint[])");
        assertThat(insert.params()).containsEntry(1, List.of("42@100:u", "t-0@8"));
        assertThat(insert.params().get(2)).isEqualTo(Arrays.asList(100L, null));
        assertThat(insert.params()).containsEntry(4, List.of(7L, 8L));
    }

    @Test
    void aKeysTableOfAnEarlierReleaseGetsTheLsnColumnAndTheNewestFirstIndex() throws Exception {
        Recorder db = new Recorder();

        new InboxStore(db.connection(), "orders.events").createTables(InboxMode.INBOX);

        assertThat(db.statements()).extracting(Sql::sql).contains(
                "ALTER TABLE processed_keys_orders_events ADD COLUMN IF NOT EXISTS source_lsn bigint",
                "CREATE INDEX IF NOT EXISTS processed_keys_orders_events_newest ON processed_keys_orders_events "
                        + "(source_lsn DESC NULLS LAST, id DESC)");
    }

    @Test
    void theIndexNameFitsPostgresIdentifiers() {
        String longest = InboxStore.keysTable("t".repeat(48));

        assertThat(longest).hasSize(63);
        assertThat(InboxStore.newestIndex(longest)).hasSize(63).endsWith("_newest");
        assertThat(InboxStore.newestIndex("processed_keys_orders_events")).isEqualTo("processed_keys_orders_events_newest");
    }

    /**
     * One statement sent: its SQL and bound parameters (index → value; an array as the list of its elements).
     *
     * @param sql    the SQL text
     * @param params bound parameters
     */
    record Sql(String sql, Map<Integer, Object> params) {
    }

    /** A JDBC connection that records every statement and answers every update with 0 rows. */
    static final class Recorder {

        private final List<Sql> statements = new ArrayList<>();

        List<Sql> statements() {
            return statements;
        }

        Sql only() {
            assertThat(statements).hasSize(1);
            return statements.get(0);
        }

        Connection connection() {
            return proxy(Connection.class, (method, args) -> switch (method) {
                case "prepareStatement" -> prepared((String) args[0]);
                case "createStatement" -> plain();
                case "createArrayOf" -> proxy(Array.class, (m, a) -> "getArray".equals(m) ? args[1] : null);
                default -> null;
            });
        }

        private PreparedStatement prepared(String sql) {
            Sql recorded = new Sql(sql, new TreeMap<>());
            statements.add(recorded);
            return proxy(PreparedStatement.class, (method, args) -> switch (method) {
                case "setInt", "setLong", "setString" -> recorded.params().put((Integer) args[0], args[1]);
                case "setArray" -> recorded.params().put((Integer) args[0], Arrays.asList((Object[]) ((Array) args[1]).getArray()));
                case "executeUpdate" -> 0;
                default -> null;
            });
        }

        private Statement plain() {
            return proxy(Statement.class, (method, args) -> {
                if ("execute".equals(method)) {
                    statements.add(new Sql((String) args[0], Map.of()));
                    return false;
                }
                return null;
            });
        }

        private interface Answer {
            Object answer(String method, Object[] args) throws Exception;
        }

        private static <T> T proxy(Class<T> type, Answer answer) {
            return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type},
                    (p, method, args) -> answer.answer(method.getName(), args)));
        }
    }
}
