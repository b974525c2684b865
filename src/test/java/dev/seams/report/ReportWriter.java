package dev.seams.report;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.seams.config.ConnectorUnderTest;
import dev.seams.project.Project;
import dev.seams.sinks.DsSink;
import dev.seams.sinks.SinkUnderTest;
import dev.seams.stand.ExternalStand;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;

/**
 * Writes {@code reports/guarantees.json} (shape fixed in docs/claims.md), {@code reports/guarantees.md} and the
 * claims' pages {@code reports/claims/<claim>.md} ({@link Markdown}) at the end of a claim run (failsafe sets
 * {@code seams.tier}); a run without claims, or a unit-test run, writes nothing. Registered as a JUnit Platform
 * {@link LauncherSessionListener} (META-INF/services).
 *
 * <ul>
 *   <li>Every claim id of {@link ClaimCatalog} appears: one entry per test (and part) that ran,
 *       or one {@link Verdict#NOT_RUN} entry with the reason.</li>
 *   <li>Entries are sorted by claim id in docs/claims.md order; {@code verdicts} counts every verdict.</li>
 *   <li>{@code source} names what the report was produced from ({@link Provenance}).</li>
 *   <li>Tiers: a run belongs to a tier ({@code -Dseams.tier}, {@code default} or {@code faults}). The
 *       entries of the other tiers are carried over from the existing report when it was produced
 *       from the same source and profile, so that {@code mvn verify} followed by
 *       {@code mvn verify -Pfaults} leaves one report holding both; otherwise they are NOT_RUN.</li>
 *   <li>A run of another sink under test than ds-sink ({@code -Dseams.sink}) writes to {@code reports/sinks/<sink>/}
 *       and names its sink in the header; every whole run rewrites {@code reports/sinks.md} from the reports on disk
 *       ({@link SinksMarkdown}; docs/sinks.md).</li>
 *   <li>A run restricted to some test classes ({@code -Dit.test=…}, passed as {@code seams.it.test})
 *       writes to {@code target/partial-report/}, a run on an external stand to {@code target/external-report/}, never
 *       over the committed report ({@link #runDir()}; its charts too).</li>
 * </ul>
 */
public final class ReportWriter implements LauncherSessionListener {

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    /** The sink under test a report names when it names none (every report before {@code -Dseams.sink} existed). */
    static final String DEFAULT_SINK = DsSink.NAME;

    private long openedNanos;

    @Override
    public void launcherSessionOpened(LauncherSession session) {
        openedNanos = System.nanoTime();
    }

    @Override
    public void launcherSessionClosed(LauncherSession session) {
        List<ClaimEvidence> claims = Evidence.claims();
        String tier = System.getProperty("seams.tier");
        if (claims.isEmpty() || tier == null) {   // only failsafe's claim runs set seams.tier (pom.xml)
            return;
        }
        boolean partial = partial();
        Path dir = runDir();
        Map<String, Object> stop = TierClock.jvm().stop().orElse(null);
        Run run = new Run(tier, (System.nanoTime() - openedNanos) / 1e9, Instant.now(), Provenance.of(Project.root()),
                Gate.configured(), !partial && !Boolean.getBoolean("seams.fail.fast"), stop);
        Map<String, Object> json = write(dir, Evidence.suiteFacts(), claims, run, ClaimCatalog.load(), !partial);
        if (refreshes()) {   // the index of every sink's committed report
            SinksMarkdown.write(Project.root());
        }
        if (run.gate() != null && run.whole()) {
            GateCheck.write(Project.root(), run.tier(), run.finished(), json);
        }
        if (stop != null) {
            GateCheck.writeStop(Project.root(), run.tier(), stop);
        }
    }

    /** @return whether this run is restricted to some test classes ({@code -Dit.test=…}, passed as {@code seams.it.test}) */
    private static boolean partial() {
        String filter = System.getProperty("seams.it.test", "");
        return !filter.isBlank() && !filter.startsWith("${");
    }

    /**
     * {@code -Dseams.report.refresh=true}: a whole run rewrites the committed report ({@link #reportsDir}); without it
     * the run writes under {@code target/} and leaves the checkout as it was (.ci/run and a regeneration set it).
     */
    public static final String REFRESH_PROPERTY = "seams.report.refresh";

    /**
     * Where this run's report and its charts go: {@code target/partial-report} for a run restricted to some test classes,
     * {@code target/external-report} for a run on an external stand (a user's stand is not this checkout's committed
     * evidence), {@link #reportsDir} of the sink under test when asked to refresh the committed report
     * ({@value #REFRESH_PROPERTY}), else the same path under {@code target/} ({@code target/reports}).
     *
     * @return that directory, absolute
     */
    public static Path runDir() {
        return Project.root().resolve(runDir(partial(), ExternalStand.chosen(), Boolean.getBoolean(REFRESH_PROPERTY),
                SinkUnderTest.configured().name(), ConnectorUnderTest.configuredName()));
    }

    static String runDir(boolean partial, boolean external, boolean refresh, String sink) {
        return runDir(partial, external, refresh, sink, ConnectorUnderTest.SHIPPED);
    }

    static String runDir(boolean partial, boolean external, boolean refresh, String sink, String connector) {
        return partial ? "target/partial-report" : external ? "target/external-report"
                : refresh ? reportsDir(sink, connector) : "target/" + reportsDir(sink, connector);
    }

    /**
     * @param sink      the sink under test ({@code -Dseams.sink})
     * @param connector the connector under test's name ({@link ConnectorUnderTest#configuredName()})
     * @return {@link #reportsDir(String)} for the shipped connector; {@code reports/connectors/<name>} for a user's
     *     (docs/config.md), with {@code /sinks/<sink>} below it for a sink other than ds-sink
     */
    static String reportsDir(String sink, String connector) {
        if (ConnectorUnderTest.SHIPPED.equals(connector)) {
            return reportsDir(sink);
        }
        return "reports/connectors/" + connector + (DEFAULT_SINK.equals(sink) ? "" : reportsDir(sink).substring("reports".length()));
    }

    /** @return whether this run rewrites the committed reports ({@value #REFRESH_PROPERTY}, a whole run on the local stand) */
    static boolean refreshes() {
        return !partial() && !ExternalStand.chosen() && Boolean.getBoolean(REFRESH_PROPERTY);
    }

    /** @return the header's {@code connector} of a run that names none: the shipped configuration */
    static Map<String, Object> shippedConnector() {
        return Map.of("name", ConnectorUnderTest.SHIPPED, "file", ConnectorUnderTest.SHIPPED_FILE);
    }

    /** @return the name in a header's {@code connector} ({@link ConnectorUnderTest#SHIPPED} for a report that has none) */
    @SuppressWarnings("unchecked")
    static String connectorName(Object connector) {
        return connector instanceof Map<?, ?> m ? String.valueOf(((Map<String, Object>) m).getOrDefault("name", ConnectorUnderTest.SHIPPED))
                : ConnectorUnderTest.SHIPPED;
    }

    /**
     * @param sink the sink under test ({@code -Dseams.sink})
     * @return where a whole run's report goes: {@code reports} for ds-sink, {@code reports/sinks/<sink>} for another
     *     (docs/sinks.md), every character of the name but {@code [a-z0-9.-]} a dash ({@code image:seams/ds-sink:1.0} →
     *     {@code reports/sinks/image-seams-ds-sink-1.0}), so that a run of another sink never overwrites ds-sink's report
     */
    static String reportsDir(String sink) {
        return DEFAULT_SINK.equals(sink) ? "reports" : "reports/sinks/" + sink.toLowerCase(java.util.Locale.ROOT).replaceAll("[^a-z0-9.-]", "-");
    }

    /**
     * One run of the suite.
     *
     * @param tier         {@code default} or {@code faults}
     * @param suiteSeconds its wall time
     * @param finished     when it ended
     * @param source       what it ran
     * @param gate         the baseline it was gated against ({@code -Dseams.gate}), or null
     * @param whole        whether the tier ran whole: not restricted with {@code -Dit.test}, not stopped at its first
     *                     red claim ({@code -Dseams.fail.fast}); only then is a baseline entry it lacks {@link Gate#MISSING}
     * @param stop         why its claims stopped before their end and what they left ({@link TierClock#stop}), or null
     */
    record Run(String tier, double suiteSeconds, Instant finished, Provenance source, Gate gate, boolean whole,
               Map<String, Object> stop) {

        Run(String tier, double suiteSeconds, Instant finished, Provenance source) {
            this(tier, suiteSeconds, finished, source, null, true, null);
        }
    }

    /**
     * Writes both files.
     *
     * @param dir     the reports directory (created if missing)
     * @param suite   suite facts: {@code profile}, {@code versions} (map), {@code stand_start_seconds}
     * @param claims  the claims of this run, in the order they ran
     * @param run     the run
     * @param catalog the claim ids every report lists
     * @param carry   whether entries of other tiers are carried over from an existing report in dir
     * @return the report written, as its JSON
     * @throws UncheckedIOException if the files cannot be written
     */
    static Map<String, Object> write(Path dir, Map<String, Object> suite, List<ClaimEvidence> claims, Run run, ClaimCatalog catalog,
                      boolean carry) {
        Map<String, Object> previous = carry ? read(dir.resolve("guarantees.json")) : Map.of();
        @SuppressWarnings("unchecked")
        Map<String, Object> json = JSON.convertValue(toJson(suite, claims, run, catalog, previous), Map.class);
        try {
            Files.createDirectories(dir);
            Files.writeString(dir.resolve("guarantees.json"), JSON.writeValueAsString(json) + "\n");
            writeMarkdown(dir, json);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the report to " + dir, e);
        }
        return json;
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> toJson(Map<String, Object> suite, List<ClaimEvidence> claims, Run run, ClaimCatalog catalog,
                                      Map<String, Object> previous) {
        String profile = String.valueOf(suite.getOrDefault("profile", "unknown"));
        String sink = String.valueOf(suite.getOrDefault("sink", DEFAULT_SINK));
        Object connector = suite.getOrDefault("connector", shippedConnector());
        boolean sameSource = run.source().contentHash().equals(((Map<String, Object>) previous.getOrDefault("source", Map.of())).get("content_hash"))
                && profile.equals(previous.get("profile")) && sink.equals(previous.getOrDefault("sink", DEFAULT_SINK))
                && connectorName(connector).equals(connectorName(previous.getOrDefault("connector", shippedConnector())));
        List<Map<String, Object>> entries = new ArrayList<>();
        claims.forEach(c -> entries.add(entry(c, run.tier())));
        List<Map<String, Object>> runs = new ArrayList<>();
        runs.add(runJson(run, suite));
        if (sameSource) {
            for (Map<String, Object> r : (List<Map<String, Object>>) previous.getOrDefault("runs", List.of())) {
                if (!run.tier().equals(r.get("tier"))) {
                    runs.add(r);
                }
            }
            Set<String> carriedTiers = runs.stream().skip(1).map(r -> String.valueOf(r.get("tier"))).collect(Collectors.toSet());
            // a carried run that stopped before its end keeps its claims NOT_RUN with the stop's reason (TierClock)
            Set<String> cut = runs.stream().skip(1).map(r -> r.get("stopped")).filter(Map.class::isInstance)
                    .flatMap(st -> ((List<Object>) ((Map<String, Object>) st).getOrDefault("not_run", List.of())).stream())
                    .map(String::valueOf).collect(Collectors.toSet());
            for (Map<String, Object> c : (List<Map<String, Object>>) previous.getOrDefault("claims", List.of())) {
                if (carriedTiers.contains(String.valueOf(c.get("tier")))
                        && (!Verdict.NOT_RUN.name().equals(c.get("verdict")) || cut.contains(String.valueOf(c.get("id"))))) {
                    entries.add(c);
                }
            }
        }
        Set<String> covered = entries.stream().map(c -> ClaimCatalog.claimId(String.valueOf(c.get("id")))).collect(Collectors.toSet());
        for (ClaimCatalog.Entry claim : catalog.entries()) {
            if (!covered.contains(claim.id())) {
                Map<String, Object> notRun = new LinkedHashMap<>();
                notRun.put("id", claim.id());
                notRun.put("title", claim.title());
                notRun.put("verdict", Verdict.NOT_RUN.name());
                notRun.put("reason", claim.notRunReason());
                notRun.put("tier", claim.tier());
                entries.add(notRun);
            }
        }
        Set<String> ids = entries.stream().map(c -> String.valueOf(c.get("id"))).collect(Collectors.toSet());
        for (ClaimCatalog.Required r : catalog.required()) {
            if (covered.contains(ClaimCatalog.claimId(r.id())) && !ids.contains(r.id())) {
                Map<String, Object> missing = new LinkedHashMap<>();
                missing.put("id", r.id());
                missing.put("title", catalog.entries().stream().filter(c -> c.id().equals(ClaimCatalog.claimId(r.id())))
                        .map(ClaimCatalog.Entry::title).findFirst().orElse(""));
                missing.put("verdict", Verdict.NOT_RUN.name());
                missing.put("reason", r.reason());
                entries.add(missing);
            }
        }
        entries.sort((a, b) -> catalog.order().compare(String.valueOf(a.get("id")), String.valueOf(b.get("id"))));

        Map<String, Object> json = new LinkedHashMap<>();
        json.put("generated_at", run.finished().truncatedTo(ChronoUnit.SECONDS).toString());
        json.put("profile", profile);
        json.put("sink", sink);
        json.put("connector", connector);
        json.put("versions", suite.getOrDefault("versions", Map.of()));
        Map<String, Object> defaultRun = runs.stream().filter(r -> ClaimCatalog.DEFAULT_TIER.equals(r.get("tier")))
                .findFirst().orElse(Map.of());   // a tier run alone has no default-tier time: null, not its own
        json.put("suite_seconds", defaultRun.get("suite_seconds"));
        json.put("stand_start_seconds", defaultRun.get("stand_start_seconds"));
        json.put("source", run.source().toJson());
        Map<String, Long> verdicts = new LinkedHashMap<>();
        for (Verdict v : Verdict.values()) {
            verdicts.put(v.name(), entries.stream().filter(c -> v.name().equals(c.get("verdict"))).count());
        }
        json.put("verdicts", verdicts);
        Map<String, Map<String, Long>> byKind = new LinkedHashMap<>();   // a claim's entries and their parts apart (issue 21)
        for (String kind : List.of("entries", "parts")) {
            Map<String, Long> counts = new LinkedHashMap<>();
            for (Verdict v : Verdict.values()) {
                counts.put(v.name(), entries.stream().filter(c -> v.name().equals(c.get("verdict")))
                        .filter(c -> c.containsKey("part_of") == kind.equals("parts")).count());
            }
            byKind.put(kind, counts);
        }
        json.put("verdicts_by_kind", byKind);
        json.put("runs", runs);
        if (run.gate() != null) {
            Map<String, Object> gate = new LinkedHashMap<>(run.gate().toJson());
            // no entry of a tier that ran whole can vanish, whatever its verdict in the baseline (docs/gate.md "The regression gate")
            gate.putAll(run.gate().compare(entries, run.tier(), run.whole()).toJson());
            json.put("gate", gate);
        }
        json.put("claims", entries);
        return json;
    }

    private static Map<String, Object> runJson(Run run, Map<String, Object> suite) {
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("tier", run.tier());
        r.put("generated_at", run.finished().truncatedTo(ChronoUnit.SECONDS).toString());
        r.put("suite_seconds", round(run.suiteSeconds()));
        r.put("stand_start_seconds", suite.get("stand_start_seconds"));
        if (run.stop() != null) {
            r.put("stopped", run.stop());
        }
        return r;
    }

    static Map<String, Object> entry(ClaimEvidence c, String tier) {
        Verdicts.Outcome outcome = c.outcome() != null ? c.outcome()
                : new Verdicts.Outcome(Verdict.FAIL, "the test never ended (the JVM stopped first)", List.of());
        Map<String, Object> entry = new LinkedHashMap<>();
        entry.put("id", c.id());
        entry.put("title", c.title());
        entry.put("verdict", outcome.verdict().name());
        if (outcome.reason() != null) {
            entry.put("reason", outcome.reason());
        }
        entry.put("tier", tier);
        if (c.partOf() != null) {
            entry.put("part_of", c.partOf());
        }
        entry.put("test", c.test());
        entry.put("exercises", c.exercises());
        Map<String, Long> anomalies = new LinkedHashMap<>();
        c.anomalies().forEach((a, n) -> anomalies.put(a.key(), n));
        entry.put("anomalies", anomalies);
        Map<String, Object> controls = new LinkedHashMap<>();
        c.controls().forEach((name, a) -> controls.put(name, Map.of("shows", a.key(), "count", c.figures().get(name))));
        entry.put("negative_controls", controls);
        entry.put("figures", c.figures());
        Map<String, Object> expected = new LinkedHashMap<>();
        Map<String, Object> why = new LinkedHashMap<>();
        c.expectations().forEach((name, x) -> {
            expected.put(name, x.expected());
            why.put(name, (x.met() ? "" : "MISSED: ") + x.why());
        });
        entry.put("expected", expected);
        entry.put("why", why);
        if (!outcome.failures().isEmpty()) {
            entry.put("failures", outcome.failures());
        }
        entry.put("seconds", round(c.seconds()));
        if (!c.notes().isEmpty()) {
            entry.put("notes", c.notes());
        }
        if (!c.charts().isEmpty()) {
            entry.put("charts", c.charts());
        }
        if (!c.tables().isEmpty()) {
            entry.put("tables", c.tables());
        }
        return entry;
    }

    /**
     * Renders {@code guarantees.md} and the claims' pages again from the {@code guarantees.json} and {@code mutants.json} in
     * {@code dir} (the mutation tier calls it once its report is written, so that each entry's section shows
     * the mutants that turned it red; issue 21 "every detector shown to fire").
     *
     * @param dir the reports directory
     * @throws UncheckedIOException if it cannot be written
     * @throws IllegalStateException if {@code dir} holds no guarantees.json
     */
    public static void renderMarkdown(Path dir) {
        Map<String, Object> json = read(dir.resolve("guarantees.json"));
        if (json.isEmpty()) {
            throw new IllegalStateException("no report to render in " + dir);
        }
        try {
            writeMarkdown(dir, json);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the report's Markdown to " + dir, e);
        }
    }

    /**
     * Writes the Markdown of {@code json} ({@link Markdown#pages}): {@code guarantees.md} and the claims' pages, which
     * replace every page of an earlier report ({@code claims/*.md}), so that none is left of a claim no longer there.
     */
    private static void writeMarkdown(Path dir, Map<String, Object> json) throws IOException {
        Path pages = dir.resolve(Markdown.PAGES);
        if (Files.isDirectory(pages)) {
            try (var old = Files.newDirectoryStream(pages, "*.md")) {
                for (Path page : old) {
                    Files.delete(page);
                }
            }
        }
        Files.createDirectories(pages);
        @SuppressWarnings("unchecked")
        List<SubReports.SubReport> beside = SubReports.of(dir, (Map<String, Object>) json.getOrDefault("source", Map.of()), Project.root());
        for (Map.Entry<String, String> page : Markdown.pages(json, read(dir.resolve("mutants.json")), ClaimStatements.fromDocs(),
                beside).entrySet()) {
            Files.writeString(dir.resolve(page.getKey()), page.getValue());
        }
    }

    /**
     * @param file a report ({@code guarantees.json}, {@code mutants.json})
     * @return its JSON as plain maps and lists; empty if the file is missing or not JSON
     */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> read(Path file) {
        if (!Files.exists(file)) {
            return Map.of();
        }
        try {
            return JSON.readValue(file.toFile(), Map.class);
        } catch (IOException e) {
            return Map.of();
        }
    }

    static double round(double seconds) {
        return BigDecimal.valueOf(seconds).setScale(1, RoundingMode.HALF_UP).doubleValue();
    }
}
