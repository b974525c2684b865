package dev.seams.report;

import java.util.Map;

/**
 * The lines every generated report opens with, from its JSON twin: the source it was measured on
 * (commit, uncommitted changes, content hash of src/, containers/, pom.xml — see {@link Provenance})
 * and the table of live server versions. Shared by {@code reports/guarantees.md} and
 * {@code reports/performance.md}, so both say the same thing the same way.
 */
public final class ProvenanceMarkdown {

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
                .append(", content hash of src/, containers/, pom.xml `").append(source.get("content_hash")).append("`.\n\n");
        md.append("| component | live version |\n|---|---|\n");
        ((Map<String, Object>) json.getOrDefault("versions", Map.of()))
                .forEach((k, v) -> md.append("| ").append(k).append(" | ").append(v).append(" |\n"));
    }
}
