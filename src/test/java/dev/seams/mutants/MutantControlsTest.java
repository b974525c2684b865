package dev.seams.mutants;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A tier's unmutated control is a build of this run (docs/mutants.md step 3): once per tier, with the union of its
 * mutants' selectors; its red entries count for no mutant; one that timed out or whose stand failed is no comparison.
 */
class MutantControlsTest {

    private static final Path WORK = Path.of("/p/target/mutants");
    private static final MutantRun.Settings SETTINGS = new MutantRun.Settings(Path.of("/p"), WORK, Path.of("/p/reports/guarantees.json"),
            "offline", "mvn", true, Duration.ofMinutes(1));

    @Test
    void eachTierIsBuiltOnceWithTheUnionOfItsMutantsSelectors() {
        List<Mutant> mutants = MutantCatalog.load().select("sink-skip-retriable-batch,sink-commit-before-write,sink-no-final-commit");
        List<String> asked = new ArrayList<>();
        MutantControls controls = new MutantControls(SETTINGS, mutants, (tier, selector, dir) -> {
            asked.add(tier + " " + selector + " " + dir);
            return new MutantRun.Build(String.valueOf(selector), 0, 42.0, dir.resolve("build-1.log"),
                    Map.of("G4", "G4: FAIL (engine)"), List.of(), 3, Map.of("B6", "red only by a timeout"), Map.of());
        });

        assertThat(controls.red("default", false)).containsExactlyInAnyOrder("G4", "B6");
        assertThat(controls.red("default", false)).as("made once").containsExactlyInAnyOrder("G4", "B6");
        controls.red("faults", false);
        controls.red("default", true);

        assertThat(asked).containsExactly("default " + union(mutants, "default") + " " + WORK.resolve("control-default"),
                "faults " + union(mutants, "faults") + " " + WORK.resolve("control-faults"),
                "default null " + WORK.resolve("control-default-whole"));
        assertThat(controls.made()).extracting(MutantControls.Control::seconds).containsOnly(42.0);
        assertThat(controls.broken("default", false)).isNull();
    }

    private static String union(List<Mutant> mutants, String tier) {
        return String.join(",", new LinkedHashSet<>(mutants.stream().filter(m -> m.tier().equals(tier))
                .flatMap(m -> m.expected().stream()).toList()));
    }

    @Test
    void aControlThatTimedOutOrWhoseStandFailedIsNoComparison() {
        List<Mutant> mutants = MutantCatalog.load().select("sink-skip-retriable-batch,sink-no-final-commit");
        MutantControls controls = new MutantControls(SETTINGS, mutants, (tier, selector, dir) -> tier.equals("default")
                ? new MutantRun.Build(selector, -1, 1800.0, dir.resolve("build-1.log"), Map.of(), List.of(), 0)
                : new MutantRun.Build(selector, 1, 60.0, dir.resolve("build-1.log"), Map.of(), List.of(), 1,
                        Map.of("B12", "ENVIRONMENT (the stand did not start)"), Map.of()));

        assertThat(controls.broken("default", false)).startsWith("the control build timed out");
        assertThat(controls.broken("faults", false)).startsWith("the control build's stand failed (ENVIRONMENT");
    }
}
