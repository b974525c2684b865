package dev.seams.sink;

import java.io.IOException;
import java.io.OutputStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One table's JSONEachRow request body, built in place (issue 13: the sink's profile showed every
 * row built as a Jackson tree, copied for the second table, serialised once per table through a new
 * generator, and the body copied twice before it was sent). Rows hold numbers only — the sink's
 * tables have no string column — written as plain JSON numbers ({@link Long#toString},
 * {@link BigDecimal#toPlainString}, exact; ClickHouse 18.16 does not parse quoted decimals), under
 * field names checked once ({@link Field}); so the body is valid JSON by construction, and no value
 * is ever pasted into SQL. A row's fields can be copied into another body
 * ({@link #copyFields}): serialised once, written to two tables. Not thread-safe.
 */
public final class RowsBody {

    private byte[] buf;
    private int size;
    private int rows;
    private boolean firstField;

    /** @param expectedRows a hint for the first allocation */
    public RowsBody(int expectedRows) {
        this.buf = new byte[Math.max(64, expectedRows * 96)];
    }

    /** A JSON field name, checked and encoded once. */
    public static final class Field {
        private final String name;
        private final byte[] prefix;

        private Field(String name) {
            this.name = name;
            this.prefix = ("\"" + name + "\":").getBytes(StandardCharsets.US_ASCII);
        }

        /**
         * @param name a column name: lower-case letters, digits, underscores
         * @return the field
         * @throws IllegalArgumentException for any other name
         */
        public static Field of(String name) {
            if (!name.matches("[a-z_][a-z0-9_]*")) {
                throw new IllegalArgumentException("not a plain column name: " + name);
            }
            return new Field(name);
        }

        /** @return the column name */
        public String name() {
            return name;
        }

        @Override
        public String toString() {
            return name;
        }
    }

    /** Opens a row. */
    public RowsBody startRow() {
        put((byte) '{');
        firstField = true;
        return this;
    }

    /** Writes a whole number field. */
    public RowsBody field(Field field, long value) {
        if (value == Long.MIN_VALUE) {   // the one value whose negation is no long
            return field(field, Long.toString(value));
        }
        name(field);
        if (value < 0) {
            put((byte) '-');
            value = -value;
        }
        int digits = 1;
        for (long rest = value / 10; rest > 0; rest /= 10) {
            digits++;
        }
        ensure(digits);
        for (int i = size + digits - 1; i >= size; i--) {   // digits written in place, no String (issue 26)
            buf[i] = (byte) ('0' + value % 10);
            value /= 10;
        }
        size += digits;
        return this;
    }

    /** Writes an exact decimal field as a plain JSON number, e.g. {@code 1112.08}. */
    public RowsBody field(Field field, BigDecimal value) {
        return field(field, value.toPlainString());
    }

    private RowsBody field(Field field, String number) {
        name(field);
        for (int i = 0; i < number.length(); i++) {
            put((byte) number.charAt(i));
        }
        return this;
    }

    /** Writes the separator and the field's name. */
    private void name(Field field) {
        if (!firstField) {
            put((byte) ',');
        }
        firstField = false;
        put(field.prefix, 0, field.prefix.length);
    }

    /** Closes the row. */
    public RowsBody endRow() {
        put((byte) '}');
        put((byte) '\n');
        rows++;
        return this;
    }

    /** @return the current end of the body, for {@link #copyFields} */
    public int mark() {
        return size;
    }

    /**
     * Appends fields another body already holds (serialised once, written to two tables) to the open row.
     *
     * @param other the body holding them
     * @param from  its {@link #mark()} right after its row's opening brace
     * @param to    its {@link #mark()} after the last field to copy
     */
    public RowsBody copyFields(RowsBody other, int from, int to) {
        if (from == to) {
            return this;
        }
        if (!firstField) {
            put((byte) ',');
        }
        firstField = false;
        put(other.buf, from, to - from);
        return this;
    }

    /** @return complete rows in the body */
    public int rows() {
        return rows;
    }

    /** @return whether it holds no row */
    public boolean isEmpty() {
        return rows == 0;
    }

    /** @return the body's size in bytes */
    public int bytes() {
        return size;
    }

    /** Writes the body, without copying it, e.g. into the HTTP request of an insert. */
    public void writeTo(OutputStream out) throws IOException {
        out.write(buf, 0, size);
    }

    /** Writes bytes {@code from} (inclusive) to {@code to} (exclusive) of the body (a request cut short, B5). */
    public void writeTo(OutputStream out, int from, int to) throws IOException {
        out.write(buf, from, Math.min(to, size) - from);
    }

    /** @return the rows as text, one JSON object each (for tests and messages) */
    public List<String> lines() {
        List<String> lines = new ArrayList<>(rows);
        for (String line : new String(buf, 0, size, StandardCharsets.US_ASCII).split("\n")) {
            if (!line.isEmpty()) {
                lines.add(line);
            }
        }
        return lines;
    }

    private void put(byte b) {
        if (size == buf.length) {
            buf = Arrays.copyOf(buf, buf.length * 2);
        }
        buf[size++] = b;
    }

    private void put(byte[] bytes, int from, int length) {
        ensure(length);
        System.arraycopy(bytes, from, buf, size, length);
        size += length;
    }

    /** Makes room for {@code length} more bytes. */
    private void ensure(int length) {
        if (size + length > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(buf.length * 2, size + length));
        }
    }
}
