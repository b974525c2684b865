package dev.seams.report;

import dev.seams.project.Project;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What each claim states, from the catalogue the report cites: the rows {@code | <id> | <claim> | <what the test does
 * and asserts> |} of {@code docs/claims.md}. Each claim's page of the report opens with it (issue 37, "the report as
 * an index").
 */
final class ClaimStatements {

    /** A catalogue row: id, title, statement; a cell may hold an escaped {@code \|}. */
    private static final Pattern ROW = Pattern.compile("^\\| ([GB]\\d+) \\| (.*?) (?<!\\\\)\\| (.*) \\|$");

    /**
     * @param title its title (the catalogue's second cell)
     * @param text  what it states (the third: what the test does and asserts)
     */
    record Statement(String title, String text) {
    }

    private ClaimStatements() {
    }

    /**
     * @return claim id → its title and statement, from {@code docs/claims.md} under the project's root; empty if that file is
     *     not there (a report rendered outside the project)
     * @throws UncheckedIOException if the file is there and cannot be read
     */
    static Map<String, Statement> fromDocs() {
        Path file = Project.root().resolve("docs/claims.md");
        if (!Files.isRegularFile(file)) {
            return Map.of();
        }
        try {
            return parse(Files.readString(file));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }

    /**
     * @param catalogue the text of {@code docs/claims.md}
     * @return claim id → its title and statement (the second and third cells of its row), in the catalogue's order
     */
    static Map<String, Statement> parse(String catalogue) {
        Map<String, Statement> statements = new LinkedHashMap<>();
        rows(catalogue).forEach(row -> statements.putIfAbsent(row.id(), row.statement()));
        return statements;
    }

    /**
     * One claim row of a catalogue.
     *
     * @param id        the claim's id, e.g. {@code G3}
     * @param statement its title and statement
     */
    record Row(String id, Statement statement) {
    }

    /**
     * @param catalogue the text of a catalogue of claims ({@code docs/claims.md}, or the maintainers' copy)
     * @return every claim row, in the catalogue's order, a repeated id included ({@code ClaimCatalogTest} compares them)
     */
    static List<Row> rows(String catalogue) {
        List<Row> rows = new ArrayList<>();
        for (String line : catalogue.split("\n")) {
            Matcher row = ROW.matcher(line.strip());
            if (row.matches()) {
                rows.add(new Row(row.group(1), new Statement(row.group(2).strip(), row.group(3).strip())));
            }
        }
        return rows;
    }
}
