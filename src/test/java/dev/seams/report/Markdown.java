package dev.seams.report;

import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/** Renders the human report, {@code reports/guarantees.md}, from the same data as the JSON. */
final class Markdown {

    private Markdown() {
    }

    @SuppressWarnings("unchecked")
    static String render(Map<String, Object> json, List<ClaimEvidence> claims) {
        StringBuilder md = new StringBuilder();
        md.append("# seams — delivery guarantees, measured\n\n");
        md.append("Generated ").append(json.get("generated_at")).append(" by `mvn verify` (profile `")
                .append(json.get("profile")).append("`). Every figure below was measured on the real servers of this run; ")
                .append("claim ids are those of CLAIMS.md. Machine-readable twin: `guarantees.json`.\n\n");
        md.append("| component | live version |\n|---|---|\n");
        ((Map<String, Object>) json.get("versions")).forEach((k, v) -> md.append("| ").append(k).append(" | ").append(v).append(" |\n"));
        md.append("\nStand start: ").append(json.get("stand_start_seconds")).append(" s; suite: ")
                .append(json.get("suite_seconds")).append(" s; verdicts: ").append(json.get("verdicts")).append(".\n\n");

        md.append("## Summary\n\n| claim | title | verdict | anomalies | seconds |\n|---|---|---|---|---|\n");
        for (ClaimEvidence c : claims) {
            md.append("| ").append(c.id()).append(" | ").append(c.title()).append(" | **").append(c.verdict()).append("** | ")
                    .append(anomalies(c.anomalies())).append(" | ").append(ReportWriter.round(c.seconds())).append(" |\n");
        }
        for (ClaimEvidence c : claims) {
            md.append("\n## ").append(c.id()).append(" — ").append(c.title()).append(": ").append(c.verdict()).append("\n\n");
            if (c.failure() != null) {
                md.append("```\n").append(c.failure().strip()).append("\n```\n\n");
            }
            Map<String, Object> figures = c.figures();
            Map<String, Object> expected = c.expectedValues();
            TreeSet<String> names = new TreeSet<>(expected.keySet());
            md.append("| figure | measured | expected |\n|---|---|---|\n");
            for (String name : figures.keySet()) {
                md.append("| ").append(name).append(" | ").append(figures.get(name)).append(" | ")
                        .append(expected.containsKey(name) ? expected.get(name) : "").append(" |\n");
                names.remove(name);
            }
            for (String name : names) {
                md.append("| ").append(name).append(" | (not measured) | ").append(expected.get(name)).append(" |\n");
            }
            for (ClaimEvidence.Table t : c.tables()) {
                md.append("\n").append(t.title()).append("\n\n| ").append(String.join(" | ", t.columns())).append(" |\n|");
                md.append("---|".repeat(t.columns().size())).append("\n");
                for (List<Object> row : t.rows()) {
                    md.append("|");
                    row.forEach(cell -> md.append(" ").append(cell).append(" |"));
                    md.append("\n");
                }
            }
            c.charts().forEach((file, caption) -> md.append("\n![").append(caption).append("](").append(file).append(")\n"));
            for (String note : c.notes()) {
                md.append("\n").append(note).append("\n");
            }
        }
        return md.toString();
    }

    private static String anomalies(Map<String, Long> anomalies) {
        StringBuilder s = new StringBuilder();
        anomalies.forEach((k, v) -> {
            if (v != 0) {
                s.append(s.isEmpty() ? "" : ", ").append(k).append("=").append(v);
            }
        });
        return s.isEmpty() ? "none" : s.toString();
    }
}
