package dev.seams.report;

import java.util.Map;

/**
 * The lines every generated report opens with, from its JSON twin: the source it was measured on
 * (commit, uncommitted changes, content hash of src/, containers/, pom.xml — see {@link Provenance})
 * and the table of live server versions. Shared by {@code reports/guarantees.md} and
 * {@code reports/performance.md}, so both say the same thing the same way.
 */
public final class ProvenanceMarkdown {

    /**
     * When a committed report is refreshed and what judges the landings in between (docs/gate.md "Where the committed report comes from"):
     * every generated report says it, so that a reader of an older report knows why it may be behind HEAD.
     */
    public static final String REFRESHED = "The committed report is refreshed when a piece of work is finished, from a clean "
            + "commit of main that it names (every tier the work touched); the landings in between carry it, and CI re-runs the "
            + "default and fault tiers on every change with it as the gate's baseline (README \"Verdicts and the report\").";

    private ProvenanceMarkdown() {
    }

    /**
     * Appends the source line and the live-version table.
     *
     * @param md   the Markdown being written
     * @param json the report's JSON twin; reads {@code source} (commit, dirty, content_hash) and
     *             {@code versions} (component → live version), either may be missing
     */
    @SuppressWarnings("unchecked")
    public static void append(StringBuilder md, Map<String, Object> json) {
        Map<String, Object> source = (Map<String, Object>) json.getOrDefault("source", Map.of());
        md.append("Source: commit `").append(source.get("commit")).append("`")
                .append(Boolean.TRUE.equals(source.get("dirty")) ? " with uncommitted changes" : "")
                .append(", content hash of src/, containers/, pom.xml `").append(source.get("content_hash")).append("`. ")
                .append(REFRESHED).append("\n\n");
        md.append("| component | live version |\n|---|---|\n");
        ((Map<String, Object>) json.getOrDefault("versions", Map.of()))
                .forEach((k, v) -> md.append("| ").append(k).append(" | ").append(v).append(" |\n"));
    }
}
