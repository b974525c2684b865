package dev.seams.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Renders the human report from the JSON twin (plain maps and lists) as an index and one page per claim (issue 37,
 * "the report as an index"). The index, {@code reports/guarantees.md}: the overall verdict line, header with live
 * versions and source, the summary table in docs/claims.md order (NOT_RUN rows included, each linked to its section)
 * and the B5 matrix at a glance. A claim's page, {@code reports/claims/<claim>.md}: the claim's statement from
 * docs/claims.md, then one section per entry of the claim naming its test, what it exercises, the verdict's reason,
 * every figure with its expected value and whether it was met, anomalies, negative controls, tables, charts and notes.
 */
final class Markdown {

    /** The index's file name in the reports directory. */
    static final String INDEX = "guarantees.md";
    /** The folder of the claims' pages, beside the index. */
    static final String PAGES = "claims";

    private Markdown() {
    }

    /** @return the index of {@code json} without the mutation tier's evidence (tests) */
    static String render(Map<String, Object> json) {
        return pages(json, Map.of(), Map.of()).get(INDEX);
    }

    /**
     * @param json       the claims report ({@code guarantees.json})
     * @param mutants    the mutation tier's report ({@code mutants.json}, empty if none): each entry's section and
     *                   the B5 matrix show the mutants that turned it red — its detector shown to fire (issue 21) —
     *                   when it is of the same source; else the header says it is stale
     * @param statements claim id → its title and what it states ({@link ClaimStatements}; a page without one if absent)
     * @return the report's files by their path relative to the reports directory: {@value #INDEX} first, then
     *     {@value #PAGES}{@code /<claim>.md} for every claim of the catalogue, in its order
     */
    static Map<String, String> pages(Map<String, Object> json, Map<String, Object> mutants,
                                     Map<String, ClaimStatements.Statement> statements) {
        return pages(json, mutants, statements, List.of());
    }

    /**
     * @param beside the reports committed beside this one and how old each is ({@link SubReports}): listed in the index,
     *               the stale ones named on the overall line
     * @return as {@link #pages(Map, Map, Map)}
     */
    @SuppressWarnings("unchecked")
    static Map<String, String> pages(Map<String, Object> json, Map<String, Object> mutants,
                                     Map<String, ClaimStatements.Statement> statements, List<SubReports.SubReport> beside) {
        Map<String, List<String>> fired = fired(json, mutants);
        List<Map<String, Object>> claims = (List<Map<String, Object>>) json.getOrDefault("claims", List.of());
        Map<String, String> pages = new LinkedHashMap<>();
        pages.put(INDEX, index(json, mutants, claims, fired, beside));
        Map<String, List<Map<String, Object>>> byClaim = new LinkedHashMap<>();
        claims.forEach(c -> byClaim.computeIfAbsent(ClaimCatalog.claimId(String.valueOf(c.get("id"))), k -> new ArrayList<>()).add(c));
        byClaim.forEach((claim, entries) -> pages.put(page(claim), claimPage(claim, entries, statements.get(claim), fired)));
        return pages;
    }

    /** @return the path of the page of the entry's claim, relative to the reports directory */
    static String page(String entryId) {
        return PAGES + "/" + anchor(ClaimCatalog.claimId(entryId)) + ".md";
    }

    /** @return the link from the index to the entry's section on its claim's page */
    static String link(String entryId) {
        return page(entryId) + "#" + anchor(entryId);
    }

    /** @return {@code  (file; the stand's changes: …)} of a header's {@code connector}, or empty for a report without one */
    @SuppressWarnings("unchecked")
    private static String connectorFile(Object connector) {
        if (!(connector instanceof Map<?, ?> m)) {
            return "";
        }
        List<String> overrides = (List<String>) ((Map<String, Object>) m).getOrDefault("overrides", List.of());
        return " (`" + m.get("file") + "`" + (overrides.isEmpty() ? "" : "; the stand's changes, the file's value → the stand's: "
                + String.join("; ", overrides)) + ")";
    }

    @SuppressWarnings("unchecked")
    private static String index(Map<String, Object> json, Map<String, Object> mutants, List<Map<String, Object>> claims,
                                Map<String, List<String>> fired, List<SubReports.SubReport> beside) {
        StringBuilder md = new StringBuilder();
        md.append("# seams — delivery guarantees, measured\n\n");
        md.append("Generated ").append(json.get("generated_at")).append(" by `mvn verify` (profile `")
                .append(json.get("profile")).append("`, sink under test `").append(json.getOrDefault("sink", ReportWriter.DEFAULT_SINK))
                .append("`, connector under test `").append(ReportWriter.connectorName(json.get("connector"))).append("`")
                .append(connectorFile(json.get("connector"))).append("). Every figure below was measured on the real servers of this run; ")
                .append("claim ids are those of `docs/claims.md`. Each claim's evidence is on its own page (`claims/<id>.md`), ")
                .append("linked from the summary. Machine-readable twin: `guarantees.json`.\n\n");
        Map<String, Object> gate = (Map<String, Object>) json.get("gate");
        List<String> stale = beside.stream().filter(SubReports.SubReport::stale).map(SubReports.SubReport::label).toList();
        md.append(overall(claims, (List<Map<String, Object>>) json.getOrDefault("runs", List.of()))).append(gate == null ? "" : waived(gate))
                .append(stale.isEmpty() ? "" : " Stale beside it (of other src/, containers/, pom.xml): " + String.join(", ", stale) + ".")
                .append("\n\n");
        ProvenanceMarkdown.append(md, json);
        md.append(json.get("suite_seconds") == null ? "\nThe default tier did not run on this source"
                        : "\nStand start: " + json.get("stand_start_seconds") + " s; suite (default tier): " + json.get("suite_seconds") + " s")
                .append("; verdicts: ").append(json.get("verdicts")).append(json.containsKey("verdicts_by_kind")
                        ? " (claim entries " + ((Map<String, Object>) json.get("verdicts_by_kind")).get("entries") + ", their parts "
                        + ((Map<String, Object>) json.get("verdicts_by_kind")).get("parts") + ")" : "").append(".\n");
        for (Map<String, Object> run : (List<Map<String, Object>>) json.getOrDefault("runs", List.of())) {
            md.append("Run of tier `").append(run.get("tier")).append("`: ").append(run.get("suite_seconds"))
                    .append(" s, ended ").append(run.get("generated_at")).append(".\n");
        }
        if (gate != null) {
            md.append(gateLine(gate));
        }
        md.append(mutationTier(json, mutants));
        if (!beside.isEmpty()) {
            md.append("Reports beside this one:\n");
            beside.forEach(b -> md.append("- ").append(b.line()).append("\n"));
        }
        md.append("\n## Summary\n\n| claim | title | verdict | anomalies | seconds | test |\n|---|---|---|---|---|---|\n");
        for (Map<String, Object> c : claims) {
            md.append("| [").append(c.get("id")).append("](").append(link(String.valueOf(c.get("id")))).append(") | ")
                    .append(c.get("title")).append(" | **").append(c.get("verdict"))
                    .append("** | ").append(anomalies((Map<String, Object>) c.get("anomalies"))).append(" | ")
                    .append(c.getOrDefault("seconds", "")).append(" | ").append(c.getOrDefault("test", "")).append(" |\n");
        }
        faultMatrix(md, claims, fired);
        return md.toString();
    }

    /** @return a claim's page: its title and statement, then the section of each of its entries */
    private static String claimPage(String claim, List<Map<String, Object>> entries, ClaimStatements.Statement statement,
                                    Map<String, List<String>> fired) {
        StringBuilder md = new StringBuilder();
        String title = statement != null ? statement.title() : String.valueOf(entries.get(0).get("title"));
        md.append("# ").append(claim).append(" — ").append(title).append("\n\n[The report](../").append(INDEX).append(") · ")
                .append(overall(entries, id -> "#" + anchor(id), List.of())).append("\n");
        if (statement != null) {
            md.append("\n**The claim** (`docs/claims.md`): ").append(statement.text()).append("\n");
        }
        for (Map<String, Object> c : entries) {
            section(md, c, fired.getOrDefault(String.valueOf(c.get("id")), List.of()));
        }
        return md.toString();
    }

    /**
     * @param gate a report's {@code gate} section ({@link Gate.Comparison#toJson})
     * @return the gate's lines: what was compared with what, what differs, and every waiver in force
     */
    @SuppressWarnings("unchecked")
    static String gateLine(Map<String, Object> gate) {
        List<String> regressions = (List<String>) gate.getOrDefault("regressions", List.of());
        StringBuilder md = new StringBuilder("Regression gate against `").append(gate.get("baseline")).append("` (commit ")
                .append(gate.get("baseline_commit")).append(", ").append(gate.get("baseline_passes")).append(" PASS entries): ");
        if (gate.containsKey("entries_produced")) {
            boolean whole = Boolean.TRUE.equals(gate.get("whole_tier"));
            md.append(whole ? "the `" + gate.get("tier") + "` tier ran whole and produced " + gate.get("entries_produced")
                            + " entries, the baseline's " + gate.get("baseline_entries") + "; of the " + gate.get("owed_passes")
                            + " PASS entries it owed there, "
                    : "a run of the `" + gate.get("tier") + "` tier restricted to some claims produced " + gate.get("entries_produced")
                            + " entries; of the " + gate.get("owed_passes") + " among them that PASSed there, ")
                    .append(gate.get("passing_now")).append(" PASS now; ");
        }
        md.append(regressions.isEmpty() ? "no regression." : regressions.size() + (regressions.size() == 1 ? " regression:" : " regressions:")).append(waived(gate)).append("\n");
        regressions.forEach(r -> md.append("- ").append(r).append("\n"));
        return md.toString();
    }

    /** @return the waivers in force in a {@code gate} section, as one sentence led by a space; empty when none */
    @SuppressWarnings("unchecked")
    private static String waived(Map<String, Object> gate) {
        List<Map<String, Object>> waivers = (List<Map<String, Object>>) gate.getOrDefault("waivers", List.of());
        if (waivers.isEmpty()) {
            return "";
        }
        List<String> each = waivers.stream().map(w -> new Waivers.Waiver(String.valueOf(w.get("id")), String.valueOf(w.get("reason")),
                (String) w.get("commit")).line()).toList();
        return " Waived (`" + Gate.WAIVERS + "`, never a regression): " + String.join("; ", each) + ".";
    }

    /** The column of a per-key reconciliation table ({@code check/Reconciliation}) and its value for a key that agrees. */
    private static final String STATUS = "status";
    private static final String AGREE = "ok";

    /**
     * @return the report's one-line verdict: {@code Overall: PASS} when every entry passes, else the entries that do
     *     not, by verdict (issue 37, "the report as an index")
     */
    static String overall(List<Map<String, Object>> claims) {
        return overall(claims, Markdown::link, List.of());
    }

    /**
     * @param runs the report's tier runs: one whose claims stopped before their end ({@link TierClock}) makes the line
     *             FAIL, whatever the entries say, and is named first
     * @return the report's one-line verdict, as {@link #overall(List)}
     */
    @SuppressWarnings("unchecked")
    static String overall(List<Map<String, Object>> claims, List<Map<String, Object>> runs) {
        List<String> stops = runs.stream().filter(r -> r.get("stopped") instanceof Map)
                .map(r -> GateCheck.stopLine(String.valueOf(r.get("tier")), (Map<String, Object>) r.get("stopped"))).toList();
        return overall(claims, Markdown::link, stops);
    }

    /**
     * @param link  entry id → the link to its section from where the line stands
     * @param stops the tiers that stopped before their end ({@link GateCheck#stopLine}): FAIL, named first
     * @return the one-line verdict of {@code claims}, as {@link #overall(List)}
     */
    private static String overall(List<Map<String, Object>> claims, java.util.function.Function<String, String> link,
                                  List<String> stops) {
        Map<String, List<String>> notPassing = new java.util.TreeMap<>();
        for (Map<String, Object> c : claims) {
            String verdict = String.valueOf(c.get("verdict"));
            if (!"PASS".equals(verdict)) {
                notPassing.computeIfAbsent(verdict, v -> new ArrayList<>()).add("[" + c.get("id") + "](" + link.apply(String.valueOf(c.get("id"))) + ")");
            }
        }
        StringBuilder line = new StringBuilder(!stops.isEmpty() ? "**Overall: FAIL** — " + String.join("; ", stops) + ". "
                : notPassing.isEmpty() ? "**Overall: PASS** — " : "**Overall: not PASS** — ");
        if (notPassing.isEmpty()) {
            return line.append(claims.size() == 1 ? "its one entry passes." : "all " + claims.size() + " entries pass.").toString();
        }
        notPassing.forEach((verdict, ids) -> line.append(verdict).append(" ").append(ids.size()).append(": ")
                .append(String.join(", ", ids)).append("; "));
        long passing = claims.size() - notPassing.values().stream().mapToLong(List::size).sum();
        return line.append(passing).append(" of ").append(claims.size()).append(" entries PASS.").toString();
    }

    /** @return the HTML anchor of an entry's section, e.g. {@code b5-clickhouse-stop-50} for {@code B5[clickhouse-stop@50%]} */
    static String anchor(String id) {
        return id.toLowerCase(java.util.Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("^-|-$", "");
    }

    /** @return the header line about the mutation tier's report: of this source, of another, or none */
    @SuppressWarnings("unchecked")
    private static String mutationTier(Map<String, Object> json, Map<String, Object> mutants) {
        if (mutants.isEmpty()) {
            return "No mutation tier report beside this one (`mvn verify -Pmutants`): no detector is shown to fire here.\n";
        }
        Map<String, Object> summary = (Map<String, Object>) mutants.getOrDefault("summary", Map.of());
        if (!sameSource(json, mutants)) {
            return "The mutation tier's report (`mutants.md`) is of another source (commit "
                    + ((Map<String, Object>) mutants.getOrDefault("source", Map.of())).get("commit")
                    + "): its kills are not shown here; regenerate it with `mvn verify -Pmutants`.\n";
        }
        return "Mutation tier (`mutants.md`, same source): " + summary.get("killed") + " of " + summary.get("mutants")
                + " mutants killed; each entry that turned one red says so in its section (\"Shown to fire\").\n";
    }

    @SuppressWarnings("unchecked")
    private static boolean sameSource(Map<String, Object> json, Map<String, Object> mutants) {
        Object here = ((Map<String, Object>) json.getOrDefault("source", Map.of())).get("content_hash");
        Object there = ((Map<String, Object>) mutants.getOrDefault("source", Map.of())).get("content_hash");
        return here != null && here.equals(there);
    }

    /**
     * @return entry id → lines "mutant {@code id} (what it models): why the entry turned red", from the
     *     mutants report's killers of the same source (none otherwise)
     */
    @SuppressWarnings("unchecked")
    static Map<String, List<String>> fired(Map<String, Object> json, Map<String, Object> mutants) {
        Map<String, List<String>> fired = new LinkedHashMap<>();
        if (mutants.isEmpty() || !sameSource(json, mutants)) {
            return fired;
        }
        Map<String, Object> source = (Map<String, Object>) mutants.getOrDefault("source", Map.of());
        String where = "measured by the mutation tier run of " + mutants.get("generated_at") + ", commit " + source.get("commit");
        for (Map<String, Object> m : (List<Map<String, Object>>) mutants.getOrDefault("mutants", List.of())) {
            Map<String, String> credited = (Map<String, String>) m.get("credited");   // absent in reports before issue 36
            ((Map<String, String>) m.getOrDefault("killers", Map.of())).forEach((entry, line) -> {
                if (credited != null && !entry.equals(credited.get(entry))) {
                    return;   // credited to the shared settle precondition, not to this entry's own check
                }
                fired.computeIfAbsent(entry, k -> new ArrayList<>()).add("mutant `" + m.get("id") + "` (" + m.get("models") + "): "
                        + (line.startsWith(entry + ": ") ? line.substring(entry.length() + 2) : line) + " (" + where + ")");
            });
        }
        return fired;
    }

    /**
     * The B5 matrix at a glance (issue "B5: faults at every other seam", "The report"): one row per
     * fault entry ({@code B5[<fault>]}), its verdict, the anomalies of the protected views (lost,
     * duplicate, …: must be 0) and what its unprotected twin showed (raw duplicates: the dedup was
     * needed), plus each point's verdict ({@code B5[<fault>@<point>]}).
     */
    @SuppressWarnings("unchecked")
    private static void faultMatrix(StringBuilder md, List<Map<String, Object>> claims, Map<String, List<String>> fired) {
        List<Map<String, Object>> faults = claims.stream()
                .filter(c -> String.valueOf(c.get("id")).startsWith("B5[") && !String.valueOf(c.get("id")).contains("@")).toList();
        if (faults.isEmpty()) {
            return;
        }
        md.append("\n## B5 fault matrix\n\n| fault | verdict | anomalies of the deduplicated views | unprotected twin | points "
                + "| shown to fire by (mutants.md) |\n|---|---|---|---|---|---|\n");
        for (Map<String, Object> f : faults) {
            String id = String.valueOf(f.get("id"));
            String fault = id.substring(3, id.length() - 1);
            String points = claims.stream().filter(c -> String.valueOf(c.get("id")).startsWith("B5[" + fault + "@"))
                    .map(c -> String.valueOf(c.get("id")).substring(("B5[" + fault + "@").length()).replace("]", "") + " " + c.get("verdict"))
                    .reduce((a, b) -> a + ", " + b).orElse("");
            if ("NOT_RUN".equals(f.get("verdict"))) {
                md.append("| ").append(fault).append(" | **NOT_RUN** | — | — | ").append(cell(String.valueOf(f.get("reason")))).append(" | |\n");
                continue;
            }
            Map<String, Object> controls = (Map<String, Object>) f.getOrDefault("negative_controls", Map.of());
            String twin = controls.isEmpty() ? "no redelivery expected"
                    : controls.entrySet().stream().map(en -> en.getKey() + " = " + ((Map<String, Object>) en.getValue()).get("count"))
                    .reduce((a, b) -> a + ", " + b).orElse("");
            md.append("| ").append(fault).append(" | **").append(f.get("verdict")).append("** | ")
                    .append(anomalies((Map<String, Object>) f.get("anomalies"))).append(" | ").append(cell(twin)).append(" | ")
                    .append(points).append(" | ").append(firedBy(fired, id, "B5[" + fault + "@")).append(" |\n");
        }
    }

    /** @return the ids of the mutants that turned the entry or one of its points red, comma-separated */
    private static String firedBy(Map<String, List<String>> fired, String id, String pointPrefix) {
        return fired.entrySet().stream().filter(en -> en.getKey().equals(id) || en.getKey().startsWith(pointPrefix))
                .flatMap(en -> en.getValue().stream()).map(line -> line.substring(line.indexOf('`') + 1, line.indexOf('`', line.indexOf('`') + 1)))
                .distinct().map(m -> "`" + m + "`").reduce((a, b) -> a + ", " + b).orElse("");
    }

    @SuppressWarnings("unchecked")
    private static void section(StringBuilder md, Map<String, Object> c, List<String> fired) {
        md.append("\n<a id=\"").append(anchor(String.valueOf(c.get("id")))).append("\"></a>\n\n## ").append(c.get("id"))
                .append(" — ").append(c.get("title")).append(": ").append(c.get("verdict")).append("\n\n");
        if (c.get("test") != null) {
            md.append("Test `").append(c.get("test")).append("`");
            List<String> exercises = (List<String>) c.getOrDefault("exercises", List.of());
            if (!exercises.isEmpty()) {
                md.append(" exercises ");
                md.append(String.join(", ", exercises.stream().map(x -> "`" + x + "`").toList()));
            }
            md.append(".\n\n");
        }
        if (c.get("reason") != null) {
            md.append("Reason: ").append(c.get("reason")).append("\n\n");
        }
        List<String> failures = (List<String>) c.getOrDefault("failures", List.of());
        if (failures.size() > 1) {
            md.append("```\n").append(String.join("\n", failures)).append("\n```\n\n");
        }
        Map<String, Object> figures = (Map<String, Object>) c.getOrDefault("figures", Map.of());
        Map<String, Object> expected = (Map<String, Object>) c.getOrDefault("expected", Map.of());
        Map<String, Object> why = (Map<String, Object>) c.getOrDefault("why", Map.of());
        if (!figures.isEmpty()) {
            md.append("| figure | measured | expected | why |\n|---|---|---|---|\n");
            figures.forEach((name, value) -> md.append("| ").append(name).append(" | ").append(cell(value)).append(" | ")
                    .append(expected.containsKey(name) ? cell(expected.get(name)) : "").append(" | ")
                    .append(why.containsKey(name) ? cell(why.get(name)) : "").append(" |\n"));
        }
        Map<String, Object> controls = (Map<String, Object>) c.getOrDefault("negative_controls", Map.of());
        controls.forEach((name, control) -> md.append("\nNegative control `").append(name).append("`: ")
                .append(((Map<String, Object>) control).get("count")).append(" × ")
                .append(((Map<String, Object>) control).get("shows")).append(" in the unprotected twin.\n"));
        for (Map<String, Object> t : (List<Map<String, Object>>) c.getOrDefault("tables", List.of())) {
            List<String> columns = (List<String>) t.get("columns");
            List<List<Object>> rows = (List<List<Object>>) t.get("rows");
            int status = columns.indexOf(STATUS);
            if (status >= 0) {   // a per-key reconciliation: only the keys that differ, the others counted
                List<List<Object>> differing = rows.stream().filter(r -> !AGREE.equals(String.valueOf(r.get(status)))).toList();
                md.append("\n").append(t.get("title")).append(": ").append(rows.size()).append(" keys compared, ")
                        .append(differing.isEmpty() ? "all agree" : differing.size() + " differ")
                        .append(" (every key's row is in `guarantees.json`)").append(differing.isEmpty() ? ".\n" : ":\n");
                if (differing.isEmpty()) {
                    continue;
                }
                rows = differing;
            } else {
                md.append("\n").append(t.get("title")).append("\n");
            }
            md.append("\n| ").append(String.join(" | ", columns)).append(" |\n|");
            md.append("---|".repeat(columns.size())).append("\n");
            for (List<Object> row : rows) {
                md.append("|");
                row.forEach(cell -> md.append(" ").append(cell(cell)).append(" |"));
                md.append("\n");
            }
        }
        ((Map<String, Object>) c.getOrDefault("charts", Map.of()))
                .forEach((file, caption) -> md.append("\n![").append(caption).append("](../").append(file).append(")\n"));
        for (String note : (List<String>) c.getOrDefault("notes", List.of())) {
            md.append("\n").append(note).append("\n");
        }
        if (!fired.isEmpty()) {
            md.append("\nShown to fire (the mutation tier, `mutants.md`): this entry's own checks turned red against a pipeline "
                    + "with the fault —\n\n");
            fired.forEach(line -> md.append("- ").append(cell(line)).append("\n"));
        }
    }

    /** @return the value as one Markdown table cell: pipes escaped, line breaks as spaces */
    static String cell(Object value) {
        return String.valueOf(value).replace("|", "\\|").replace("\n", " ");
    }

    private static String anomalies(Map<String, Object> anomalies) {
        if (anomalies == null) {
            return "";
        }
        StringBuilder s = new StringBuilder();
        anomalies.forEach((k, v) -> {
            if (!"0".equals(String.valueOf(v))) {
                s.append(s.isEmpty() ? "" : ", ").append(k).append("=").append(v);
            }
        });
        return s.isEmpty() ? "none" : s.toString();
    }
}
