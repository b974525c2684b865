package dev.seams.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seams.project.Project;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * The build's gate execution (pom.xml, phase {@code verify}, after the claims ran; README "The regression gate"):
 * fails when a whole tier run of this build left a regression against {@code -Dseams.gate}'s baseline — above all an
 * entry that PASSed there and that the run did not produce or produced as NOT_RUN ({@link Gate#MISSING}), which no
 * claim test can fail by itself. Runs only in that execution ({@code seams.gate.check=true}); skipped when no tier
 * of this build ran whole against a baseline.
 */
@EnabledIfSystemProperty(named = "seams.gate.check", matches = "true")
class GateCheckTest {

    @Test
    void noEntryThatPassedInTheBaselineRegressedOrVanished() {
        String start = System.getProperty("seams.build.started", "");
        Assumptions.assumeTrue(start.matches("\\d{4}-.*Z"), "no build start (seams.build.started): run by the build's gate execution");
        Instant started = Instant.parse(start);
        List<GateCheck.Verdict> verdicts = GateCheck.read(Project.root(), started);
        Assumptions.assumeFalse(verdicts.isEmpty(), "no tier of this build ran whole against a baseline (-Dseams.gate)");
        for (GateCheck.Verdict v : verdicts) {
            assertThat(v.regressions()).as("the %s tier against %s: entries that PASSed there and do not PASS now "
                    + "(MISSING: not produced, or NOT_RUN; a rename is a MISSING plus a new entry)", v.tier(), v.baseline())
                    .isEmpty();
        }
    }
}
