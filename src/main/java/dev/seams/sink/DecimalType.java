package dev.seams.sink;

import java.math.BigDecimal;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A ClickHouse {@code Decimal(P, S)} column type: at most {@code P} digits, {@code S} of them after
 * the decimal point. What it holds exactly — and so what a sink may write into it without the
 * server rounding or cutting digits (claim B15; docs/source.md "Schema changes").
 *
 * @param precision P, total digits, 1..76
 * @param scale     S, digits after the decimal point, 0..P
 */
public record DecimalType(int precision, int scale) {

    private static final Pattern DECIMAL = Pattern.compile("Decimal\\((\\d+),\\s*(\\d+)\\)");
    private static final Pattern SIZED = Pattern.compile("Decimal(32|64|128|256)\\((\\d+)\\)");

    /** @throws IllegalArgumentException unless 1 &lt;= precision &lt;= 76 and 0 &lt;= scale &lt;= precision */
    public DecimalType {
        if (precision < 1 || precision > 76 || scale < 0 || scale > precision) {
            throw new IllegalArgumentException("not a Decimal type: precision " + precision + ", scale " + scale);
        }
    }

    /**
     * Reads a type as {@code system.columns} names it: {@code Decimal(18, 2)}, {@code Decimal64(2)}
     * (precision 18), either inside {@code Nullable(...)}.
     *
     * @param type the column's type text
     * @return the type, or null if the column is no Decimal
     */
    public static DecimalType parse(String type) {
        String bare = type.startsWith("Nullable(") && type.endsWith(")") ? type.substring(9, type.length() - 1) : type;
        Matcher m = DECIMAL.matcher(bare);
        if (m.matches()) {
            return new DecimalType(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)));
        }
        m = SIZED.matcher(bare);
        if (m.matches()) {
            int precision = switch (m.group(1)) {
                case "32" -> 9;
                case "64" -> 18;
                case "128" -> 38;
                default -> 76;
            };
            return new DecimalType(precision, Integer.parseInt(m.group(2)));
        }
        return null;
    }

    /** @return whether the value fits exactly: its significant decimals at most S, its integer digits at most P - S */
    public boolean holds(BigDecimal value) {
        return decimals(value) <= scale && integerDigits(value) <= precision - scale;
    }

    /**
     * @param value a value this type does not hold
     * @return the narrowest type that holds both what this type holds and the value; capped at 76 digits, the widest
     *     ClickHouse Decimal (then it does not hold the value either: check with {@link #holds})
     */
    public DecimalType widenedFor(BigDecimal value) {
        int newScale = Math.min(76, Math.max(scale, decimals(value)));
        int newIntegers = Math.min(76, Math.max(precision - scale, integerDigits(value)));
        int newPrecision = Math.min(76, newIntegers + newScale);
        return new DecimalType(newPrecision, Math.min(newScale, newPrecision));
    }

    /**
     * @param value a value this type does not hold
     * @return what does not fit, e.g. {@code 3 decimal places > 2}
     */
    public String shortfall(BigDecimal value) {
        return decimals(value) > scale ? decimals(value) + " decimal places > " + scale
                : integerDigits(value) + " integer digits > " + (precision - scale);
    }

    /** @return the type as ClickHouse writes it, {@code Decimal(18, 2)} */
    @Override
    public String toString() {
        return "Decimal(" + precision + ", " + scale + ")";
    }

    /** @return the value's significant digits after the decimal point (trailing zeros do not count) */
    static int decimals(BigDecimal value) {
        return Math.max(0, value.stripTrailingZeros().scale());
    }

    /** @return the value's digits before the decimal point (0 for |value| &lt; 1) */
    static int integerDigits(BigDecimal value) {
        BigDecimal stripped = value.stripTrailingZeros();
        return (int) Math.min(Integer.MAX_VALUE, Math.max(0, (long) stripped.precision() - stripped.scale()));
    }
}
