package dev.seams.truth;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * ClickHouse's own account of a table's parts ({@code system.parts}, {@code system.part_log}; source section
 * "Идемпотентное состояние на стоке и ReplacingMergeTree", the part_log experiment; claims G5, G6): which parts are
 * active, which parts inserts wrote (NewPart) and merges produced (MergeParts), and what a merge collapsed. The
 * event type is read as a number: 18.16 names it NEW_PART/MERGE_PARTS, current servers NewPart/MergeParts.
 */
public final class ClickHouseParts {

    /** {@code event_type} of a part an insert wrote. */
    public static final int NEW_PART = 1;
    /** {@code event_type} of a part a merge produced. */
    public static final int MERGE_PARTS = 2;
    /** The columns of a table of part events ({@link PartEvent#cells()}). */
    public static final List<String> PART_LOG_COLUMNS = List.of("event_time", "table", "part_name", "rows", "event_type", "merged_from");

    private ClickHouseParts() {
    }

    /** One row of {@code system.part_log}: a part written by an insert (NewPart) or by a merge (MergeParts). */
    public record PartEvent(String time, String table, int type, String typeName, String part, long rows, List<String> mergedFrom) {
        /** @return the event as a row of {@link #PART_LOG_COLUMNS} */
        public List<Object> cells() {
            return List.of(time, table, part, rows, typeName, mergedFrom.isEmpty() ? "" : String.join(", ", mergedFrom));
        }
    }

    public static List<String> activeParts(ClickHouse ch, String table) {
        return ch.rows("SELECT name FROM system.parts WHERE database = currentDatabase() AND table = '" + table
                + "' AND active ORDER BY name").stream().map(r -> r.get(0)).toList();
    }

    /**
     * Reads NewPart (1) and MergeParts (2) events of the tables since a server time. The event type is
     * compared as a number: 18.16 names it NEW_PART/MERGE_PARTS, current servers NewPart/MergeParts.
     */
    public static List<PartEvent> partLog(ClickHouse ch, String since, String... tables) {
        String names = String.join("', '", tables);
        List<PartEvent> events = new ArrayList<>();
        for (List<String> r : ch.rows("SELECT toString(event_time), table, CAST(event_type AS Int8), toString(event_type), part_name, "
                + "rows, arrayStringConcat(merged_from, ',') FROM system.part_log WHERE database = currentDatabase() "
                + "AND table IN ('" + names + "') AND event_time >= toDateTime('" + since + "') "
                + "AND CAST(event_type AS Int8) IN (" + NEW_PART + ", " + MERGE_PARTS + ") "
                + "ORDER BY event_time, CAST(event_type AS Int8), table, part_name")) {
            events.add(new PartEvent(r.get(0), r.get(1), Integer.parseInt(r.get(2)), r.get(3), r.get(4), Long.parseLong(r.get(5)),
                    r.get(6).isEmpty() ? List.of() : List.of(r.get(6).split(","))));
        }
        return events;
    }

    /** @return (part name, rows) of the table's NewPart events, by part name */
    public static List<List<Object>> newParts(List<PartEvent> events, String table) {
        return events.stream().filter(ev -> ev.table().equals(table) && ev.type() == NEW_PART)
                .sorted(Comparator.comparing(PartEvent::part))
                .map(ev -> List.<Object>of(ev.part(), ev.rows())).toList();
    }

    public static PartEvent producing(List<PartEvent> events, String table, String part) {
        return mergeInto(events, table, part).orElseThrow();
    }

    /**
     * @return the table's last merge whose result is the part, if the events hold one (parts of different tables may
     *     have the same name: the table is part of the match)
     */
    public static java.util.Optional<PartEvent> mergeInto(List<PartEvent> events, String table, String part) {
        return events.stream().filter(ev -> ev.table().equals(table) && ev.type() == MERGE_PARTS && ev.part().equals(part))
                .reduce((a, b) -> b);
    }

    /**
     * @return each merge of the table whose result has fewer rows than its source parts together, as
     *     text; merges are taken by level (the last number of a part name), so a merge's sources are known first
     */
    public static List<String> mergeLosses(List<PartEvent> events, String table) {
        Map<String, Long> rows = new HashMap<>();
        List<String> losses = new ArrayList<>();
        List<PartEvent> ofTable = events.stream().filter(ev -> ev.table().equals(table))
                .sorted(Comparator.comparingInt(PartEvent::type)
                        .thenComparingLong(ev -> Long.parseLong(ev.part().substring(ev.part().lastIndexOf('_') + 1))))
                .toList();
        for (PartEvent ev : ofTable) {
            if (ev.type() == MERGE_PARTS) {
                long in = ev.mergedFrom().stream().mapToLong(p -> {
                    Long r = rows.get(p);
                    if (r == null) {
                        throw new IllegalStateException("part_log has no event for " + table + "." + p + ", merged into " + ev.part());
                    }
                    return r;
                }).sum();
                if (ev.rows() < in) {
                    losses.add(ev.part() + ": " + in + " → " + ev.rows() + " rows");
                }
            }
            rows.put(ev.part(), ev.rows());
        }
        return losses;
    }
}
