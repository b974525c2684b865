package dev.seams.mutants;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.seams.report.ClaimCatalog;
import dev.seams.report.Provenance;
import dev.seams.report.ProvenanceMarkdown;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

/**
 * Writes {@code mutants.json} and {@code mutants.md} (issue 21): per mutant what it models, its tier, killed or
 * not, by which entries and which build, the unit tests that caught it, the time; per claim the mutants its
 * entries killed, or why no mutant applies to it (the matrix claims × mutants). The source it was produced from
 * is named like the claims report's ({@link Provenance}; {@code CommittedReportTest} checks the committed one).
 */
final class MutantsReport {

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private MutantsReport() {
    }

    /**
     * @param results   the mutants' outcomes, in catalogue order
     * @param catalog   the catalogue (for the reasons of claims without mutants)
     * @param claims    the claims catalogue
     * @param settings  how the tier ran
     * @param source    the tree the mutants were applied to
     * @param seconds   the tier's wall time
     * @return the report as plain maps and lists
     */
    static Map<String, Object> toJson(List<MutantRun.Result> results, List<MutantControls.Control> controls, MutantCatalog catalog,
                                      ClaimCatalog claims, MutantRun.Settings settings, Provenance source, Map<String, Object> baseline,
                                      double seconds) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("generated_at", Instant.now().truncatedTo(ChronoUnit.SECONDS).toString());
        json.put("profile", settings.profile());
        json.put("source", source.toJson());
        @SuppressWarnings("unchecked")
        Map<String, Object> baseSource = (Map<String, Object>) baseline.getOrDefault("source", Map.of());
        Map<String, Object> base = new LinkedHashMap<>();
        base.put("report", settings.root().relativize(settings.baseline().toAbsolutePath()).toString());
        base.put("commit", baseSource.get("commit"));
        base.put("same_source", source.contentHash().equals(baseSource.get("content_hash")));
        json.put("baseline", base);
        json.put("seconds", Math.round(seconds * 10) / 10.0);
        Map<String, Object> summary = new LinkedHashMap<>();
        summary.put("mutants", results.size());
        for (String v : List.of("KILLED", "CAUGHT", "SURVIVED", "ERROR")) {
            summary.put(v.toLowerCase(), results.stream().filter(r -> r.verdict().equals(v)).count());
        }
        for (String tier : Mutant.TIERS) {
            summary.put("killed_in_" + tier + "_tier", results.stream().filter(r -> r.verdict().equals("KILLED") && r.mutant().tier().equals(tier)).count());
        }
        summary.put("caught_by_unit_tests", results.stream().filter(r -> !r.unitFailures().isEmpty()).count());
        summary.put("killed_only_by_the_settle_precondition", results.stream().filter(r -> r.verdict().equals("KILLED")
                && r.credits().values().stream().allMatch(MutantRun.SETTLE_PRECONDITION::equals)).count());
        json.put("summary", summary);
        List<Map<String, Object>> controlJson = new ArrayList<>();
        for (MutantControls.Control c : controls) {
            Map<String, Object> one = new LinkedHashMap<>();
            one.put("tier", c.tier());
            one.put("selector", c.selector());
            one.put("exit", c.exit());
            one.put("seconds", c.seconds());
            one.put("log", c.log().isAbsolute() && c.log().startsWith(settings.root()) ? settings.root().relativize(c.log()).toString()
                    : c.log().toString());
            one.put("red", c.red());
            controlJson.add(one);
        }
        json.put("controls", controlJson);
        List<Map<String, Object>> mutants = new ArrayList<>();
        for (MutantRun.Result r : results) {
            Mutant m = r.mutant();
            Map<String, Object> one = new LinkedHashMap<>();
            one.put("id", m.id());
            one.put("models", m.models());
            one.put("kind", m.kind());
            one.put("reference", m.reference());
            one.put("tier", m.tier());
            one.put("files", m.files());
            one.put("expected", m.expected());
            one.put("expected_entries", m.entries());
            one.put("verdict", r.verdict());
            one.put("killed", r.verdict().equals("KILLED"));
            one.put("killed_by_build", r.killedBy());
            one.put("killer_entries", r.killerEntries());
            Map<String, String> killers = new LinkedHashMap<>();   // entry id -> why it turned red, over the killing builds
            r.builds().stream().filter(MutantRun.Build::killed).forEach(b -> b.killers().forEach(killers::putIfAbsent));
            one.put("killers", killers);
            one.put("credited", r.credits());
            one.put("caught_only_by_timeout_or_crash", r.notCounted().entrySet().stream()
                    .filter(e -> e.getValue().startsWith(MutantJudge.CAUGHT_ONLY)).map(Map.Entry::getKey).toList());
            one.put("not_counted", r.notCounted());
            Map<String, List<String>> failures = new LinkedHashMap<>();   // every failure of every red entry, not the first
            r.builds().forEach(b -> b.failures().forEach(failures::putIfAbsent));
            one.put("failures", failures);
            one.put("unit_tests_failed", r.unitFailures());
            one.put("detail", r.detail());
            one.put("seconds", r.seconds());
            List<Map<String, Object>> builds = new ArrayList<>();
            for (MutantRun.Build b : r.builds()) {
                Map<String, Object> build = new LinkedHashMap<>();
                build.put("selector", b.selector());
                build.put("exit", b.exit());
                build.put("seconds", b.seconds());
                build.put("entries", b.entries());
                builds.add(build);
            }
            one.put("builds", builds);
            mutants.add(one);
        }
        json.put("mutants", mutants);
        List<Map<String, Object>> matrix = new ArrayList<>();
        for (ClaimCatalog.Entry c : claims.entries()) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("id", c.id());
            row.put("title", c.title());
            List<String> killed = results.stream().filter(r -> r.credits().entrySet().stream()   // by the claim's own check
                            .anyMatch(k -> k.getKey().equals(k.getValue()) && ClaimCatalog.claimId(k.getKey()).equals(c.id())))
                    .map(r -> r.mutant().id()).toList();
            row.put("killed", killed);
            if (killed.isEmpty()) {
                row.put("why_none", !c.built() ? c.notRunReason() : catalog.withoutMutants().getOrDefault(c.id(), ""));
            }
            matrix.add(row);
        }
        json.put("claims", matrix);
        return json;
    }

    /** Writes both files into {@code dir}. */
    @SuppressWarnings("unchecked")
    static void write(Path dir, Map<String, Object> json) {
        try {
            Files.createDirectories(dir);
            Files.writeString(dir.resolve("mutants.json"), JSON.writeValueAsString(json) + "\n");
            Files.writeString(dir.resolve("mutants.md"), markdown(json));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the mutants report to " + dir, e);
        }
    }

    @SuppressWarnings("unchecked")
    static String markdown(Map<String, Object> json) {
        List<Map<String, Object>> mutants = (List<Map<String, Object>>) json.get("mutants");
        Map<String, Object> source = (Map<String, Object>) json.get("source");
        Map<String, Object> baseline = (Map<String, Object>) json.get("baseline");
        StringBuilder md = new StringBuilder("# seams — the mutation tier: does the gate catch regressions?\n\n");
        md.append("Generated ").append(json.get("generated_at")).append(" by `mvn verify -Pmutants` (profile `").append(json.get("profile"))
                .append("`) from source `").append(source.get("content_hash")).append("` (commit ").append(source.get("commit"))
                .append(source.get("dirty").equals(Boolean.TRUE) ? ", with uncommitted changes" : "").append("), in ")
                .append(json.get("seconds")).append(" s. ").append(ProvenanceMarkdown.REFRESHED).append("\n\n");
        md.append("Each mutant is a realistic regression applied to a copy of the tree, which is then built and tested as a ")
                .append("user's CI would (`mvn verify` of its tier), gated against the baseline report `").append(baseline.get("report"))
                .append("` (commit ").append(baseline.get("commit")).append(baseline.get("same_source").equals(Boolean.TRUE)
                        ? ", produced from this same source" : ", produced from another source").append("): **killed** means the build ")
                .append("went red because a check of a claim entry fired (a missed expectation, an anomaly, an assertion; or ")
                .append("an entry that PASSed in the baseline no longer PASSes for such a reason), and the same entry is not red ")
                .append("in the unmutated control (listed below). An entry red only by a timeout or an exception inside its claim ")
                .append("is **caught**, not killed: no check named what differs. An ENVIRONMENT entry (the ")
                .append("stand did not start or failed) or a build that timed out is never a kill: a mutant with nothing else is ")
                .append("an ERROR. Each kill is credited to the check that fired: the entry's own, or the shared settle ")
                .append("precondition named as itself. The claims expected to catch it run first; a survivor runs the rest of ")
                .append("its tier. Unit tests that failed are listed beside, never counted as the kill. Summary: ")
                .append(json.get("summary")).append(".\n\n");
        List<Map<String, Object>> controls = (List<Map<String, Object>>) json.getOrDefault("controls", List.of());
        md.append(controls.isEmpty() ? "No control ran.\n\n" : "Unmutated controls, built in this run from the same tree without a "
                + "patch, with the same selectors, settle bounds and gate as the mutants' builds:\n\n");
        for (Map<String, Object> c : controls) {
            Map<String, String> red = (Map<String, String>) c.get("red");
            md.append("- tier `").append(c.get("tier")).append("`, `").append(cell(c.get("selector"))).append("`: exit ")
                    .append(c.get("exit")).append(", ").append(c.get("seconds")).append(" s, log `").append(c.get("log")).append("`; ")
                    .append(red.isEmpty() ? "no entry red" : red.size() + " entries red, counted for no mutant: "
                            + cell(String.join("; ", red.values()))).append('\n');
        }
        if (!controls.isEmpty()) {
            md.append('\n');
        }
        md.append("| # | mutant | models | tier | verdict | killed by a check | caught only by a timeout or a crash | credited to "
                + "| unit tests that failed | seconds |\n|---|---|---|---|---|---|---|---|---|---|\n");
        for (int i = 0; i < mutants.size(); i++) {
            Map<String, Object> m = mutants.get(i);
            List<String> killers = (List<String>) m.get("killer_entries");
            md.append("| ").append(i + 1).append(" | `").append(m.get("id")).append("` | ").append(cell(m.get("models")))
                    .append(" (").append(m.get("kind")).append(reference(m)).append(") | ").append(m.get("tier")).append(" | **")
                    .append(m.get("verdict")).append("** | ").append(killers.isEmpty() ? cell(m.get("detail"))
                            : cell(String.join(", ", killers)) + " (" + m.get("killed_by_build") + ")")
                    .append(" | ").append(cell(String.join(", ", (List<String>) m.getOrDefault("caught_only_by_timeout_or_crash", List.of()))))
                    .append(" | ").append(cell(String.join(", ", new LinkedHashSet<>(
                            ((Map<String, String>) m.getOrDefault("credited", Map.of())).values()))))
                    .append(" | ").append(cell(String.join(", ", (List<String>) m.get("unit_tests_failed")))).append(" | ")
                    .append(m.get("seconds")).append(" |\n");
        }
        md.append("\n## Claims × mutants\n\nA mark where an entry of the claim (row) turned red on the mutant (column, numbered as above) by the claim's own check (a kill by the settle precondition marks no claim).\n\n| claim |");
        for (int i = 0; i < mutants.size(); i++) {
            md.append(' ').append(i + 1).append(" |");
        }
        md.append(" why none |\n|---|").append("---|".repeat(mutants.size())).append("---|\n");
        for (Map<String, Object> c : (List<Map<String, Object>>) json.get("claims")) {
            List<String> killed = (List<String>) c.get("killed");
            md.append("| ").append(c.get("id")).append(" |");
            for (Map<String, Object> m : mutants) {
                md.append(killed.contains(m.get("id")) ? " ● |" : "  |");
            }
            md.append(' ').append(cell(c.getOrDefault("why_none", ""))).append(" |\n");
        }
        md.append("\n## What each mutant changes\n\n");
        for (int i = 0; i < mutants.size(); i++) {
            Map<String, Object> m = mutants.get(i);
            md.append("- **").append(i + 1).append(". `").append(m.get("id")).append("`** — files ")
                    .append(String.join(", ", (List<String>) m.get("files"))).append("; expected: ")
                    .append(String.join("; ", (List<String>) m.get("expected_entries"))).append(" (run first: `")
                    .append(String.join(",", (List<String>) m.get("expected"))).append("`); builds: ")
                    .append(m.get("builds")).append(".\n");
            for (String k : ((Map<String, String>) m.get("killers")).values()) {
                md.append("  - ").append(cell(k)).append('\n');
            }
            ((Map<String, String>) m.getOrDefault("not_counted", Map.of())).forEach((id, why) ->
                    md.append("  - not counted: ").append(cell(why)).append('\n'));
            ((Map<String, List<String>>) m.getOrDefault("failures", Map.of())).forEach((id, all) -> {
                if (all.size() > 1) {
                    md.append("  - every failure of ").append(id).append(": ").append(cell(String.join("; ", all))).append('\n');
                }
            });
        }
        return md.toString();
    }

    private static String reference(Map<String, Object> m) {
        String ref = String.valueOf(m.getOrDefault("reference", ""));
        return ref.isBlank() ? "" : "; " + ref;
    }

    private static String cell(Object text) {
        return String.valueOf(text).replace("|", "\\|").replace("\n", " ");
    }
}
