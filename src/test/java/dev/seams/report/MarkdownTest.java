package dev.seams.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The report shows, in each entry's section, the mutants that turned it red: only from a mutants report of the same source;
 * it opens with one overall verdict, links each summary row to its section on its claim's page, which opens with the
 * claim's statement, and shows per-key tables by their differing keys (issue 37, "the report as an index").
 */
class MarkdownTest {

    private static final Map<String, Object> REPORT = Map.of(
            "source", Map.of("content_hash", "abc", "commit", "1111111"),
            "claims", List.of(
                    Map.of("id", "B5[clickhouse-stop]", "title", "Faults", "verdict", "PASS"),
                    Map.of("id", "B5[clickhouse-stop@50%]", "title", "Faults", "verdict", "PASS"),
                    Map.of("id", "G7", "title", "Rewind", "verdict", "PASS")));

    private static Map<String, Object> mutants(String contentHash) {
        return Map.of("source", Map.of("content_hash", contentHash, "commit", "2222222"), "generated_at", "2026-12-03T06:00:00Z",
                "summary", Map.of("mutants", 1, "killed", 1),
                "mutants", List.of(Map.of("id", "sink-commit-before-write", "models", "offsets committed before the insert",
                        "killers", Map.of("B5[clickhouse-stop@50%]",
                                "B5[clickhouse-stop@50%]: PASS in the baseline, FAIL now (lost_rows 120, expected 0)"))));
    }

    /** @return the index and every claim's page, one after the other */
    private static String all(Map<String, Object> json, Map<String, Object> mutants) {
        return String.join("\n", Markdown.pages(json, mutants, Map.of()).values());
    }

    @Test
    void anEntryKilledByAMutantOfTheSameSourceShowsItsDetectorFiring() {
        String md = all(REPORT, mutants("abc"));
        assertThat(md).contains("1 of 1 mutants killed");
        String point = md.substring(md.indexOf("## B5[clickhouse-stop@50%]"));
        assertThat(point.substring(0, point.indexOf("## G7"))).contains("Shown to fire")
                .contains("mutant `sink-commit-before-write` (offsets committed before the insert): PASS in the baseline, "
                        + "FAIL now (lost_rows 120, expected 0) (measured by the mutation tier run of 2026-12-03T06:00:00Z, "
                        + "commit 2222222)");
        assertThat(md.substring(md.indexOf("## G7"))).doesNotContain("Shown to fire");
        assertThat(md).as("the B5 matrix names the mutant on the fault's row")
                .containsPattern("\\| clickhouse-stop \\| \\*\\*PASS\\*\\* .*\\| `sink-commit-before-write` \\|");
    }

    @Test
    void aKillCreditedToTheSettlePreconditionIsNotShownAsTheEntrysDetector() {
        Map<String, Object> mutants = Map.of("source", Map.of("content_hash", "abc", "commit", "2222222"),
                "summary", Map.of("mutants", 1, "killed", 1),
                "mutants", List.of(Map.of("id", "streams-subtractor-noop", "models", "an UPDATE adds and never subtracts",
                        "killers", Map.of("G7", "G7: PASS in the baseline, FAIL now (the pipeline settled wrong: 5 differing keys)"),
                        "credited", Map.of("G7", "settle precondition (fixture/Pipeline: ds-streams' snapshots vs PostgreSQL)"))));
        assertThat(all(REPORT, mutants)).doesNotContain("Shown to fire (the mutation tier");
    }

    @Test
    void aMutantsReportOfAnotherSourceIsNamedStaleAndShowsNoKill() {
        String md = all(REPORT, mutants("other"));
        assertThat(md).contains("is of another source (commit 2222222)").doesNotContain("Shown to fire");
        assertThat(Markdown.render(REPORT)).contains("No mutation tier report beside this one");
    }

    @Test
    void theHeaderNamesTheConnectorUnderTestAndTheStandsChangesToIt() {
        assertThat(Markdown.render(REPORT)).as("a report from before the field: the shipped configuration")
                .contains("connector under test `shipped`). Every figure");
        Map<String, Object> mine = new java.util.LinkedHashMap<>(REPORT);
        mine.put("connector", Map.of("name", "mine", "file", "/home/u/mine.json", "overrides", List.of("topic.prefix: prod -> seams")));
        assertThat(Markdown.render(mine)).contains("connector under test `mine` (`/home/u/mine.json`; the stand's changes, the file's "
                + "value → the stand's: topic.prefix: prod -> seams)");
    }

    @Test
    void theReportOpensWithOneOverallVerdictNamingTheEntriesThatDoNotPass() {
        assertThat(Markdown.render(REPORT)).contains("**Overall: PASS** — all 3 entries pass.");
        Map<String, Object> mixed = Map.of("claims", List.of(
                Map.of("id", "G6[optimize_on_insert=1]", "title", "t", "verdict", "UNVERIFIED"),
                Map.of("id", "B18", "title", "t", "verdict", "NOT_RUN"),
                Map.of("id", "G1", "title", "t", "verdict", "PASS")));
        assertThat(Markdown.render(mixed)).contains("**Overall: not PASS** — NOT_RUN 1: [B18](claims/b18.md#b18); "
                + "UNVERIFIED 1: [G6[optimize_on_insert=1]](claims/g6.md#g6-optimize-on-insert-1); 1 of 3 entries PASS.");
    }

    @Test
    void aTierThatStoppedBeforeItsEndMakesTheOverallLineFailWhateverItsEntriesSay() {
        Map<String, Object> stopped = Map.of("claims", List.of(
                Map.of("id", "B9", "title", "t", "verdict", "NOT_RUN"),
                Map.of("id", "G1", "title", "t", "verdict", "PASS")),
                "runs", List.of(Map.of("tier", "default", "suite_seconds", 300.0,
                        "stopped", Map.of("reason", "the tier's claims ran out of their 900 s", "not_run", List.of("B9")))));
        assertThat(Markdown.render(stopped)).contains("**Overall: FAIL** — the default tier stopped before its end: the "
                + "tier's claims ran out of their 900 s; 1 claim not started (NOT_RUN). NOT_RUN 1: [B9](claims/b9.md#b9); 1 of 2 entries PASS.");
    }

    @Test
    void eachSummaryRowLinksToItsEntrysSectionOnItsClaimsPage() {
        Map<String, String> pages = Markdown.pages(REPORT, Map.of(), Map.of());
        assertThat(pages.keySet()).containsExactly("guarantees.md", "claims/b5.md", "claims/g7.md");
        assertThat(pages.get("guarantees.md")).contains("| [B5[clickhouse-stop@50%]](claims/b5.md#b5-clickhouse-stop-50) | Faults | **PASS** |")
                .doesNotContain("## B5[clickhouse-stop@50%]");
        assertThat(pages.get("claims/b5.md")).contains("<a id=\"b5-clickhouse-stop-50\"></a>\n\n## B5[clickhouse-stop@50%] — Faults: PASS")
                .contains("[The report](../guarantees.md) · **Overall: PASS** — all 2 entries pass.")
                .doesNotContain("## G7");
        assertThat(Markdown.anchor("B12[commit interval 5s, join and leave @30%]")).isEqualTo("b12-commit-interval-5s-join-and-leave-30");
    }

    @Test
    void aClaimsPageOpensWithItsStatementFromTheCatalogueAndReachesTheChartsBesideTheIndex() {
        Map<String, ClaimStatements.Statement> statements = ClaimStatements.parse("""
                | id | claim | what the test does and asserts |
                |---|---|---|
                | G7 | Rewind | Reset the group to the start; FINAL unchanged. |
                """);
        assertThat(statements).containsOnlyKeys("G7");
        Map<String, Object> report = Map.of("claims", List.of(Map.of("id", "G7[again]", "title", "Rewind: again", "verdict", "PASS",
                "charts", Map.of("g7-lag.svg", "Lag"))));
        assertThat(Markdown.pages(report, Map.of(), statements).get("claims/g7.md"))
                .startsWith("# G7 — Rewind\n\n[The report](../guarantees.md)")
                .contains("**The claim** (`docs/claims.md`): Reset the group to the start; FINAL unchanged.")
                .contains("![Lag](../g7-lag.svg)");
        assertThat(ClaimStatements.fromDocs()).as("every claim of the project's catalogue has its statement")
                .containsKeys("G1", "G15", "B1", "B18");
    }

    @Test
    void aPerKeyTableShowsOnlyTheKeysThatDifferAndCountsTheOthers() {
        List<String> columns = List.of("customer_id", "PG orders/total", "view orders/total", "status");
        Map<String, Object> report = Map.of("claims", List.of(
                Map.of("id", "G1", "title", "t", "verdict", "PASS", "tables", List.of(Map.of("title", "Per customer: PG vs FINAL",
                        "columns", columns, "rows", List.of(List.of(1, "2/3.00", "2/3.00", "ok"), List.of(2, "1/1.00", "1/1.00", "ok"))))),
                Map.of("id", "G2", "title", "t", "verdict", "PASS", "tables", List.of(Map.of("title", "Per customer: PG vs twin",
                        "columns", columns, "rows", List.of(List.of(1, "2/3.00", "2/3.00", "ok"), List.of(2, "1/1.00", "2/2.00", "duplicate")))))));
        String md = all(report, Map.of());
        assertThat(md).contains("Per customer: PG vs FINAL: 2 keys compared, all agree (every key's row is in `guarantees.json`).")
                .contains("Per customer: PG vs twin: 2 keys compared, 1 differ (every key's row is in `guarantees.json`):")
                .contains("| 2 | 1/1.00 | 2/2.00 | duplicate |")
                .doesNotContain("| 1 | 2/3.00 | 2/3.00 | ok |");
    }

    @Test
    void theGateLineSaysWhatWasComparedAndTheOverallLineListsEveryWaiver() {
        Map<String, Object> gate = new java.util.LinkedHashMap<>(Map.of("baseline", "b.json", "baseline_commit", "2af64c2",
                "baseline_passes", 3, "tier", "default", "whole_tier", true, "entries_produced", 3, "baseline_entries", 3,
                "owed_passes", 2, "passing_now", 2));
        gate.put("regressions", List.of());
        gate.put("waivers", List.of(Map.of("id", "G11[three-decimals]", "reason", "a value the source holds", "commit",
                "abfdc7e28d3041581e8f788a8693980b44fff6d1")));
        Map<String, Object> json = new java.util.LinkedHashMap<>(REPORT);
        json.put("gate", gate);

        String index = Markdown.pages(json, Map.of(), Map.of()).get(Markdown.INDEX);

        String waived = " Waived (`reports/waivers.tsv`, never a regression): G11[three-decimals] (added in abfdc7e: a value the source holds).";
        assertThat(index).contains("**Overall: PASS** — all 3 entries pass." + waived + "\n");
        assertThat(index).contains("Regression gate against `b.json` (commit 2af64c2, 3 PASS entries): the `default` tier ran "
                + "whole and produced 3 entries, the baseline's 3; of the 2 PASS entries it owed there, 2 PASS now; no regression." + waived);
        gate.put("waivers", List.of());
        gate.put("whole_tier", false);
        gate.put("regressions", List.of("G7: PASS in the baseline, FAIL now"));
        assertThat(Markdown.pages(json, Map.of(), Map.of()).get(Markdown.INDEX)).contains("a run of the `default` tier restricted to "
                + "some claims produced 3 entries; of the 2 among them that PASSed there, 2 PASS now; 1 regression:\n"
                + "- G7: PASS in the baseline, FAIL now\n").doesNotContain("Waived");
    }
}
