package dev.seams.report;

import java.util.List;
import java.util.Map;

/**
 * Renders the human report, {@code reports/guarantees.md}, from the JSON twin (plain maps and lists):
 * header with live versions and source, the summary table in CLAIMS.md order (NOT_RUN rows
 * included), then one section per entry naming its test, what it exercises, the verdict's reason,
 * every figure with its expected value and whether it was met, anomalies, negative controls,
 * tables, charts and notes.
 */
final class Markdown {

    private Markdown() {
    }

    @SuppressWarnings("unchecked")
    static String render(Map<String, Object> json) {
        StringBuilder md = new StringBuilder();
        md.append("# seams — delivery guarantees, measured\n\n");
        md.append("Generated ").append(json.get("generated_at")).append(" by `mvn verify` (profile `")
                .append(json.get("profile")).append("`). Every figure below was measured on the real servers of this run; ")
                .append("claim ids are those of CLAIMS.md. Machine-readable twin: `guarantees.json`.\n\n");
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
        Map<String, Object> gate = (Map<String, Object>) json.get("gate");
        if (gate != null) {
            List<String> regressions = (List<String>) gate.getOrDefault("regressions", List.of());
            md.append("Regression gate against `").append(gate.get("baseline")).append("` (commit ")
                    .append(gate.get("baseline_commit")).append(", ").append(gate.get("baseline_passes"))
                    .append(" PASS entries): ").append(regressions.isEmpty() ? "no entry that passed there passes no longer.\n"
                            : regressions.size() + " entries passed there and do not pass now:\n");
            regressions.forEach(r -> md.append("- ").append(r).append("\n"));
        }
        List<Map<String, Object>> claims = (List<Map<String, Object>>) json.getOrDefault("claims", List.of());
        md.append("\n## Summary\n\n| claim | title | verdict | anomalies | seconds | test |\n|---|---|---|---|---|---|\n");
        for (Map<String, Object> c : claims) {
            md.append("| ").append(c.get("id")).append(" | ").append(c.get("title")).append(" | **").append(c.get("verdict"))
                    .append("** | ").append(anomalies((Map<String, Object>) c.get("anomalies"))).append(" | ")
                    .append(c.getOrDefault("seconds", "")).append(" | ").append(c.getOrDefault("test", "")).append(" |\n");
        }
        faultMatrix(md, claims);
        for (Map<String, Object> c : claims) {
            section(md, c);
        }
        return md.toString();
    }

    /**
     * The B5 matrix at a glance (issue "B5: faults at every other seam", "The report"): one row per
     * fault entry ({@code B5[<fault>]}), its verdict, the anomalies of the protected views (lost,
     * duplicate, …: must be 0) and what its unprotected twin showed (raw duplicates: the dedup was
     * needed), plus each point's verdict ({@code B5[<fault>@<point>]}).
     */
    @SuppressWarnings("unchecked")
    private static void faultMatrix(StringBuilder md, List<Map<String, Object>> claims) {
        List<Map<String, Object>> faults = claims.stream()
                .filter(c -> String.valueOf(c.get("id")).startsWith("B5[") && !String.valueOf(c.get("id")).contains("@")).toList();
        if (faults.isEmpty()) {
            return;
        }
        md.append("\n## B5 fault matrix\n\n| fault | verdict | anomalies of the deduplicated views | unprotected twin | points |\n|---|---|---|---|---|\n");
        for (Map<String, Object> f : faults) {
            String id = String.valueOf(f.get("id"));
            String fault = id.substring(3, id.length() - 1);
            String points = claims.stream().filter(c -> String.valueOf(c.get("id")).startsWith("B5[" + fault + "@"))
                    .map(c -> String.valueOf(c.get("id")).substring(("B5[" + fault + "@").length()).replace("]", "") + " " + c.get("verdict"))
                    .reduce((a, b) -> a + ", " + b).orElse("");
            if ("NOT_RUN".equals(f.get("verdict"))) {
                md.append("| ").append(fault).append(" | **NOT_RUN** | — | — | ").append(cell(String.valueOf(f.get("reason")))).append(" |\n");
                continue;
            }
            Map<String, Object> controls = (Map<String, Object>) f.getOrDefault("negative_controls", Map.of());
            String twin = controls.isEmpty() ? "no redelivery expected"
                    : controls.entrySet().stream().map(en -> en.getKey() + " = " + ((Map<String, Object>) en.getValue()).get("count"))
                    .reduce((a, b) -> a + ", " + b).orElse("");
            md.append("| ").append(fault).append(" | **").append(f.get("verdict")).append("** | ")
                    .append(anomalies((Map<String, Object>) f.get("anomalies"))).append(" | ").append(cell(twin)).append(" | ")
                    .append(points).append(" |\n");
        }
    }

    @SuppressWarnings("unchecked")
    private static void section(StringBuilder md, Map<String, Object> c) {
        md.append("\n## ").append(c.get("id")).append(" — ").append(c.get("title")).append(": ").append(c.get("verdict")).append("\n\n");
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
            md.append("\n").append(t.get("title")).append("\n\n| ").append(String.join(" | ", columns)).append(" |\n|");
            md.append("---|".repeat(columns.size())).append("\n");
            for (List<Object> row : (List<List<Object>>) t.get("rows")) {
                md.append("|");
                row.forEach(cell -> md.append(" ").append(cell(cell)).append(" |"));
                md.append("\n");
            }
        }
        ((Map<String, Object>) c.getOrDefault("charts", Map.of()))
                .forEach((file, caption) -> md.append("\n![").append(caption).append("](").append(file).append(")\n"));
        for (String note : (List<String>) c.getOrDefault("notes", List.of())) {
            md.append("\n").append(note).append("\n");
        }
    }

    private static String cell(Object value) {
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
