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
 * The unmutated control builds of a mutation tier run, one per tier, made once each when first asked for (issue 36 §1).
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

    /**
     * @param settings how the tier runs
     * @param mutants  the mutants of this run: each tier's control runs the union of their selectors
     */
    public MutantControls(MutantRun.Settings settings, List<Mutant> mutants) {
        this.settings = settings;
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
            MutantRun.copy(settings.root(), dir.resolve("tree"));
            MutantRun.Build b = MutantRun.build("control", tier, settings, dir.resolve("tree"), dir, whole ? null : selectors.get(tier), 1, false, Set.of());
            Map<String, String> red = new LinkedHashMap<>(b.killers());
            red.putAll(b.notCounted());
            LOG.info("control build of the {} tier ({}): exit {}, red {}", tier, b.selector(), b.exit(), red.keySet());
            return new Control(tier, b.selector(), b.exit(), b.seconds(), b.log(), red);
        });
    }

    /** @return the control builds made, in order */
    public List<Control> made() {
        return List.copyOf(made.values());
    }
}
