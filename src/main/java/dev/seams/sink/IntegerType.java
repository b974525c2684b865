package dev.seams.sink;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A ClickHouse integer column type ({@code Int8} … {@code Int64}, {@code UInt8} … {@code UInt64}): the range it holds,
 * so that a sink never writes an id the server would wrap or refuse (claim B15: {@code customer_id} widened to
 * {@code bigint} in PostgreSQL).
 *
 * @param name the type as {@code system.columns} names it, e.g. {@code Int32}
 * @param min  the least value it holds
 * @param max  the greatest value it holds ({@code UInt64}'s beyond a {@code long}: {@link Long#MAX_VALUE})
 */
public record IntegerType(String name, long min, long max) {

    private static final Pattern INTEGER = Pattern.compile("(U?)Int(8|16|32|64)");

    /**
     * @param type the column's type text, also inside {@code Nullable(...)}
     * @return the type, or null if the column is no integer
     */
    public static IntegerType parse(String type) {
        String bare = type.startsWith("Nullable(") && type.endsWith(")") ? type.substring(9, type.length() - 1) : type;
        Matcher m = INTEGER.matcher(bare);
        if (!m.matches()) {
            return null;
        }
        int bits = Integer.parseInt(m.group(2));
        if (m.group(1).isEmpty()) {
            return new IntegerType(bare, bits == 64 ? Long.MIN_VALUE : -(1L << (bits - 1)), bits == 64 ? Long.MAX_VALUE : (1L << (bits - 1)) - 1);
        }
        return new IntegerType(bare, 0, bits == 64 ? Long.MAX_VALUE : (1L << bits) - 1);
    }

    /** @return whether the value is in the type's range */
    public boolean holds(long value) {
        return value >= min && value <= max;
    }

    @Override
    public String toString() {
        return name;
    }
}
