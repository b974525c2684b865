package dev.seams.report;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The regression gate (issue 21, "a kill must turn the build red"): a run against a baseline report
 * ({@code -Dseams.gate=FILE}, a {@code guarantees.json}; {@code .ci/run} gives it the committed one) fails
 * every entry that PASSed in the baseline and does not PASS now — an UNVERIFIED whose proof vanished, an
 * ENVIRONMENT, a FAIL — naming the entry and its baseline. Without the property there is no gate and
 * UNVERIFIED stays a skipped test. The mutation tier judges a mutant with the same rule
 * ({@link #regressions(Map)}), so a mutant counts as killed exactly when this gate (or a FAIL) would
 * have stopped the build.
 *
 * <p>Only entries that ran are judged: a baseline entry this run did not produce (another tier, a filtered
 * run) is neither worse nor passed here; {@code seams compare} lists those.
 */
public final class Gate {

    /** The system property naming the baseline report; failsafe passes it through (pom.xml). */
    public static final String PROPERTY = "seams.gate";

    private static final String PASS = Verdict.PASS.name();
    private static volatile Gate configured;

    private final String baseline;
    private final String baselineCommit;
    private final Map<String, String> verdicts;

    private Gate(String baseline, String baselineCommit, Map<String, String> verdicts) {
        this.baseline = baseline;
        this.baselineCommit = baselineCommit;
        this.verdicts = Map.copyOf(verdicts);
    }

    /**
     * One entry that got worse than its baseline.
     *
     * @param id      the entry id, e.g. {@code G14[kill -9 @10%]}
     * @param before  its baseline verdict (always PASS)
     * @param after   its verdict now
     * @param reason  the reason of the verdict now (may be empty)
     */
    public record Regression(String id, String before, String after, String reason) {

        /** @return one line for a build log or a report */
        public String line() {
            return id + ": " + before + " in the baseline, " + after + " now" + (reason.isEmpty() ? "" : " (" + reason + ")");
        }
    }

    /**
     * @param report a parsed {@code guarantees.json}
     * @param name   how to name it in messages (its path)
     * @return a gate against that report
     */
    @SuppressWarnings("unchecked")
    public static Gate of(Map<String, Object> report, String name) {
        Map<String, String> verdicts = new LinkedHashMap<>();
        for (Map<String, Object> c : (List<Map<String, Object>>) report.getOrDefault("claims", List.of())) {
            verdicts.put(String.valueOf(c.get("id")), String.valueOf(c.get("verdict")));
        }
        Map<String, Object> source = (Map<String, Object>) report.getOrDefault("source", Map.of());
        return new Gate(name, String.valueOf(source.getOrDefault("commit", "?")), verdicts);
    }

    /**
     * @return the gate of {@code -Dseams.gate}, or null when the property is unset or blank
     * @throws IllegalStateException if the property names a file that is missing or not a report
     */
    public static Gate configured() {
        String file = System.getProperty(PROPERTY, "");
        if (file.isBlank() || file.startsWith("${")) {
            return null;
        }
        Gate gate = configured;
        if (gate == null || !gate.baseline.equals(file)) {
            Path path = Path.of(file);
            if (!Files.isRegularFile(path)) {
                throw new IllegalStateException("-D" + PROPERTY + "=" + file + ": no such baseline report");
            }
            Map<String, Object> report = ReportWriter.read(path);
            if (!report.containsKey("claims")) {
                throw new IllegalStateException("-D" + PROPERTY + "=" + file + " is not a guarantees.json report");
            }
            gate = of(report, file);
            configured = gate;
        }
        return gate;
    }

    /**
     * @param id      an entry id
     * @param verdict its verdict in this run
     * @param reason  the reason of that verdict (null: none)
     * @return the regression, or null when the entry did not PASS in the baseline or PASSes now
     */
    public Regression judge(String id, Verdict verdict, String reason) {
        if (verdict == Verdict.PASS || !PASS.equals(verdicts.get(id))) {
            return null;
        }
        return new Regression(id, PASS, verdict.name(), reason == null ? "" : reason);
    }

    /**
     * @param report a parsed {@code guarantees.json} of a run
     * @return every entry of it that ran (not NOT_RUN), PASSed in the baseline and does not PASS in it, in its order
     */
    @SuppressWarnings("unchecked")
    public List<Regression> regressions(Map<String, Object> report) {
        List<Regression> worse = new ArrayList<>();
        for (Map<String, Object> c : (List<Map<String, Object>>) report.getOrDefault("claims", List.of())) {
            if (Verdict.NOT_RUN.name().equals(c.get("verdict"))) {
                continue;   // no test of that run produced it: not judged here (see the class comment)
            }
            Regression r = judge(String.valueOf(c.get("id")), Verdict.valueOf(String.valueOf(c.get("verdict"))),
                    (String) c.get("reason"));
            if (r != null) {
                worse.add(r);
            }
        }
        return worse;
    }

    /** @return the baseline's name and commit, for the report */
    public Map<String, Object> toJson() {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("baseline", baseline);
        json.put("baseline_commit", baselineCommit);
        json.put("baseline_passes", verdicts.values().stream().filter(PASS::equals).count());
        return json;
    }

    /** @return the baseline's file name and commit, e.g. {@code reports/guarantees.json (2af64c2)} */
    public String describe() {
        return baseline + " (" + (baselineCommit.length() > 7 ? baselineCommit.substring(0, 7) : baselineCommit) + ")";
    }
}
