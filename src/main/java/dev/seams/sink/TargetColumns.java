package dev.seams.sink;

import java.math.BigDecimal;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The Decimal columns of the tables a sink run writes, as the target declares them
 * ({@code system.columns}, read once per run by {@link ClickHouseWriter#columns}), and the check
 * every mapper makes before it adds a money value or an id to a row: the value fits its column exactly, or
 * the run stops (claim B15; docs/source.md "Schema changes"). A money column that is no Decimal stops the run too; a
 * table the target does not list at all is left to the insert (unknown table: a permanent write error).
 */
public final class TargetColumns {

    private final String database;
    private final Map<String, String> types;
    /** table → column → its Decimal type: looked up per value without building a {@code table.column} key (issue 26) */
    private final Map<String, Map<String, DecimalType>> decimals;
    /** table → column → its integer type */
    private final Map<String, Map<String, IntegerType>> integers;

    /**
     * @param database      the target database (named in the ALTER the error suggests)
     * @param typesByColumn {@code table.column} → its type as {@code system.columns} writes it
     */
    public TargetColumns(String database, Map<String, String> typesByColumn) {
        this.database = Objects.requireNonNull(database, "database");
        this.types = Map.copyOf(typesByColumn);
        this.decimals = byTable(typesByColumn, DecimalType::parse);
        this.integers = byTable(typesByColumn, IntegerType::parse);
    }

    /** @return table → column → the parsed type, for the columns whose type {@code parse} knows (non-null) */
    private static <T> Map<String, Map<String, T>> byTable(Map<String, String> typesByColumn, Function<String, T> parse) {
        return typesByColumn.entrySet().stream().filter(e -> parse.apply(e.getValue()) != null)
                .collect(Collectors.groupingBy(e -> e.getKey().substring(0, e.getKey().indexOf('.')),
                        Collectors.toUnmodifiableMap(e -> e.getKey().substring(e.getKey().indexOf('.') + 1), e -> parse.apply(e.getValue()))));
    }

    /**
     * @param table  the table the id goes to
     * @param column its column
     * @param value  the id, e.g. a {@code customer_id} of a PostgreSQL {@code bigint}
     * @return the value, unchanged
     * @throws TargetTooNarrowException if the column is an integer type whose range does not hold the value
     */
    public long requireFits(String table, String column, long value) {
        IntegerType type = integers.getOrDefault(table, Map.of()).get(column);
        if (type == null || type.holds(value)) {
            return value;
        }
        throw new TargetTooNarrowException(column + " " + value + " does not fit " + table + "." + column + " " + type
                + " (" + type.min() + ".." + type.max() + "); to carry it the column must be Int64 (a sorting-key column "
                + "cannot be modified in place: create the table anew and move its rows) (docs/source.md \"Schema changes\")");
    }

    /**
     * @param table  the table the value goes to
     * @param column its column
     * @param value  the exact value
     * @return the value, unchanged
     * @throws TargetTooNarrowException if the column is a Decimal that does not hold the value exactly (the message
     *                                  names value, column, type, shortfall and the ALTER that carries it), or if the
     *                                  target lists the table but not as a Decimal column of that name (a Float64 or
     *                                  String would not hold money exactly either); a table it does not list at all is
     *                                  left to the insert, which fails by name (unknown table)
     */
    public BigDecimal requireFits(String table, String column, BigDecimal value) {
        DecimalType type = decimals.getOrDefault(table, Map.of()).get(column);
        if (type == null) {
            String declared = types.get(table + "." + column);
            if (declared == null && types.keySet().stream().noneMatch(c -> c.startsWith(table + "."))) {
                return value;
            }
            throw new TargetTooNarrowException(table + "." + column + " is " + (declared == null ? "not a column of the table"
                    : declared + ", not a Decimal") + ": money (" + column + " " + value.toPlainString() + ") is written only "
                    + "into a Decimal column that holds it exactly (docs/source.md \"Schema changes\")");
        }
        if (type.holds(value)) {
            return value;
        }
        DecimalType wider = type.widenedFor(value);
        String text = value.toPlainString();
        throw new TargetTooNarrowException(column + " " + (text.length() > 60 ? value.toString() : text) + " does not fit "
                + table + "." + column + " " + type + " (" + type.shortfall(value) + ") without rounding; " + (wider.holds(value)
                ? "to carry it, widen the column: ALTER TABLE " + (database.isEmpty() ? "" : "`" + database + "`.") + "`" + table
                        + "` MODIFY COLUMN " + column + " " + wider
                : "no ClickHouse Decimal holds it (76 digits at most)") + " (docs/source.md \"Schema changes\")");
    }
}
