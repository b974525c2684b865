package dev.seams.config;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The ClickHouse tables of a DDL file as far as the claims read them (docs/config.md): per {@code CREATE TABLE}, its
 * engine, the engine's parameters and its sorting key ({@code ORDER BY}). Comments ({@code --}) are skipped; a name may
 * carry a database ({@code db.customer_totals}) and quotes.
 */
public final class TableDefinitions {

    /**
     * One table.
     *
     * @param name       its name, without database or quotes
     * @param engine     the engine, e.g. {@code ReplacingMergeTree}
     * @param parameters the engine's parameters as written, e.g. {@code version} (empty for none)
     * @param orderBy    the sorting key as written, without parentheses, e.g. {@code order_id, version}
     */
    public record Table(String name, String engine, String parameters, String orderBy) {

        /** @return whether the sorting key names {@code column} */
        public boolean sortsBy(String column) {
            return Pattern.compile("(^|[\\s,(])`?" + Pattern.quote(column) + "`?($|[\\s,)])").matcher(orderBy).find();
        }
    }

    private static final Pattern CREATE = Pattern.compile("(?is)CREATE\\s+TABLE\\s+(?:IF\\s+NOT\\s+EXISTS\\s+)?"
            + "([`\"\\w.]+)\\s*(?:ON\\s+CLUSTER\\s+\\S+\\s*)?\\(.*?\\)\\s*ENGINE\\s*=\\s*(\\w+)\\s*(?:\\(([^)]*)\\))?"
            + "(.*?)(?=;|\\bCREATE\\b|\\z)");
    private static final Pattern ORDER_BY = Pattern.compile("(?is)ORDER\\s+BY\\s+(\\([^)]*\\)|[`\\w]+)");

    private TableDefinitions() {
    }

    /**
     * @param file a DDL file
     * @return its tables by name, in the file's order
     * @throws IllegalArgumentException if it cannot be read or holds no {@code CREATE TABLE ... ENGINE = ...}
     */
    public static Map<String, Table> load(Path file) {
        try {
            Map<String, Table> tables = parse(Files.readString(file));
            if (tables.isEmpty()) {
                throw new IllegalArgumentException(file + ": no CREATE TABLE ... ENGINE = ... in it");
            }
            return tables;
        } catch (IOException e) {
            throw new IllegalArgumentException(file + ": cannot read it (" + e.getMessage() + ")", e);
        }
    }

    /** @return the tables of the statements, by name */
    static Map<String, Table> parse(String sql) {
        String code = sql.replaceAll("--[^\\n]*", "");
        Map<String, Table> tables = new LinkedHashMap<>();
        Matcher m = CREATE.matcher(code);
        while (m.find()) {
            String qualified = m.group(1).replaceAll("[`\"]", "");
            String name = qualified.substring(qualified.lastIndexOf('.') + 1);
            Matcher order = ORDER_BY.matcher(m.group(4));
            String orderBy = order.find() ? order.group(1).replaceAll("^\\(|\\)$", "").strip() : "";
            tables.put(name, new Table(name, m.group(2), m.group(3) == null ? "" : m.group(3).strip(), orderBy));
        }
        return tables;
    }
}
