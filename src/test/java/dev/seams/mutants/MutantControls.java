package dev.seams.mutants;

import dev.seams.report.Gate;
import dev.seams.report.Provenance;
import dev.seams.report.ReportWriter;
import dev.seams.report.Verdict;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The unmutated controls of a mutation tier run, one per tier, made once each when first asked for (issue 36 §1): a
 * control build of the copy without a patch, or — when {@code seams.mutants.control} names one — a report of both tiers
 * run from this very source (its {@code source.content_hash} equal to the tree's, e.g. the {@code reports/guarantees.json}
 * just regenerated on the same commit, or written by {@code .ci/run}'s own default and fault tiers), which already is an
 * unmutated run of every selector and is not built twice. A report from another source, or without the tier's run, is
 * refused: an {@link IllegalStateException}, never a silent fallback.
 */
public final class MutantControls {

    private static final Logger LOG = LoggerFactory.getLogger(MutantControls.class);

    /**
     * The unmutated control build of a tier (issue 36 §1): the copy without a patch, built with the union of the
     * selectors of that tier's mutants (or the whole tier), not stopped at its first red claim. An entry red here is
     * red without any mutant, so it counts for none.
     *
     * @param tier     the tier
     * @param selector its {@code -Dit.test} selector, or {@code (whole tier)}
     * @param exit     Maven's exit status
     * @param seconds  its wall time
     * @param log      its output
     * @param red      every entry that FAILed, regressed or was ENVIRONMENT: entry id → its line
     */
    public record Control(String tier, String selector, int exit, double seconds, Path log, Map<String, String> red) {

        /** The selector of a control read from a report of the same source, not built. */
        public static final String FROM_REPORT = "the report of this source: ";

        /** @return why the control cannot tell a mutant's red from the unmutated tree's (timed out, ENVIRONMENT), or null */
        public String broken() {
            if (exit == -1) {
                return "the control build timed out: see " + log;
            }
            return red.values().stream().filter(why -> why.startsWith(Verdict.ENVIRONMENT.name())).findFirst()
                    .map(why -> "the control build's stand failed (" + why + "): see " + log).orElse(null);
        }
    }


    private final MutantRun.Settings settings;
    private final Map<String, String> selectors;
    private final Map<String, Control> made = new LinkedHashMap<>();
    private final Path report;

    /**
     * @param settings how the tier runs
     * @param mutants  the mutants of this run: each tier's control runs the union of their selectors
     */
    public MutantControls(MutantRun.Settings settings, List<Mutant> mutants) {
        this(settings, mutants, null);
    }

    /**
     * @param settings how the tier runs
     * @param mutants  the mutants of this run: each tier's control runs the union of their selectors
     * @param report   a {@code guarantees.json} of this same source that is the control of every tier it ran, or null to
     *                 build each control
     */
    public MutantControls(MutantRun.Settings settings, List<Mutant> mutants, Path report) {
        this.settings = settings;
        this.report = report;
        Map<String, Set<String>> union = new LinkedHashMap<>();
        mutants.forEach(m -> union.computeIfAbsent(m.tier(), t -> new LinkedHashSet<>()).addAll(m.expected()));
        this.selectors = new LinkedHashMap<>();
        union.forEach((tier, sel) -> selectors.put(tier, String.join(",", sel)));
    }

    /**
     * @param tier  the tier
     * @param whole whether the mutant's build ran the whole tier (then the control does too)
     * @return the entries red in that control: none of them counts as a kill
     */
    Set<String> red(String tier, boolean whole) {
        return control(tier, whole).red().keySet();
    }

    /** @return why the control of that tier is no comparison (see {@link Control#broken()}), or null */
    String broken(String tier, boolean whole) {
        return control(tier, whole).broken();
    }

    private Control control(String tier, boolean whole) {
        if (report != null) {
            return made.computeIfAbsent(tier, k -> fromReport(tier, report, settings));
        }
        return made.computeIfAbsent(tier + (whole ? " (whole tier)" : ""), k -> {
            Path dir = settings.work().resolve("control-" + tier + (whole ? "-whole" : ""));
            MutantRun.copy(settings.root(), dir.resolve("tree"));
            MutantRun.Build b = MutantRun.build("control", tier, settings, dir.resolve("tree"), dir, whole ? null : selectors.get(tier), 1, false, Set.of());
            Map<String, String> red = new LinkedHashMap<>(b.killers());
            red.putAll(b.notCounted());
            LOG.info("control build of the {} tier ({}): exit {}, red {}", tier, b.selector(), b.exit(), red.keySet());
            return new Control(tier, b.selector(), b.exit(), b.seconds(), b.log(), red);
        });
    }

    /**
     * The control of a tier read from a report of the same source: its red entries judged as a control build's are
     * (FAIL, not PASS where the baseline PASSed, ENVIRONMENT).
     *
     * @param tier     the tier
     * @param report   the report
     * @param settings the run's settings (its root's source, its baseline)
     * @return the control
     * @throws IllegalStateException if the report is from another source (its {@code content_hash} differs from the
     *     tree's) or holds no run of the tier
     */
    @SuppressWarnings("unchecked")
    static Control fromReport(String tier, Path report, MutantRun.Settings settings) {
        Map<String, Object> json = ReportWriter.read(report);
        Map<String, Object> source = (Map<String, Object>) json.getOrDefault("source", Map.of());
        String tree = Provenance.of(settings.root()).contentHash();
        if (!tree.equals(source.get("content_hash"))) {
            throw new IllegalStateException("seams.mutants.control=" + report + " is a report of source " + source.get("content_hash")
                    + " (commit " + source.get("commit") + "), not of this tree (" + tree + "): only a run of the same source is an "
                    + "unmutated control; regenerate it on this commit or leave the property unset to build the control");
        }
        List<Map<String, Object>> runs = (List<Map<String, Object>>) json.getOrDefault("runs", List.of());
        if (runs.stream().noneMatch(r -> tier.equals(r.get("tier")))) {
            throw new IllegalStateException("seams.mutants.control=" + report + " holds no run of the " + tier + " tier (runs: "
                    + runs.stream().map(r -> r.get("tier")).toList() + "): run it on this commit first, or leave the property unset");
        }
        Gate gate = Gate.of(ReportWriter.read(settings.baseline()), settings.baseline().toString());
        MutantJudge.Judged judged = MutantJudge.judge(json, gate, Set.of(), false);
        Map<String, String> red = new LinkedHashMap<>(judged.kills());
        red.putAll(judged.notCounted());
        Map<String, String> ofTier = new LinkedHashMap<>();
        Map<String, String> tiers = new LinkedHashMap<>();
        ((List<Map<String, Object>>) json.getOrDefault("claims", List.of())).forEach(c -> tiers.put(String.valueOf(c.get("id")), String.valueOf(c.get("tier"))));
        red.forEach((id, why) -> {
            if (tiers.getOrDefault(id, tier).startsWith(tier)) {
                ofTier.put(id, why);
            }
        });
        LOG.info("control of the {} tier from {} (same source {}): red {}", tier, report, tree, ofTier.keySet());
        return new Control(tier, Control.FROM_REPORT + report + " (commit " + source.get("commit") + ")", 0, 0.0, report, ofTier);
    }

    /** @return the control builds made, in order */
    public List<Control> made() {
        return List.copyOf(made.values());
    }
}
