package dev.seams.sink;

import java.math.BigDecimal;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * The Decimal columns of the tables a sink run writes, as the target declares them
 * ({@code system.columns}, read once per run by {@link ClickHouseWriter#columns}), and the check
 * every mapper makes before it adds a money value to a row: the value fits its column exactly, or
 * the run stops (claim B15; docs/source.md "Schema changes"). A column that is no Decimal, or that
 * the target does not list, is not checked.
 */
public final class TargetColumns {

    /** Knows no column: checks nothing (a mapper used without a target). */
    public static final TargetColumns NONE = new TargetColumns("", Map.of());

    private final String database;
    private final Map<String, DecimalType> decimals;

    /**
     * @param database      the target database (named in the ALTER the error suggests)
     * @param typesByColumn {@code table.column} → its type as {@code system.columns} writes it
     */
    public TargetColumns(String database, Map<String, String> typesByColumn) {
        this.database = Objects.requireNonNull(database, "database");
        this.decimals = typesByColumn.entrySet().stream().filter(e -> DecimalType.parse(e.getValue()) != null)
                .collect(Collectors.toUnmodifiableMap(Map.Entry::getKey, e -> DecimalType.parse(e.getValue())));
    }

    /**
     * @param table  the table the value goes to
     * @param column its column
     * @param value  the exact value
     * @return the value, unchanged
     * @throws TargetTooNarrowException if the column is a Decimal that does not hold the value exactly;
     *                                  the message names value, column, type, shortfall and the ALTER that carries it
     */
    public BigDecimal requireFits(String table, String column, BigDecimal value) {
        DecimalType type = decimals.get(table + "." + column);
        if (type == null || type.holds(value)) {
            return value;
        }
        throw new TargetTooNarrowException(column + " " + value.toPlainString() + " does not fit " + table + "." + column
                + " " + type + " (" + type.shortfall(value) + ") without rounding; to carry it, widen the column: ALTER TABLE "
                + (database.isEmpty() ? "" : "`" + database + "`.") + "`" + table + "` MODIFY COLUMN " + column + " "
                + type.widenedFor(value) + " (docs/source.md \"Schema changes\")");
    }
}
