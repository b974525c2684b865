package dev.seams.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seams.project.Project;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * The build's gate execution (pom.xml, phase {@code verify}, after the claims ran; docs/gate.md "The regression gate"):
 * fails when a whole tier run of this build left a regression against {@code -Dseams.gate}'s baseline — above all an
 * entry that PASSed there and that the run did not produce or produced as NOT_RUN ({@link Gate#MISSING}), which no
 * claim test can fail by itself; a tier with fewer entries than the baseline's; and, in a whole gated build, a tier
 * of its profile ({@code seams.gate.tiers}) that left no verdict at all — its selector matched no claim test. Runs only in
 * that execution ({@code seams.gate.check=true}, tag {@code gate-check}); skipped when the build owed no gated tier.
 * Gated or not, a tier whose claims stopped before their end ({@link TierClock}) fails it.
 */
@Tag("gate-check")
@EnabledIfSystemProperty(named = "seams.gate.check", matches = "true")
class GateCheckTest {

    @Test
    void noEntryThatPassedInTheBaselineRegressedOrVanished() {
        String start = System.getProperty("seams.build.started", "");
        Assumptions.assumeTrue(start.matches("\\d{4}-.*Z"), "no build start (seams.build.started): run by the build's gate execution");
        List<GateCheck.Verdict> verdicts = GateCheck.read(Project.root(), Instant.parse(start));
        // a whole gated build owes a verdict of every tier of its profile; a restricted or fail-fast one only its own
        List<String> owed = set("seams.gate") && !set("seams.it.test") && !Boolean.getBoolean("seams.fail.fast")
                ? Arrays.stream(System.getProperty("seams.gate.tiers", "").split(",")).map(String::strip).filter(t -> !t.isEmpty()).toList()
                : List.of();
        Assumptions.assumeFalse(verdicts.isEmpty() && owed.isEmpty(), "no tier of this build ran whole against a baseline (-Dseams.gate)");
        assertThat(GateCheck.failures(verdicts, owed)).as("the tiers of this build against their baseline: entries that PASSed "
                + "there and do not PASS now (MISSING: not produced, or NOT_RUN; a rename is a MISSING plus a new entry), a "
                + "tier with fewer entries than there, a tier that left no verdict").isEmpty();
    }

    @Test
    void noTierOfThisBuildStoppedBeforeItsEnd() {
        String start = System.getProperty("seams.build.started", "");
        Assumptions.assumeTrue(start.matches("\\d{4}-.*Z"), "no build start (seams.build.started): run by the build's gate execution");
        assertThat(GateCheck.stops(Project.root(), Instant.parse(start))).as("tiers of this build whose claims ran out of "
                + "time (-D" + TierClock.BUDGET_PROPERTY + ", -D" + TierClock.STALLED_PROPERTY + "): the rest of each is NOT_RUN").isEmpty();
    }

    private static boolean set(String property) {
        String value = System.getProperty(property, "");
        return !value.isBlank() && !value.startsWith("${");
    }
}
