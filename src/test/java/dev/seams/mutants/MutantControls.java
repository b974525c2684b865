package dev.seams.mutants;

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
 * The unmutated controls of a mutation tier run (docs/mutants.md step 3): per tier, the copy without a patch, built in
 * the same run with the union of that tier's mutants' selectors (or the whole tier, when a survivor widens), the same
 * settle bounds and the same gate as the mutants' builds, not stopped at its first red claim; made once each, when the
 * tier's first mutant asks. An entry red here is red without any mutant, so it counts for none.
 */
public final class MutantControls {

    private static final Logger LOG = LoggerFactory.getLogger(MutantControls.class);

    /**
     * One control build.
     *
     * @param tier     the tier
     * @param selector its {@code -Dit.test} selector, or {@code (whole tier)}
     * @param exit     Maven's exit status (-1: timed out)
     * @param seconds  its wall time
     * @param log      its output
     * @param red      every entry that FAILed, regressed or was ENVIRONMENT: entry id → its line
     */
    public record Control(String tier, String selector, int exit, double seconds, Path log, Map<String, String> red) {

        /** @return why the control cannot tell a mutant's red from the unmutated tree's (timed out, ENVIRONMENT), or null */
        public String broken() {
            if (exit == -1) {
                return "the control build timed out: see " + log;
            }
            return red.values().stream().filter(why -> why.startsWith(Verdict.ENVIRONMENT.name())).findFirst()
                    .map(why -> "the control build's stand failed (" + why + "): see " + log).orElse(null);
        }
    }

    /** How a control is built: {@link MutantRun#build} of the unpatched copy, in the tier run; a test's stand-in. */
    @FunctionalInterface
    interface Builder {
        /**
         * @param tier     the tier
         * @param selector the {@code -Dit.test} selector, or null for the whole tier
         * @param dir      the control's folder
         * @return the build
         */
        MutantRun.Build build(String tier, String selector, Path dir);
    }

    private final MutantRun.Settings settings;
    private final Map<String, String> selectors;
    private final Map<String, Control> made = new LinkedHashMap<>();
    private final Builder builder;

    /**
     * @param settings how the tier runs
     * @param mutants  the mutants of this run: each tier's control runs the union of their selectors
     */
    public MutantControls(MutantRun.Settings settings, List<Mutant> mutants) {
        this(settings, mutants, (tier, selector, dir) -> {
            MutantRun.copy(settings.root(), dir.resolve("tree"));
            return MutantRun.build("control", tier, settings, dir.resolve("tree"), dir, selector, 1, false, Set.of(), true);
        });
    }

    MutantControls(MutantRun.Settings settings, List<Mutant> mutants, Builder builder) {
        this.settings = settings;
        this.builder = builder;
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
        return made.computeIfAbsent(tier + (whole ? " (whole tier)" : ""), k -> {
            Path dir = settings.work().resolve("control-" + tier + (whole ? "-whole" : ""));
            MutantRun.Build b = builder.build(tier, whole ? null : selectors.get(tier), dir);
            Map<String, String> red = new LinkedHashMap<>(b.killers());
            red.putAll(b.notCounted());
            LOG.info("control build of the {} tier ({}): exit {}, {} s, red {}", tier, b.selector(), b.exit(), b.seconds(), red.keySet());
            return new Control(tier, b.selector(), b.exit(), b.seconds(), b.log(), red);
        });
    }

    /**
     * @param tier the tier
     * @return the tree of that tier's control (selectors of its mutants), built by now, or null if none was
     */
    Path tree(String tier) {
        Control c = made.get(tier);
        return c == null || c.log() == null ? null : c.log().getParent().resolve("tree");
    }

    /** @return the control builds made, in order */
    public List<Control> made() {
        return List.copyOf(made.values());
    }
}
