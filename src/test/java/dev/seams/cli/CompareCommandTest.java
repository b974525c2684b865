package dev.seams.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code seams compare}: the claims whose verdict changed between two guarantees.json files first, figures on request. */
class CompareCommandTest {

    private static final String BEFORE = """
            {"generated_at":"2026-12-01T10:00:00Z","profile":"current",
             "versions":{"clickhouse":"25.8.11.66","kafka":"4.1.1"},
             "claims":[
              {"id":"G3[n=51]","verdict":"PASS","anomalies":{"duplicate":0},"figures":{"n":51,"sum_cnt_after_replay":102,"seconds_x":3.5},"expected":{"sum_cnt_after_replay":102}},
              {"id":"G6[optimize_on_insert=1]","verdict":"PASS","anomalies":{"duplicate":0},"figures":{"replacing_physical_rows_after_insert":3},"expected":{}},
              {"id":"G2","verdict":"PASS","anomalies":{},"figures":{},"expected":{}},
              {"id":"B6","verdict":"FAIL","anomalies":{},"figures":{"latency_p99_ms":800},"expected":{}}]}
            """;
    private static final String AFTER = """
            {"generated_at":"2026-12-02T10:00:00Z","profile":"candidate",
             "versions":{"clickhouse":"26.3.33.24","kafka":"4.1.1"},
             "claims":[
              {"id":"G3[n=51]","verdict":"PASS","anomalies":{"duplicate":0},"figures":{"n":51.0,"sum_cnt_after_replay":102,"seconds_x":9.1},"expected":{"sum_cnt_after_replay":102}},
              {"id":"G6[optimize_on_insert=1]","verdict":"FAIL","anomalies":{"duplicate":2},"figures":{"replacing_physical_rows_after_insert":5},"expected":{}},
              {"id":"B6","verdict":"PASS","anomalies":{},"figures":{"latency_p99_ms":1240},"expected":{}},
              {"id":"B9","verdict":"PASS","anomalies":{},"figures":{},"expected":{}}]}
            """;

    private static JsonNode json(String text) throws Exception {
        return new ObjectMapper().readTree(text);
    }

    @Test
    void listsChangedClaimsAndWhatGotWorse() throws Exception {
        CompareCommand.Comparison c = CompareCommand.compare(json(BEFORE), json(AFTER), Pattern.compile("seconds.*"));

        assertThat(c.lines()).containsExactly(
                "profile: current -> candidate",
                "versions:",
                "  clickhouse: 25.8.11.66 -> 26.3.33.24",
                "verdicts:",
                "  G6[optimize_on_insert=1]: PASS -> FAIL",
                "  B6: FAIL -> PASS",
                "  B9: only after (PASS)",
                "  G2: only before (PASS)",
                "anomalies:",
                "  G6[optimize_on_insert=1]: duplicate: 0 -> 2",
                "figures:",
                "  G6[optimize_on_insert=1]:",
                "    figure replacing_physical_rows_after_insert: 3 -> 5",
                "  B6:",
                "    figure latency_p99_ms: 800 -> 1240",
                "summary: 5 claims, 4 changed, 2 worse [G6[optimize_on_insert=1], G2]");
        assertThat(String.join("\n", c.lines())).doesNotContain("G3[n=51]").doesNotContain("kafka:");
        assertThat(c.changed()).isEqualTo(4);
        assertThat(c.worse()).containsExactly("G6[optimize_on_insert=1]", "G2");
    }

    @Test
    void figuresAreListedOnlyOnRequest() throws Exception {
        CompareCommand.Comparison c = CompareCommand.compare(json(BEFORE), json(AFTER), Pattern.compile("seconds.*"), false);
        assertThat(c.lines()).containsSubsequence("verdicts:", "  G6[optimize_on_insert=1]: PASS -> FAIL", "anomalies:",
                        "figures: 2 claims changed figures or expected values (--figures lists them)")
                .noneMatch(line -> line.contains("latency_p99_ms"));
        assertThat(c.changed()).isEqualTo(4);
    }

    @Test
    void anEntryOfATierThatDidNotRunAfterIsNotComparedNotWorse() throws Exception {
        String before = """
                {"profile":"offline","runs":[{"tier":"default"},{"tier":"faults"}],"claims":[
                 {"id":"G2","verdict":"PASS","tier":"default","figures":{}},
                 {"id":"B5[broker-kill]","verdict":"PASS","tier":"faults","figures":{}}]}
                """;
        String after = """
                {"profile":"offline-candidate","runs":[{"tier":"default"}],"claims":[
                 {"id":"B5","verdict":"NOT_RUN","tier":"faults"}]}
                """;
        CompareCommand.Comparison c = CompareCommand.compare(json(before), json(after), null);
        assertThat(c.lines()).contains("  B5[broker-kill]: only before (PASS); not compared: its tier faults did not run after",
                "  G2: only before (PASS)");
        assertThat(c.worse()).containsExactly("G2");
        assertThat(c.lines()).last().asString().endsWith("1 worse [G2], 1 not compared (not run after: no verdict either way)");
    }

    @Test
    void anEntryMissingFromAnOlderReportAfterIsNotComparedAndOneMissingFromANewerOneIsWorse() throws Exception {
        String before = """
                {"generated_at":"2026-12-07T10:00:00Z","runs":[{"tier":"default"}],"claims":[
                 {"id":"G2","verdict":"PASS","tier":"default","figures":{}},
                 {"id":"B5[sink-kill]","verdict":"PASS","tier":"default","figures":{}}]}
                """;
        String after = """
                {"generated_at":"2026-11-20T10:00:00Z","runs":[{"tier":"default"}],"claims":[
                 {"id":"G2","verdict":"PASS","tier":"default","figures":{}}]}
                """;
        CompareCommand.Comparison c = CompareCommand.compare(json(before), json(after), null);
        assertThat(c.lines()).contains("  B5[sink-kill]: only before (PASS); not compared: not run in the older report after "
                + "(generated 2026-11-20T10:00:00Z); regenerate it to compare");
        assertThat(c.worse()).isEmpty();
        assertThat(c.notCompared()).as("apart from worse, and the gate still says so (exit 3)").containsExactly("B5[sink-kill]");
        assertThat(CompareCommand.compare(json(after), json(before), null).worse()).as("the other way round nothing is missing")
                .isEmpty();
        String newerWithoutIt = after.replace("2026-11-20", "2026-12-08");
        assertThat(CompareCommand.compare(json(before), json(newerWithoutIt), null).worse())
                .as("a newer report that lost the entry: worse").containsExactly("B5[sink-kill]");
    }

    @Test
    void theGateFailsOnClaimsNotComparedAndOnWorseFirst() throws Exception {
        String before = """
                {"profile":"offline","runs":[{"tier":"default"},{"tier":"faults"}],"claims":[
                 {"id":"G2","verdict":"PASS","tier":"default","figures":{}},
                 {"id":"B5[broker-kill]","verdict":"PASS","tier":"faults","figures":{}}]}
                """;
        String defaultTierOnly = """
                {"profile":"offline-candidate","runs":[{"tier":"default"}],"claims":[
                 {"id":"G2","verdict":"PASS","tier":"default","figures":{}}]}
                """;
        String g2Failed = defaultTierOnly.replace("\"PASS\"", "\"FAIL\"");
        CompareCommand.Comparison notCompared = CompareCommand.compare(json(before), json(defaultTierOnly), null);
        CompareCommand.Comparison worse = CompareCommand.compare(json(before), json(g2Failed), null);

        assertThat(notCompared.notCompared()).containsExactly("B5[broker-kill]");
        assertThat(CompareCommand.status(notCompared, false)).as("without --gate: no verdict either way").isZero();
        assertThat(CompareCommand.status(notCompared, true)).isEqualTo(CompareCommand.NOT_COMPARED);
        assertThat(CompareCommand.status(worse, true)).isEqualTo(CompareCommand.WORSE);
        assertThat(CompareCommand.status(CompareCommand.compare(json(before), json(before), null), true)).isZero();
    }

    @Test
    void withoutAnIgnorePatternTimingsCountToo() throws Exception {
        CompareCommand.Comparison c = CompareCommand.compare(json(BEFORE), json(AFTER), null);
        assertThat(c.lines()).contains("  G3[n=51]:", "    figure seconds_x: 3.5 -> 9.1");
        assertThat(c.changed()).isEqualTo(5);
    }

    @Test
    void sameReportsCompareEqual() throws Exception {
        CompareCommand.Comparison c = CompareCommand.compare(json(AFTER), json(AFTER), null);
        assertThat(c.changed()).isZero();
        assertThat(c.worse()).isEmpty();
        assertThat(c.lines()).containsExactly("verdicts:", "  (no verdict changed)", "summary: 4 claims, 0 changed, 0 worse");
    }

    @Test
    void exitStatusFromTheCommandLine(@TempDir Path dir) throws Exception {
        Path before = Files.writeString(dir.resolve("before.json"), BEFORE);
        Path after = Files.writeString(dir.resolve("after.json"), AFTER);
        Path notReport = Files.writeString(dir.resolve("x.json"), "{\"a\":1}");
        PrintStream stdout = System.out;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int worse;
        int same;
        int unreadable;
        try {
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            worse = new CommandLine(new CompareCommand()).execute(before.toString(), after.toString());
            same = new CommandLine(new CompareCommand()).execute(after.toString(), after.toString());
            unreadable = new CommandLine(new CompareCommand()).execute(before.toString(), notReport.toString());
        } finally {
            System.setOut(stdout);
        }
        assertThat(worse).isEqualTo(CompareCommand.WORSE);
        assertThat(same).isZero();
        assertThat(unreadable).isEqualTo(CompareCommand.UNREADABLE);
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("before: " + before + " (profile current, 2026-12-01T10:00:00Z)")
                .contains("G6[optimize_on_insert=1]: PASS -> FAIL").contains("figures: 3 claims changed");
    }

    @Test
    void aFileThatIsNotAReportIsOneLineNamingIt(@TempDir Path dir) throws Exception {
        Path notJson = java.nio.file.Files.writeString(dir.resolve("README.md"), "# seams\n");
        java.io.PrintStream stderr = System.err;
        java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
        int status;
        try {
            System.setErr(new java.io.PrintStream(err, true, java.nio.charset.StandardCharsets.UTF_8));
            status = SeamsCli.commandLine().execute("compare", notJson.toString(), notJson.toString());
        } finally {
            System.setErr(stderr);
        }
        assertThat(status).isEqualTo(CompareCommand.UNREADABLE);
        assertThat(err.toString(java.nio.charset.StandardCharsets.UTF_8).strip()).isEqualTo("compare: " + notJson
                + " is not a guarantees.json report (not JSON: line 1, column 1)");
    }
}
