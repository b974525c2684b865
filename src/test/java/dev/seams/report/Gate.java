package dev.seams.report;

import dev.seams.config.ConnectorUnderTest;
import dev.seams.project.Project;
import dev.seams.sinks.SinkUnderTest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The regression gate (issue 21, "a kill must turn the build red"): a run against a baseline report
 * ({@code -Dseams.gate=FILE}, a {@code guarantees.json}; {@code .ci/run} gives it the committed one) fails
 * every entry that PASSed in the baseline and does not PASS now — an UNVERIFIED whose proof vanished, an
 * ENVIRONMENT, a FAIL — naming the entry and its baseline. Without the property there is no gate and
 * UNVERIFIED stays a skipped test. The mutation tier judges a mutant with the same rule
 * ({@link #regressions(Map)}), so a mutant counts as killed exactly when this gate (or a FAIL) would
 * have stopped the build.
 *
 * <p>No entry can vanish (issue 36 §2): a whole run of a tier ({@link #missing}) has a regression {@value #MISSING} for
 * every entry of that tier that PASSed in the baseline and that the run did not produce or produced as NOT_RUN — a
 * deleted or disabled claim test, a renamed variant (a MISSING plus a new entry). {@code GateCheckTest} fails the build
 * on them ({@code mvn verify}'s gate execution). A run restricted with {@code -Dit.test} (the mutation tier's builds)
 * is judged on the entries that ran ({@link #regressions}), and on the parts of a claim that ran ({@link
 * #vanishedParts}). An entry is renamed or retired only by naming it, with the reason, in {@value #WAIVERS} ({@link
 * #withWaivers}; the gate of {@code -Dseams.gate} reads it): never silently. An entry moved to another tier (e.g. to
 * keep {@code mvn verify} within its budget) is named with its new tier in {@value #MOVES} ({@link #withMoves}): the
 * whole run of its old tier no longer owes it, the whole run of its new tier does, and it must PASS there.
 */
public final class Gate {

    /** The system property naming the baseline report; failsafe passes it through (pom.xml). */
    public static final String PROPERTY = "seams.gate";

    /** The committed file of entries given up, each with its reason (also read by {@code CommittedReportTest}). */
    public static final String WAIVERS = "reports/waivers.tsv";
    /** The committed file of entries another tier produces now: {@code <entry id><TAB><tier><TAB><reason>}. */
    public static final String MOVES = "reports/tier-moves.tsv";
    /** The tiers whose runs write claim entries ({@code seams.tier} in pom.xml): a move names one of them. */
    public static final Set<String> CLAIM_TIERS = Set.of(ClaimCatalog.DEFAULT_TIER, "faults", "faults-cluster");
    /** The verdict of a baseline PASS part its claim's run no longer produced. */
    public static final String MISSING = "MISSING";
    private static final String PASS = Verdict.PASS.name();
    private static volatile Gate configured;

    private final String baseline;
    private final String baselineCommit;
    private final Map<String, String> verdicts;
    /** Baseline part id → the id of its claim entry. */
    private final Map<String, String> partOf;
    /** Baseline entry id → the tier that produced it, in the baseline's order. */
    private final Map<String, String> tiers;
    /** Entry id → its waiver in force ({@value #WAIVERS}, {@link Waivers}): never a regression of this gate. */
    private final Map<String, Waivers.Waiver> waived;

    private Gate(String baseline, String baselineCommit, Map<String, String> verdicts, Map<String, String> partOf,
                 Map<String, String> tiers, Map<String, Waivers.Waiver> waived) {
        this.baseline = baseline;
        this.baselineCommit = baselineCommit;
        this.verdicts = Map.copyOf(verdicts);
        this.partOf = Map.copyOf(partOf);
        this.tiers = Collections.unmodifiableMap(new LinkedHashMap<>(tiers));
        this.waived = Collections.unmodifiableMap(new LinkedHashMap<>(waived));
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
        Map<String, String> partOf = new LinkedHashMap<>();
        Map<String, String> tiers = new LinkedHashMap<>();
        for (Map<String, Object> c : (List<Map<String, Object>>) report.getOrDefault("claims", List.of())) {
            verdicts.put(String.valueOf(c.get("id")), String.valueOf(c.get("verdict")));
            tiers.put(String.valueOf(c.get("id")), String.valueOf(c.get("tier")));
            if (c.get("part_of") != null) {
                partOf.put(String.valueOf(c.get("id")), String.valueOf(c.get("part_of")));
            }
        }
        Map<String, Object> source = (Map<String, Object>) report.getOrDefault("source", Map.of());
        return new Gate(name, String.valueOf(source.getOrDefault("commit", "?")), verdicts, partOf, tiers, Map.of());
    }

    /**
     * @param given entry id → why it is given up (a renamed or retired entry), not dated
     * @return this gate, never judging those entries a regression
     */
    public Gate withWaivers(Map<String, String> given) {
        List<Waivers.Waiver> undated = new ArrayList<>();
        given.forEach((id, reason) -> undated.add(new Waivers.Waiver(id, reason, null)));
        return withWaivers(undated);
    }

    /**
     * @param inForce the waivers in force against this baseline ({@value #WAIVERS}, {@link Waivers#newerThan})
     * @return this gate, never judging those entries a regression, and listing them in its {@link #compare comparison}
     */
    Gate withWaivers(List<Waivers.Waiver> inForce) {
        Map<String, Waivers.Waiver> byId = new LinkedHashMap<>();
        inForce.forEach(w -> byId.put(w.id(), w));
        return new Gate(baseline, baselineCommit, verdicts, partOf, tiers, byId);
    }

    /**
     * @param moved entry id → the tier that produces it now ({@value #MOVES}); its baseline parts move with it
     * @return this gate, owing those entries from their new tier's whole run ({@link #missing}), not the baseline's
     */
    public Gate withMoves(Map<String, String> moved) {
        Map<String, String> now = new LinkedHashMap<>(tiers);
        now.replaceAll((id, tier) -> moved.getOrDefault(id, partOf.containsKey(id) ? moved.getOrDefault(partOf.get(id), tier) : tier));
        return new Gate(baseline, baselineCommit, verdicts, partOf, now, waived);
    }

    /**
     * Reads the committed tier moves: lines {@code <entry id><TAB><tier><TAB><reason>}, {@code #} comments.
     *
     * @param file e.g. the project's {@value #MOVES}
     * @return entry id → its tier now, in the file's order; empty if there is no file
     * @throws IllegalStateException for a line without its tier or its reason, or with a tier no run writes
     *                               ({@link #CLAIM_TIERS}: no whole run would ever owe that entry)
     * @throws IOException           if the file cannot be read
     */
    public static Map<String, String> moves(Path file) throws IOException {
        Map<String, String> moves = new LinkedHashMap<>();
        for (String[] cols : Waivers.rows(file, 3, "a move names the entry, its tier now and the reason")) {
            if (!CLAIM_TIERS.contains(cols[1])) {
                throw new IllegalStateException(file + ": " + cols[0] + " moved to the tier '" + cols[1]
                        + "', which no run writes (one of " + new java.util.TreeSet<>(CLAIM_TIERS) + ")");
            }
            moves.put(cols[0], cols[1]);
        }
        return moves;
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
            if (ownReport(path)) {   // a later JVM of the same build (-Pfaults' cluster execution) would read what the run wrote
                throw new IllegalStateException("-D" + PROPERTY + "=" + file + " is the report this run rewrites: gate against a "
                        + "copy (cp " + file + " /tmp/baseline.json; README \"The regression gate\")");
            }
            Map<String, Object> report = ReportWriter.read(path);
            if (!report.containsKey("claims")) {
                throw new IllegalStateException("-D" + PROPERTY + "=" + file + " is not a guarantees.json report");
            }
            String sink = SinkUnderTest.configured().name();
            Object baselineSink = report.getOrDefault("sink", ReportWriter.DEFAULT_SINK);
            if (!sink.equals(baselineSink)) {   // a regression is judged against the same sink; docs/sinks.md compares sinks
                throw new IllegalStateException("-D" + PROPERTY + "=" + file + " is a report of the sink " + baselineSink
                        + ", this run's sink under test is " + sink + " (-D" + SinkUnderTest.PROPERTY + "): gate it against a "
                        + "report of the same sink, e.g. a copy of reports/sinks/" + sink + "/guarantees.json (docs/sinks.md)");
            }
            String connector = ConnectorUnderTest.configuredName();
            String baselineConnector = ReportWriter.connectorName(report.get("connector"));
            if (!connector.equals(baselineConnector)) {   // a regression is judged against the same configuration
                throw new IllegalStateException("-D" + PROPERTY + "=" + file + " is a report of the connector configuration "
                        + baselineConnector + ", this run's is " + connector + " (-D" + ConnectorUnderTest.PROPERTY + "): gate it "
                        + "against a report of the same configuration, e.g. a copy of " + ReportWriter.reportsDir(sink, connector)
                        + "/guarantees.json (docs/config.md)");
            }
            try {   // a waiver older than the committed report's last change served that change and has lapsed
                Path root = Project.root();
                List<Waivers.Waiver> inForce = Waivers.newerThan(Waivers.read(root, WAIVERS), root,
                        Waivers.reportChange(root, ReportWriter.reportsDir(sink, connector) + "/guarantees.json", 0));
                gate = of(report, file).withWaivers(inForce).withMoves(moves(root.resolve(MOVES)));
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + WAIVERS + " or " + MOVES, e);
            }
            configured = gate;
        }
        return gate;
    }

    /** @return whether {@code baseline} is the report file this run writes ({@link ReportWriter#runDir}) */
    static boolean ownReport(Path baseline) {
        try {
            Path own = ReportWriter.runDir().resolve("guarantees.json");
            return Files.exists(own) && Files.isSameFile(baseline, own);
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * @param id      an entry id
     * @param verdict its verdict in this run
     * @param reason  the reason of that verdict (null: none)
     * @return the regression, or null when the entry did not PASS in the baseline or PASSes now
     */
    public Regression judge(String id, Verdict verdict, String reason) {
        if (verdict == Verdict.PASS || !PASS.equals(verdicts.get(id)) || waived.containsKey(id)) {
            return null;
        }
        return new Regression(id, PASS, verdict.name(), reason == null ? "" : reason);
    }

    /**
     * @param entry    a claim entry that ran
     * @param produced the ids of the parts its run produced
     * @return its parts that PASSed in the baseline and are not among {@code produced}, as regressions ({@value #MISSING})
     */
    public List<Regression> vanishedParts(String entry, Collection<String> produced) {
        List<Regression> vanished = new ArrayList<>();
        partOf.forEach((part, parent) -> {
            if (parent.equals(entry) && PASS.equals(verdicts.get(part)) && !produced.contains(part) && !waived.containsKey(part)) {
                vanished.add(new Regression(part, PASS, MISSING, "its claim " + entry + " ran and did not produce it"));
            }
        });
        return vanished;
    }

    /**
     * @param report a parsed {@code guarantees.json} of a run
     * @return every entry of it that ran (not NOT_RUN), PASSed in the baseline and does not PASS in it, in its order,
     *     then the baseline's PASS parts of the entries that ran which it lacks ({@link #vanishedParts})
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
        Set<String> ids = new HashSet<>();
        List<String> ran = new ArrayList<>();
        for (Map<String, Object> c : (List<Map<String, Object>>) report.getOrDefault("claims", List.of())) {
            ids.add(String.valueOf(c.get("id")));
            if (!Verdict.NOT_RUN.name().equals(c.get("verdict")) && c.get("part_of") == null) {
                ran.add(String.valueOf(c.get("id")));
            }
        }
        ran.forEach(entry -> worse.addAll(vanishedParts(entry, ids)));
        return worse;
    }

    /**
     * @param report a parsed {@code guarantees.json} holding whole runs of {@code tiers} (not restricted with
     *               {@code -Dit.test}, not stopped at a first red claim)
     * @param tiers  the tiers that ran whole, e.g. {@code default}, or {@code faults} and {@code faults-cluster}
     * @return every entry and part of those tiers that PASSed in the baseline and that the report lacks or holds as
     *     NOT_RUN, in the baseline's order, as regressions with the verdict {@value #MISSING}
     */
    @SuppressWarnings("unchecked")
    public List<Regression> missing(Map<String, Object> report, Collection<String> tiers) {
        Map<String, Map<String, Object>> produced = new LinkedHashMap<>();
        for (Map<String, Object> c : (List<Map<String, Object>>) report.getOrDefault("claims", List.of())) {
            produced.put(String.valueOf(c.get("id")), c);
        }
        List<Regression> missing = new ArrayList<>();
        this.tiers.forEach((id, tier) -> {
            if (!tiers.contains(tier) || !PASS.equals(verdicts.get(id)) || waived.containsKey(id)) {
                return;
            }
            Map<String, Object> now = produced.get(id);
            if (now == null) {
                missing.add(new Regression(id, PASS, MISSING, "the " + tier + " tier ran whole and did not produce it"));
            } else if (Verdict.NOT_RUN.name().equals(now.get("verdict"))) {
                missing.add(new Regression(id, PASS, MISSING, "the " + tier + " tier ran whole and produced it as NOT_RUN"
                        + (now.get("reason") == null ? "" : ": " + now.get("reason"))));
            }
        });
        return missing;
    }

    /**
     * @param report a parsed {@code guarantees.json} holding whole runs of {@code tiers}
     * @param tiers  the tiers that ran whole
     * @return its {@link #regressions}, then its {@link #missing} entries not already among them, one per entry id
     */
    public List<Regression> wholeRun(Map<String, Object> report, Collection<String> tiers) {
        Map<String, Regression> byId = new LinkedHashMap<>();
        regressions(report).forEach(r -> byId.putIfAbsent(r.id(), r));
        missing(report, tiers).forEach(r -> byId.putIfAbsent(r.id(), r));
        return List.copyOf(byId.values());
    }

    /**
     * What one tier run was compared with ({@code gate} in its report, docs/gate.md "The regression gate").
     *
     * @param tier            the tier that ran
     * @param whole           whether it ran whole ({@link #missing} applies)
     * @param produced        the entries and parts of that tier it produced, NOT_RUN aside
     * @param baselineEntries the same count in the baseline, the waived aside (a whole run owes each of them)
     * @param owedPasses      the baseline's PASS entries it owed: of its tier when whole, else of those it ran
     * @param passingNow      how many of those PASS now
     * @param regressions     every regression, MISSING included when whole
     * @param shortfall       when whole: the baseline's entries of its tier it lacks that no regression names already
     *                        (an entry that did not PASS there, e.g. UNVERIFIED), whatever the counts; else null
     * @param waivers         the waivers in force, each listed with its reason and commit
     */
    public record Comparison(String tier, boolean whole, long produced, long baselineEntries, long owedPasses, long passingNow,
                             List<Regression> regressions, String shortfall, List<Waivers.Waiver> waivers) {

        /** @return every line the gate fails on: the regressions, then the shortfall */
        public List<String> failures() {
            List<String> lines = new ArrayList<>(regressions.stream().map(Regression::line).toList());
            if (shortfall != null) {
                lines.add(shortfall);
            }
            return lines;
        }

        /** @return the report's {@code gate} fields of this comparison */
        public Map<String, Object> toJson() {
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("tier", tier);
            json.put("whole_tier", whole);
            json.put("entries_produced", produced);
            json.put("baseline_entries", baselineEntries);
            json.put("owed_passes", owedPasses);
            json.put("passing_now", passingNow);
            json.put("regressions", failures());
            json.put("waivers", waivers.stream().map(Waivers.Waiver::toJson).toList());
            return json;
        }
    }

    /**
     * @param entries the entries of a run's report (its own and those carried over from other tiers)
     * @param tier    the tier that ran
     * @param whole   whether it ran whole
     * @return what it was compared with, and what differs
     */
    public Comparison compare(List<Map<String, Object>> entries, String tier, boolean whole) {
        Map<String, String> now = new LinkedHashMap<>();
        for (Map<String, Object> c : entries) {
            if (tier.equals(String.valueOf(c.get("tier"))) && !Verdict.NOT_RUN.name().equals(c.get("verdict"))) {
                now.put(String.valueOf(c.get("id")), String.valueOf(c.get("verdict")));
            }
        }
        List<String> owed = new ArrayList<>();
        List<String> lacking = new ArrayList<>();
        long baselineEntries = 0;
        for (Map.Entry<String, String> b : this.tiers.entrySet()) {
            String id = b.getKey();
            String verdict = verdicts.get(id);
            if (waived.containsKey(id) || Verdict.NOT_RUN.name().equals(verdict)) {
                continue;
            }
            if (whole ? tier.equals(b.getValue()) : now.containsKey(id)) {
                if (PASS.equals(verdict)) {
                    owed.add(id);
                }
            }
            if (tier.equals(b.getValue())) {
                baselineEntries++;
                if (!now.containsKey(id)) {
                    lacking.add(id);
                }
            }
        }
        Map<String, Object> report = Map.of("claims", entries);
        List<Regression> regressions = whole ? wholeRun(report, List.of(tier)) : regressions(report);
        Set<String> named = new HashSet<>();   // a PASS that vanished is already a MISSING regression: named once
        regressions.forEach(r -> named.add(r.id()));
        lacking.removeIf(named::contains);
        String shortfall = whole && !lacking.isEmpty()   // a new entry never makes up for one that vanished
                ? "the " + tier + " tier: " + baselineEntries + " entries in the baseline, " + now.size()
                        + " now; vanished (not produced, or NOT_RUN), besides any MISSING above: " + String.join(", ", lacking)
                : null;
        return new Comparison(tier, whole, now.size(), baselineEntries, owed.size(),
                owed.stream().filter(id -> PASS.equals(now.get(id))).count(), regressions, shortfall, List.copyOf(waived.values()));
    }

    /**
     * What a new committed report gives up against the one it replaces (issue 36 §2; {@code CommittedReportTest}):
     * every entry that PASSed in this gate's baseline and is worse, absent or NOT_RUN in {@code report}, whatever its
     * tier — a new committed report holds every tier.
     *
     * @param report the new report
     * @return those entries, one each
     */
    public List<Regression> lostPasses(Map<String, Object> report) {
        return wholeRun(report, Set.copyOf(tiers.values()));
    }

    /**
     * @param id an entry id
     * @return the id of its claim entry in the baseline when it is a part there (e.g. {@code B5[broker-kill]} for
     *     {@code B5[broker-kill@50%]}), else null
     */
    public String parentOf(String id) {
        return partOf.get(id);
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
