package dev.seams.bench;

import dev.seams.report.ProvenanceMarkdown;
import java.util.List;
import java.util.Map;

/**
 * Renders {@code reports/performance.md} from its JSON twin (plain maps and lists): the header
 * (source, versions, size of the run), the summary table of goals and ratios, then one section per
 * benchmark with its ratios (median, min, max, every repetition), raw figures, tables, charts and notes.
 */
final class PerformanceMarkdown {

    private PerformanceMarkdown() {
    }

    @SuppressWarnings("unchecked")
    static String render(Map<String, Object> json) {
        StringBuilder md = new StringBuilder("# seams — performance, measured\n\n");
        md.append("Generated ").append(json.get("generated_at")).append(" by `mvn verify -Pbench` (profile `")
                .append(json.get("profile")).append("`) in ").append(json.get("bench_seconds")).append(" s on ")
                .append(json.get("cores")).append(" cores; ").append(json.get("records")).append(" records per P1/P2 run, ")
                .append(json.get("repetitions")).append(" repetitions per figure")
                .append(json.containsKey("span_seconds") ? ", each P1/P2 contender timed over at least " + json.get("span_seconds")
                        + " s per repetition (a shorter run repeated)" : "")
                .append(". Every figure is a ratio of two contenders ")
                .append("measured side by side in the same run, alternating which goes first; the machine is shared and noisy, ")
                .append("so the ratios count, not the absolute rates. Machine-readable twin: `performance.json`.\n\n");
        ProvenanceMarkdown.append(md, json);
        List<Map<String, Object>> benchmarks = (List<Map<String, Object>>) json.getOrDefault("benchmarks", List.of());
        md.append("\n## Summary\n\n| id | benchmark | goal | ratio: median (min–max) | goal met |\n|---|---|---|---|---|\n");
        for (Map<String, Object> b : benchmarks) {
            Map<String, Object> ratios = (Map<String, Object>) b.get("ratios");
            Object headline = b.get("headline");
            md.append("| ").append(b.get("id")).append(" | ").append(b.get("title")).append(" | ").append(b.get("goal"))
                    .append(" | ").append(headline == null ? "—" : headline + " " + spread((Map<String, Object>) ratios.get(headline)))
                    .append(" | ").append(b.get("goal_met") == null ? "—" : Boolean.TRUE.equals(b.get("goal_met")) ? "**yes**" : "**no**")
                    .append(" |\n");
        }
        benchmarks.forEach(b -> section(md, b));
        return md.toString();
    }

    @SuppressWarnings("unchecked")
    private static void section(StringBuilder md, Map<String, Object> b) {
        md.append("\n## ").append(b.get("id")).append(" — ").append(b.get("title")).append("\n\nGoal: ").append(b.get("goal")).append(".\n\n");
        Map<String, Object> ratios = (Map<String, Object>) b.getOrDefault("ratios", Map.of());
        if (!ratios.isEmpty()) {
            md.append("| ratio | median | min | max | per repetition |\n|---|---|---|---|---|\n");
            ratios.forEach((name, r) -> {
                Map<String, Object> s = (Map<String, Object>) r;
                md.append("| ").append(name).append(" | **").append(s.get("median")).append("** | ").append(s.get("min"))
                        .append(" | ").append(s.get("max")).append(" | ").append(s.get("values")).append(" |\n");
            });
            md.append("\n");
        }
        Map<String, Object> figures = (Map<String, Object>) b.getOrDefault("figures", Map.of());
        if (!figures.isEmpty()) {
            md.append("| figure | value |\n|---|---|\n");
            figures.forEach((name, value) -> md.append("| ").append(name).append(" | ")
                    .append(value instanceof Map<?, ?> m && m.containsKey("median") ? spread((Map<String, Object>) m) + " " + m.get("values") : value)
                    .append(" |\n"));
        }
        for (Map<String, Object> t : (List<Map<String, Object>>) b.getOrDefault("tables", List.of())) {
            List<String> columns = (List<String>) t.get("columns");
            md.append("\n").append(t.get("title")).append(":\n\n| ").append(String.join(" | ", columns)).append(" |\n|")
                    .append("---|".repeat(columns.size())).append("\n");
            for (List<Object> row : (List<List<Object>>) t.get("rows")) {
                md.append("| ").append(String.join(" | ", row.stream().map(String::valueOf).toList())).append(" |\n");
            }
        }
        for (Map<String, String> c : (List<Map<String, String>>) b.getOrDefault("charts", List.of())) {
            md.append("\n![").append(c.get("caption")).append("](").append(c.get("file")).append(")\n");
        }
        for (String note : (List<String>) b.getOrDefault("notes", List.of())) {
            md.append("\n").append(note).append("\n");
        }
    }

    private static String spread(Map<String, Object> s) {
        return s == null ? "—" : s.get("median") + " (" + s.get("min") + "–" + s.get("max") + ")";
    }
}
