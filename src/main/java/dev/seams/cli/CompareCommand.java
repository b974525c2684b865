package dev.seams.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.seams.cli.options.Verbosity;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code seams compare BEFORE AFTER}: what changed between two runs of the suite, read from their
 * {@code reports/guarantees.json} (docs/claims.md "Evidence and the report"; claim B7, the version
 * gate's last step). Prints the profiles and live versions that differ, then the claims whose verdict
 * changed and those found in only one report, the claims whose anomaly counts changed, and with
 * {@code --figures} the claims whose figures or expected values changed (else how many). An entry found
 * only before whose tier (e.g. {@code faults}) did not run after is listed as not compared — neither worse nor passed —
 * and counted apart in the summary; so is an entry missing from a report after that is the older of the two (not run
 * in that older report: it may predate the entry, and only a report made later can tell). An entry missing from a
 * report after that is the newer one is worse.
 *
 * <p>Exit status: 0 when no claim got worse; 1 when a claim that PASSed before does not PASS after
 * (or is missing after) — a failed upgrade gate; 2 when a file cannot be read or is not a report; with {@code --gate},
 * 3 when none got worse but some were not compared (the upgrade gate has not seen their evidence, e.g. the
 * candidate ran without {@code -Pfaults}, or its report predates them: docs/profiles.md).
 */
@Command(name = "compare", mixinStandardHelpOptions = true, versionProvider = BuildVersion.class,
        description = "Compare two guarantees.json reports: the claims whose verdict changed first, then anomalies; figures with --figures.",
        footer = {"", "Exit status: 0 no claim worse;",
            "1 a claim that passed before does not pass (or is missing) after;",
            "2 a file is not a readable report; 3 (--gate) none worse, but claims not compared."})
public final class CompareCommand implements Callable<Integer> {

    @Mixin(name = Verbosity.MIXIN)
    Verbosity verbosity = new Verbosity();

    /** Exit status when some claim that passed before does not pass after. */
    public static final int WORSE = 1;
    /** Exit status when a report cannot be read. */
    public static final int UNREADABLE = 2;
    /** Exit status with {@code --gate} when no claim got worse but some were not compared (not run after). */
    public static final int NOT_COMPARED = 3;

    private static final String PASS = "PASS";
    /** Sections of a claim listed with {@code --figures}, field by field → the word that prefixes a change. */
    private static final Map<String, String> COMPARED = Map.of("figures", "figure", "expected", "expected");
    private static final List<String> SECTION_ORDER = List.of("figures", "expected");

    @Parameters(index = "0", description = "the earlier report, e.g. a copy of reports/guarantees.json from profile current")
    Path before;

    @Parameters(index = "1", description = "the later report, e.g. reports/guarantees.json of profile candidate")
    Path after;

    @Option(names = "--ignore-figures", paramLabel = "REGEX",
            description = "figure names to leave out of the comparison, e.g. '.*(seconds|_ms|summary)$' for timings")
    Pattern ignore;

    @Option(names = "--figures", description = "also list each claim's changed figures and expected values "
            + "(default: only how many claims changed them; verdicts and anomaly counts are always listed)")
    boolean figures;

    @Option(names = "--gate", description = "the upgrade gate: also fail (exit 3) when claims of the earlier report "
            + "were not run after (e.g. the candidate ran without -Pfaults, or its report predates them)")
    boolean gate;

    /**
     * What two reports differ in.
     *
     * @param lines        the human-readable differences, one per line
     * @param changed      claims with any difference (verdict, figures, expected, anomalies)
     * @param worse        claims that passed before and do not pass (or are missing) after
     * @param notCompared  claims of the earlier report not run after (their tier did not run, or the report after is
     *                     older than the entry may be): neither worse nor passed
     */
    public record Comparison(List<String> lines, int changed, List<String> worse, List<String> notCompared) {
    }

    @Override
    public Integer call() {
        JsonNode b;
        JsonNode a;
        try {
            b = read(before);
            a = read(after);
        } catch (IOException | IllegalArgumentException e) {
            System.err.println("compare: " + e.getMessage());
            return UNREADABLE;
        }
        Comparison comparison = compare(b, a, ignore, figures);
        PrintStream out = System.out;
        out.println("before: " + before + " (profile " + b.path("profile").asText("?") + ", " + b.path("generated_at").asText("?") + ")");
        out.println("after:  " + after + " (profile " + a.path("profile").asText("?") + ", " + a.path("generated_at").asText("?") + ")");
        comparison.lines().forEach(out::println);
        return status(comparison, gate);
    }

    /**
     * @param comparison what two reports differ in
     * @param gate       whether claims not compared fail ({@code --gate})
     * @return {@value #WORSE} if a claim got worse; else {@value #NOT_COMPARED} if gated and some were not compared; else 0
     */
    static int status(Comparison comparison, boolean gate) {
        if (!comparison.worse().isEmpty()) {
            return WORSE;
        }
        if (gate && !comparison.notCompared().isEmpty()) {
            System.err.println("compare: --gate: " + comparison.notCompared().size() + " claims not compared (not run "
                    + "after): " + comparison.notCompared());
            return NOT_COMPARED;
        }
        return 0;
    }

    private static JsonNode read(Path file) throws IOException {
        JsonNode json;
        try {
            json = new ObjectMapper().readTree(file.toFile());
        } catch (com.fasterxml.jackson.core.JsonProcessingException notJson) {
            throw new IllegalArgumentException(file + " is not a guarantees.json report (not JSON: line "
                    + notJson.getLocation().getLineNr() + ", column " + notJson.getLocation().getColumnNr() + ")", notJson);
        } catch (IOException unreadable) {
            throw new IOException("cannot read " + file + ": " + unreadable, unreadable);
        }
        if (json == null || !json.path("claims").isArray()) {
            throw new IllegalArgumentException(file + " is not a guarantees.json report (no \"claims\" array)");
        }
        return json;
    }

    /**
     * Compares two reports, listing the changed figures too ({@link #compare(JsonNode, JsonNode, Pattern, boolean)}).
     *
     * @param before the earlier report (shape of docs/claims.md "Evidence and the report")
     * @param after  the later report
     * @param ignore figure names to skip (null: none)
     * @return the differences
     */
    public static Comparison compare(JsonNode before, JsonNode after, Pattern ignore) {
        return compare(before, after, ignore, true);
    }

    /**
     * Compares two reports, the changed verdicts first.
     *
     * @param before  the earlier report (shape of docs/claims.md "Evidence and the report")
     * @param after   the later report
     * @param ignore  figure names to skip (null: none)
     * @param figures whether to list each claim's changed figures and expected values ({@code --figures}); else
     *                only how many claims changed them
     * @return the differences: profile and versions, then {@code verdicts:} (changed verdicts, claims found in one
     *     report only, claims not compared), {@code anomalies:} (changed anomaly counts), {@code figures:}, and the
     *     summary; claims in the order of {@code after}, then those only in {@code before}
     */
    public static Comparison compare(JsonNode before, JsonNode after, Pattern ignore, boolean figures) {
        List<String> lines = new ArrayList<>();
        if (!before.path("profile").equals(after.path("profile"))) {
            lines.add("profile: " + text(before.path("profile")) + " -> " + text(after.path("profile")));
        }
        List<String> versions = changes(before.path("versions"), after.path("versions"), null);
        if (!versions.isEmpty()) {
            lines.add("versions:");
            versions.forEach(v -> lines.add("  " + v));
        }
        Map<String, JsonNode> was = byId(before);
        Map<String, JsonNode> now = byId(after);
        Set<String> ids = new LinkedHashSet<>(now.keySet());
        ids.addAll(was.keySet());
        List<String> worse = new ArrayList<>();
        List<String> notCompared = new ArrayList<>();
        Set<String> tiersAfter = new LinkedHashSet<>();
        after.path("runs").forEach(r -> tiersAfter.add(r.path("tier").asText()));
        String beforeAt = before.path("generated_at").asText("");
        String afterAt = after.path("generated_at").asText("");
        boolean afterIsOlder = !beforeAt.isEmpty() && !afterAt.isEmpty() && afterAt.compareTo(beforeAt) < 0;
        Set<String> changed = new LinkedHashSet<>();
        List<String> verdicts = new ArrayList<>();
        List<String> anomalies = new ArrayList<>();
        List<String> figureLines = new ArrayList<>();
        int figuresChanged = 0;
        for (String id : ids) {
            JsonNode b = was.get(id);
            JsonNode a = now.get(id);
            if (b == null) {
                verdicts.add("  " + id + ": only after (" + a.path("verdict").asText() + ")");
                changed.add(id);
                continue;
            }
            if (a == null) {
                String tier = b.path("tier").asText("");
                if (!tier.isEmpty() && !tiersAfter.isEmpty() && !tiersAfter.contains(tier)) {
                    verdicts.add("  " + id + ": only before (" + b.path("verdict").asText() + "); not compared: its tier "
                            + tier + " did not run after");
                    notCompared.add(id);
                    continue;
                }
                if (afterIsOlder) {   // it may predate the entry: no verdict either way until a later report is made
                    verdicts.add("  " + id + ": only before (" + b.path("verdict").asText() + "); not compared: not run in "
                            + "the older report after (generated " + afterAt + "); regenerate it to compare");
                    notCompared.add(id);
                    continue;
                }
                verdicts.add("  " + id + ": only before (" + b.path("verdict").asText() + ")");
                changed.add(id);
                if (PASS.equals(b.path("verdict").asText())) {
                    worse.add(id);
                }
                continue;
            }
            String vb = b.path("verdict").asText();
            String va = a.path("verdict").asText();
            if (!vb.equals(va)) {
                verdicts.add("  " + id + ": " + vb + " -> " + va);
                changed.add(id);
                if (PASS.equals(vb)) {
                    worse.add(id);
                }
            }
            List<String> counts = changes(b.path("anomalies"), a.path("anomalies"), null);
            if (!counts.isEmpty()) {
                anomalies.add("  " + id + ": " + String.join(", ", counts));
                changed.add(id);
            }
            List<String> claim = new ArrayList<>();
            for (String section : SECTION_ORDER) {
                for (String change : changes(b.path(section), a.path(section), ignore)) {
                    claim.add("    " + COMPARED.get(section) + " " + change);
                }
            }
            if (!claim.isEmpty()) {
                figuresChanged++;
                changed.add(id);
                figureLines.add("  " + id + ":");
                figureLines.addAll(claim);
            }
        }
        lines.add("verdicts:");
        lines.addAll(verdicts.isEmpty() ? List.of("  (no verdict changed)") : verdicts);
        if (!anomalies.isEmpty()) {
            lines.add("anomalies:");
            lines.addAll(anomalies);
        }
        if (figures && !figureLines.isEmpty()) {
            lines.add("figures:");
            lines.addAll(figureLines);
        } else if (figuresChanged > 0) {
            lines.add("figures: " + figuresChanged + " claims changed figures or expected values (--figures lists them)");
        }
        lines.add("summary: " + ids.size() + " claims, " + changed.size() + " changed, " + worse.size() + " worse"
                + (worse.isEmpty() ? "" : " " + worse)
                + (notCompared.isEmpty() ? "" : ", " + notCompared.size() + " not compared (not run after: "
                + "no verdict either way)"));
        return new Comparison(lines, changed.size(), worse, notCompared);
    }

    private static Map<String, JsonNode> byId(JsonNode report) {
        Map<String, JsonNode> claims = new LinkedHashMap<>();
        report.path("claims").forEach(c -> claims.put(c.path("id").asText(), c));
        return claims;
    }

    /** @return {@code name: old -> new} for every field of two objects that differs (missing shown as -) */
    private static List<String> changes(JsonNode before, JsonNode after, Pattern ignore) {
        Set<String> names = new LinkedHashSet<>();
        before.fieldNames().forEachRemaining(names::add);
        after.fieldNames().forEachRemaining(names::add);
        List<String> changes = new ArrayList<>();
        for (String name : names) {
            if (ignore != null && ignore.matcher(name).matches()) {
                continue;
            }
            JsonNode b = before.path(name);
            JsonNode a = after.path(name);
            if (!sameValue(b, a)) {
                changes.add(name + ": " + text(b) + " -> " + text(a));
            }
        }
        return changes;
    }

    /** Numbers compare by value (51 equals 51.0), everything else as JSON. */
    private static boolean sameValue(JsonNode b, JsonNode a) {
        if (b.isNumber() && a.isNumber()) {
            return b.decimalValue().compareTo(a.decimalValue()) == 0;
        }
        return b.equals(a);
    }

    private static String text(JsonNode node) {
        return node.isMissingNode() ? "-" : node.isTextual() ? node.asText() : node.toString();
    }
}
