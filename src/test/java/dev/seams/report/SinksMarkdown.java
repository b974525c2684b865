package dev.seams.report;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * {@code reports/sinks.md}: the sinks under test side by side, claim by claim (docs/sinks.md), from their committed
 * reports — ds-sink's {@code reports/guarantees.json} and each other sink's {@code reports/sinks/<sink>/guarantees.json}.
 * Each column is one report with its commit, profile and date; each cell an entry's verdict, and for anything but PASS
 * its reason. Written by {@link ReportWriter} after every whole run, from what is on disk then.
 */
final class SinksMarkdown {

    /** The file, relative to the project root. */
    static final String FILE = "reports/sinks.md";
    /** A reason longer than this is cut in a cell (the claim's page has it whole). */
    private static final int REASON_CHARS = 160;

    private SinksMarkdown() {
    }

    /**
     * Writes {@value #FILE} when at least one sink other than ds-sink has a report.
     *
     * @param root the project root
     * @return whether it was written
     * @throws UncheckedIOException if a report cannot be read or the file written
     */
    static boolean write(Path root) {
        Path sinks = root.resolve("reports/sinks");
        if (!Files.isDirectory(sinks) || !Files.isRegularFile(root.resolve("reports/guarantees.json"))) {
            return false;
        }
        Map<String, Map<String, Object>> reports = new LinkedHashMap<>();
        reports.put("reports/guarantees.json", ReportWriter.read(root.resolve("reports/guarantees.json")));
        try (Stream<Path> dirs = Files.list(sinks)) {
            for (Path dir : dirs.sorted().toList()) {
                Path json = dir.resolve("guarantees.json");
                if (Files.isRegularFile(json)) {
                    reports.put(root.relativize(json).toString(), ReportWriter.read(json));
                }
            }
            if (reports.size() < 2) {
                return false;
            }
            Files.writeString(root.resolve(FILE), render(reports, ClaimCatalog.load()));
            return true;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + FILE, e);
        }
    }

    /**
     * @param reports file → report, ds-sink's first
     * @return the page
     */
    @SuppressWarnings("unchecked")
    static String render(Map<String, Map<String, Object>> reports, ClaimCatalog catalog) {
        StringBuilder md = new StringBuilder("# seams — the sinks under test, side by side\n\n");
        md.append("Each column is one sink's committed report (`mvn verify -Dseams.sink=<sink>`, docs/sinks.md); each row a claim ")
                .append("entry of `docs/claims.md`. NOT_RUN with a reason is a question the sink's contract says it cannot be ")
                .append("asked; FAIL is the sink's answer, with the evidence on that report's claim page. Generated from the ")
                .append("reports on disk whenever a whole run writes one.\n\n");
        md.append("| sink | report | profile | commit | generated | PASS | FAIL | UNVERIFIED | NOT_RUN |\n|---|---|---|---|---|---|---|---|---|\n");
        Map<String, Map<String, Map<String, Object>>> entries = new LinkedHashMap<>();
        TreeSet<String> ids = new TreeSet<>(catalog.order());
        List<String> sinks = new ArrayList<>();
        reports.forEach((file, report) -> {
            String sink = String.valueOf(report.getOrDefault("sink", ReportWriter.DEFAULT_SINK));
            sinks.add(sink);
            Map<String, Object> source = (Map<String, Object>) report.getOrDefault("source", Map.of());
            Map<String, Object> verdicts = (Map<String, Object>) report.getOrDefault("verdicts", Map.of());
            String commit = String.valueOf(source.getOrDefault("commit", "?"));
            md.append("| `").append(sink).append("` | `").append(file).append("` | `").append(report.get("profile")).append("` | `")
                    .append(commit, 0, Math.min(12, commit.length())).append("` | ").append(report.get("generated_at"));
            for (String v : List.of("PASS", "FAIL", "UNVERIFIED", "NOT_RUN")) {
                md.append(" | ").append(verdicts.getOrDefault(v, 0));
            }
            md.append(" |\n");
            Map<String, Map<String, Object>> byId = new LinkedHashMap<>();
            for (Map<String, Object> c : (List<Map<String, Object>>) report.getOrDefault("claims", List.of())) {
                byId.put(String.valueOf(c.get("id")), c);
                ids.add(String.valueOf(c.get("id")));
            }
            entries.put(sink, byId);
        });
        md.append("\n| entry | title |");
        sinks.forEach(s -> md.append(" `").append(s).append("` |"));
        md.append("\n|---|---|").append("---|".repeat(sinks.size())).append("\n");
        for (String id : ids) {
            String title = entries.values().stream().map(m -> m.get(id)).filter(c -> c != null && c.get("title") != null)
                    .map(c -> String.valueOf(c.get("title"))).findFirst().orElse("");
            md.append("| ").append(id).append(" | ").append(Markdown.cell(title)).append(" |");
            for (String sink : sinks) {
                Map<String, Object> c = entries.get(sink).get(id);
                md.append(" ").append(c == null ? "—" : verdict(c)).append(" |");
            }
            md.append("\n");
        }
        return md.toString();
    }

    private static String verdict(Map<String, Object> entry) {
        String verdict = String.valueOf(entry.get("verdict"));
        Object reason = entry.get("reason");
        if ("PASS".equals(verdict) || reason == null) {
            return "PASS".equals(verdict) ? "PASS" : "**" + verdict + "**";
        }
        String text = String.valueOf(reason);
        return "**" + verdict + "**: " + Markdown.cell(text.length() > REASON_CHARS ? text.substring(0, REASON_CHARS) + "…" : text);
    }
}
