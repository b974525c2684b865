package dev.seams.mutants;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seams.report.ClaimCatalog;
import dev.seams.report.Provenance;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The mutants report (issue 21): killed or not, by which entries, the unit tests beside, the matrix claims × mutants. */
class MutantsReportTest {

    private static final Path ROOT = Path.of("/p");

    private static Mutant mutant(String id) {
        return MutantCatalog.load().select(id).get(0);
    }

    @Test
    @SuppressWarnings("unchecked")
    void eachMutantsKillersAndTheMatrixOfClaims() {
        MutantRun.Build red = new MutantRun.Build("OutagesIT", 1, 90.0, ROOT.resolve("build-1.log"),
                Map.of("B5[quick-clickhouse-stop]", "B5[quick-clickhouse-stop]: FAIL (anomaly lost = 96)"), List.of("SinkTest#skipsNothing"), 4,
                Map.of(), Map.of("B5[quick-clickhouse-stop]", "B5[quick-clickhouse-stop]"));
        MutantRun.Build caught = new MutantRun.Build("SlotIT", 1, 190.0, ROOT.resolve("build-1.log"), Map.of(), List.of(), 3,
                Map.of("B14[graceful stop]", MutantJudge.CAUGHT_ONLY + "B14[graceful stop]: PASS in the baseline, FAIL now (timed out: …)"),
                Map.of(), Map.of("B14[graceful stop]", List.of("timed out: task RUNNING", "threw NoSuchElementException at SlotIT.b14(SlotIT.java:9): No value present")));
        MutantRun.Build green = new MutantRun.Build("TransactionsIT", 0, 60.0, ROOT.resolve("build-1.log"), Map.of(), List.of(), 5);
        List<MutantRun.Result> results = List.of(
                new MutantRun.Result(mutant("sink-skip-retriable-batch"), "KILLED", "expected claims", "",
                        List.of(red), 95.0),
                new MutantRun.Result(mutant("sink-caught-up-ignores-group"), "SURVIVED", "", "its expected claims passed", List.of(green), 70.0),
                new MutantRun.Result(mutant("connector-slot-drop-on-stop"), "CAUGHT", "", "red only by a timeout", List.of(caught), 200.0));
        MutantRun.Settings settings = new MutantRun.Settings(ROOT, ROOT.resolve("target/mutants"), ROOT.resolve("reports/guarantees.json"),
                "offline", "mvn", false, Duration.ofMinutes(30));
        Provenance source = new Provenance("abc", Map.of(), "2af64c2", false);
        Map<String, Object> json = MutantsReport.toJson(results, List.of(new MutantControls.Control("default", "OutagesIT,TransactionsIT", 0, 80.0,
                        ROOT.resolve("control.log"), Map.of())), MutantCatalog.load(), ClaimCatalog.load(), settings, source,
                Map.of("source", Map.of("content_hash", "abc", "commit", "2af64c2")), 165.0);

        assertThat((Map<String, Object>) json.get("summary")).containsEntry("mutants", 3).containsEntry("killed", 1L).containsEntry("caught", 1L)
                .containsEntry("survived", 1L).containsEntry("caught_by_unit_tests", 1L);
        assertThat((Map<String, Object>) json.get("baseline")).containsEntry("same_source", true);
        List<Map<String, Object>> mutants = (List<Map<String, Object>>) json.get("mutants");
        assertThat(mutants.get(0)).containsEntry("killed", true).containsEntry("killer_entries", List.of("B5[quick-clickhouse-stop]"))
                .containsEntry("unit_tests_failed", List.of("SinkTest#skipsNothing"));
        assertThat(mutants.get(1)).containsEntry("killed", false).containsEntry("verdict", "SURVIVED");
        List<Map<String, Object>> claims = (List<Map<String, Object>>) json.get("claims");
        assertThat(claims).filteredOn(c -> c.get("id").equals("B5")).singleElement()
                .satisfies(c -> assertThat(c.get("killed")).isEqualTo(List.of("sink-skip-retriable-batch")));
        ClaimCatalog.load().entries().stream().filter(claim -> !claim.built()).forEach(claim -> assertThat(claims)
                .filteredOn(c -> c.get("id").equals(claim.id())).singleElement()
                .satisfies(c -> assertThat(String.valueOf(c.get("why_none"))).startsWith("not built yet")));
        String md = MutantsReport.markdown(json);
        assertThat(mutants.get(0)).containsEntry("credited", Map.of("B5[quick-clickhouse-stop]", "B5[quick-clickhouse-stop]"));
        assertThat(md).contains("- tier `default`, `OutagesIT,TransactionsIT`: exit 0, 80.0 s, log `control.log`; no entry red")
                .contains("| 1 | `sink-skip-retriable-batch` |").contains("**KILLED**").contains("**SURVIVED**")
                .contains("B5[quick-clickhouse-stop]: FAIL (anomaly lost = 96)").contains("| B5 | ● |  |  |")
                .contains("| slot | **CAUGHT** | red only by a timeout | B14[graceful stop] |".substring(7))
                .contains("every failure of B14[graceful stop]: timed out: task RUNNING; threw NoSuchElementException at");
        assertThat(mutants.get(2)).containsEntry("caught_only_by_timeout_or_crash", List.of("B14[graceful stop]"))
                .containsEntry("killed", false);
    }
}
