package dev.seams.config;

import dev.seams.config.TableDefinitions.Table;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * A setting or table definition the claims show breaking a guarantee (docs/config.md). Each rule is the change one
 * mutant of the catalogue makes to the shipped files ({@link #mutant()}, src/test/resources/dev/seams/mutants/), and
 * prints only while the committed mutation report shows that mutant killed by the rule's claims
 * ({@code mutants/ConfigRuleCatalogTest}): a finding no run confirms is not a rule.
 */
public enum ConfigRule {

    SNAPSHOT_NO_DATA("connector-snapshot-no-data", List.of("B17[existing rows]"), connector(c -> {
        String mode = c.getOrDefault("snapshot.mode", "initial");
        return Set.of("no_data", "never").contains(mode) ? "snapshot.mode=" + mode : null;
    }), "the rows the table holds when the connector is first registered are never read: those orders never reach "
            + "Kafka, and their customers' totals stay behind for good"),

    SLOT_DROP_ON_STOP("connector-slot-drop-on-stop", List.of("B14[graceful stop]"), connector(c ->
            "true".equalsIgnoreCase(c.get("slot.drop.on.stop")) ? "slot.drop.on.stop=true" : null),
            "every graceful stop drops the replication slot; the resumed connector makes a new one at the server's "
                    + "current position, and the changes made while it was stopped are skipped without an error"),

    HEARTBEAT_WITHOUT_ACTION_QUERY("connector-heartbeat-without-action-query", List.of("B14[wal retention]"), connector(c ->
            heartbeats(c) && blank(c.get("heartbeat.action.query"))
                    ? "heartbeat.interval.ms=" + c.get("heartbeat.interval.ms") + " without heartbeat.action.query" : null),
            "with pgoutput on PostgreSQL 15+ empty transactions are skipped: while the captured tables are idle and others "
                    + "are written, the connector's position never moves and the slot holds back every byte of their WAL"),

    HEARTBEAT_ROUTED_INTO_EVENTS("connector-heartbeat-into-orders-topic", List.of("B2", "B14[wal retention]"), connector(c ->
            heartbeats(c) ? routerWithoutPredicate(c) : null),
            "the router applies to every record the connector emits: the heartbeat records land in the table's topic, "
                    + "where its consumers read them as bad records"),

    OFFSET_MISMATCH_TRUST_SLOT("connector-offset-mismatch-trust-slot", List.of("B14[slot dropped]"), connector(c ->
            "trust_slot".equals(c.get("offset.mismatch.strategy")) ? "offset.mismatch.strategy=trust_slot" : null),
            "the log position check is skipped: a connector whose slot was dropped creates a new one at the server's "
                    + "current position and streams on, RUNNING, the changes in between lost"),

    DECIMAL_PRECISE("connector-decimal-precise", List.of("G1", "G2"), connector(c -> {
        String mode = c.getOrDefault("decimal.handling.mode", "precise");
        return "precise".equals(mode) ? "decimal.handling.mode=precise" + (c.containsKey("decimal.handling.mode") ? ""
                : " (Debezium's default)") : null;
    }), "numeric amounts arrive as base64-encoded unscaled bytes in JSON, which no consumer reads as money"),

    DELETES_DROPPED("connector-deletes-dropped", List.of("B3", "B11"), connector(ConfigRule::deletesDropped),
            "a DELETE in PostgreSQL never reaches Kafka: the deleted order stays counted downstream"),

    DEDUP_TABLE_NOT_REPLACING("ddl-dedup-table-summing", List.of("G3[n=400]", "G3[n=51]"), table("order_dedup", t ->
            !t.engine().endsWith("ReplacingMergeTree") ? "order_dedup ENGINE = " + t.engine() + "(" + t.parameters() + ")" : null),
            "a merge does not keep the newest row of an order: duplicates are summed or kept instead of replaced"),

    RAW_TABLE_DEDUPLICATING("ddl-raw-twin-deduplicating", List.of("G4"), table("raw_totals", t ->
            !t.engine().equals("MergeTree") ? "raw_totals ENGINE = " + t.engine() + "(" + t.parameters() + ")" : null),
            "the raw changelog table deduplicates: the unprotected record of every delivery that duplicate and replay "
                    + "claims count against is gone"),

    TOTALS_WITHOUT_VERSION("ddl-replacing-without-version", List.of("G6[version tie]"), table("customer_totals", t ->
            t.engine().equals("ReplacingMergeTree") && t.parameters().isBlank()
                    ? "customer_totals ENGINE = ReplacingMergeTree() without its version column" : null),
            "a merge or FINAL keeps the row inserted last: a replay or a late redelivery of an older snapshot wins over "
                    + "the newest"),

    TOTALS_NOT_REPLACING("ddl-totals-plain-mergetree", List.of("G5"), table("customer_totals", t ->
            !t.engine().endsWith("ReplacingMergeTree") ? "customer_totals ENGINE = " + t.engine() + "(" + t.parameters() + ")" : null),
            "nothing collapses on merge and FINAL is refused: every snapshot of a customer stays a row"),

    VERSION_IN_SORTING_KEY("ddl-version-in-sorting-key", List.of("B8"), tables(tables -> tables.values().stream()
            .filter(t -> t.engine().endsWith("ReplacingMergeTree") && !t.parameters().isBlank()
                    && t.sortsBy(t.parameters().split(",")[0].strip()))
            .map(t -> t.name() + " ORDER BY (" + t.orderBy() + ") holds its version column " + t.parameters().split(",")[0].strip())
            .findFirst().orElse(null)),
            "rows of one key with different versions are different keys: an UPDATE or DELETE never replaces the older "
                    + "row, and FINAL shows every version");

    private final String mutant;
    private final List<String> claims;
    private final Check check;
    private final String consequence;

    ConfigRule(String mutant, List<String> claims, Check check, String consequence) {
        this.mutant = mutant;
        this.claims = claims;
        this.check = check;
        this.consequence = consequence;
    }

    /** What a rule reads: the connector's settings or the tables; null where the file was not given. */
    record Inputs(Map<String, String> connector, Map<String, Table> tables) {
    }

    /** @return the setting as found ({@code snapshot.mode=no_data}), or empty when the rule does not apply */
    Optional<String> find(Inputs in) {
        return Optional.ofNullable(check.apply(in));
    }

    /** @return the catalogue mutant that makes this change to the shipped files */
    public String mutant() {
        return mutant;
    }

    /** @return the entries that turn red on it (docs/claims.md) */
    public List<String> claims() {
        return claims;
    }

    /** @return what the setting does in production */
    public String consequence() {
        return consequence;
    }

    /** @return whether it reads the connector's settings (else the tables) */
    public boolean readsConnector() {
        return check.connector();
    }

    private static boolean heartbeats(Map<String, String> c) {
        try {
            return Long.parseLong(c.getOrDefault("heartbeat.interval.ms", "0").strip()) > 0;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    private static boolean blank(String value) {
        return value == null || value.isBlank();
    }

    /** @return a RegexRouter of the chain that has no predicate, as {@code transforms.NAME (RegexRouter) without a predicate} */
    private static String routerWithoutPredicate(Map<String, String> c) {
        return transforms(c, ".RegexRouter").stream().filter(t -> blank(c.get("transforms." + t + ".predicate"))).findFirst()
                .map(t -> "transforms." + t + " (RegexRouter) without a predicate, beside heartbeat.interval.ms="
                        + c.get("heartbeat.interval.ms")).orElse(null);
    }

    /** @return the unwrap transform's delete handling when it drops deletes */
    private static String deletesDropped(Map<String, String> c) {
        return transforms(c, ".ExtractNewRecordState").stream().map(t -> "transforms." + t + ".delete.tombstone.handling.mode")
                .filter(key -> "drop".equals(c.get(key))).findFirst().map(key -> key + "=drop").orElse(null);
    }

    /** @return the names in the chain ({@code transforms}) whose {@code type} ends with {@code typeSuffix}, in order */
    private static List<String> transforms(Map<String, String> c, String typeSuffix) {
        return ConnectorSettings.transformsOfType(c, typeSuffix);
    }

    /**
     * A rule's reading of its inputs.
     *
     * @param connector whether it reads the connector's settings (else the tables)
     * @param reading   the setting as found, or null; never called without its input
     */
    private record Check(boolean connector, Function<Inputs, String> reading) {

        String apply(Inputs in) {
            return (connector ? in.connector() : in.tables()) == null ? null : reading.apply(in);
        }
    }

    private static Check connector(Function<Map<String, String>, String> rule) {
        return new Check(true, in -> rule.apply(in.connector()));
    }

    private static Check tables(Function<Map<String, Table>, String> rule) {
        return new Check(false, in -> rule.apply(in.tables()));
    }

    private static Check table(String name, Function<Table, String> rule) {
        return tables(all -> all.containsKey(name) ? rule.apply(all.get(name)) : null);
    }
}
