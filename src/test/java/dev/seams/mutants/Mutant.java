package dev.seams.mutants;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One realistic regression of the mutation tier (docs/mutants.md): a small change to the product
 * ({@code src/main}), to the stand's definition ({@code containers/}) or to the code that puts a user's connector under
 * the claims ({@code config/ConnectorUnderTest}), kept as a unified diff
 * ({@code src/test/resources/dev/seams/mutants/<id>.patch}) whose header says what it models and which
 * claims must catch it:
 *
 * <pre>
 * # id: sink-skip-retriable-batch
 * # models: a retriable ClickHouse failure handled as "log and continue": the batch is dropped, its offsets committed
 * # kind: a mistake people make
 * # reference: https://github.com/... (a public bug report, where one exists)
 * # tier: default                 (the tier expected to kill it: default or faults)
 * # expected: ClickHouseFaultIT#quickPause, ChangelogIT   (failsafe -Dit.test selectors, run first)
 * # entries: B5[clickhouse-pause, quick]                  (the claim entries expected to turn red)
 * diff --git a/src/main/... b/src/main/...
 * </pre>
 *
 * @param id        a short name, also the patch file's name
 * @param models    what mistake, changed default or upgrade it models
 * @param kind      {@code a mistake people make}, {@code a default someone might change}, {@code an upgrade's changed default}
 * @param reference a public bug report or documentation of the behaviour, or empty
 * @param tier      {@code default} ({@code mvn verify}) or {@code faults} ({@code -Pfaults})
 * @param expected  the failsafe selectors ({@code -Dit.test}) of the claims expected to catch it
 * @param entries   the claim entries expected to turn red
 * @param patch     the patch file
 */
public record Mutant(String id, String models, String kind, String reference, String tier, List<String> expected,
                     List<String> entries, Path patch) {

    /** The header keys every patch must give. */
    static final List<String> REQUIRED = List.of("id", "models", "kind", "tier", "expected", "entries");
    /** The tiers a mutant may name. */
    static final List<String> TIERS = List.of("default", "faults");

    /**
     * @param patch a {@code .patch} file with the header above
     * @return the mutant
     * @throws IllegalArgumentException if a required key is missing, the id differs from the file name, the tier is
     *                                  unknown or the file holds no diff
     * @throws UncheckedIOException     if the file cannot be read
     */
    public static Mutant parse(Path patch) {
        List<String> lines;
        try {
            lines = Files.readAllLines(patch);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Map<String, String> header = new LinkedHashMap<>();
        for (String line : lines) {
            if (!line.startsWith("# ")) {
                break;
            }
            int colon = line.indexOf(':');
            if (colon > 2) {
                header.merge(line.substring(2, colon).strip(), line.substring(colon + 1).strip(), (a, b) -> a + " " + b);
            }
        }
        String name = patch.getFileName().toString().replaceFirst("\\.patch$", "");
        for (String key : REQUIRED) {
            if (header.getOrDefault(key, "").isBlank()) {
                throw new IllegalArgumentException(patch + ": header '# " + key + ":' missing");
            }
        }
        if (!header.get("id").equals(name)) {
            throw new IllegalArgumentException(patch + ": id " + header.get("id") + " differs from the file name " + name);
        }
        if (!TIERS.contains(header.get("tier"))) {
            throw new IllegalArgumentException(patch + ": tier " + header.get("tier") + " is not one of " + TIERS);
        }
        if (lines.stream().noneMatch(l -> l.startsWith("diff --git "))) {
            throw new IllegalArgumentException(patch + ": no 'diff --git' section");
        }
        return new Mutant(name, header.get("models"), header.get("kind"), header.getOrDefault("reference", ""),
                header.get("tier"), list(header.get("expected"), ","), list(header.get("entries"), ";"), patch);
    }

    private static List<String> list(String value, String separator) {
        return Arrays.stream(value.split(separator)).map(String::strip).filter(s -> !s.isEmpty()).toList();
    }

    /** @return the files the patch changes, relative to the project root */
    public List<String> files() {
        try {
            return Files.readAllLines(patch).stream().filter(l -> l.startsWith("+++ b/")).map(l -> l.substring(6)).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** @return the claim ids of {@link #entries()}, e.g. {@code B5} for {@code B5[clickhouse-pause, quick]} */
    public List<String> expectedClaims() {
        return entries.stream().map(e -> e.contains("[") ? e.substring(0, e.indexOf('[')) : e).distinct().toList();
    }
}
