package dev.seams.mutants;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seams.project.Project;
import dev.seams.report.ClaimCatalog;
import dev.seams.report.Provenance;
import dev.seams.report.ReportWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The mutation tier, {@code mvn verify -Pmutants} (docs/mutants.md): every mutant of {@link MutantCatalog} run by
 * {@link MutantRun} against the baseline report, beside an unmutated control build of the same selectors per tier, then {@code reports/mutants.{md,json}} written — or, for a
 * selection ({@code -Dseams.mutants=id,...}, e.g. {@code .ci/run}'s sentinel), {@code target/mutants-report/}.
 * The build is red unless every mutant run was killed and, for the whole catalogue, every claim killed at least
 * one mutant or the catalogue says why none applies to it.
 *
 * <p>Properties: {@code seams.mutants} (ids, default all), {@code seams.mutants.baseline} (default the committed
 * {@code reports/guarantees.json}), {@code seams.mutants.widen} (default true: a survivor of its expected claims
 * runs the rest of its tier), {@code seams.mutants.build.minutes} (one build's bound, default 30),
 * {@code seams.profile}, {@code seams.mvn} (pom.xml passes Maven's own).
 */
class MutationTierIT {

    private static final Logger LOG = LoggerFactory.getLogger(MutationTierIT.class);

    @Test
    void everyMutantIsKilledByAClaim() {
        Path root = Project.root();
        String selection = property("seams.mutants", "");
        MutantCatalog catalog = MutantCatalog.load(root);
        List<Mutant> mutants = catalog.select(selection);
        boolean whole = mutants.size() == catalog.mutants().size();
        Path baseline = root.resolve(property("seams.mutants.baseline", "reports/guarantees.json"));
        MutantRun.Settings settings = new MutantRun.Settings(root, root.resolve("target/mutants"), baseline,
                property("seams.profile", "current"), property("seams.mvn", "mvn"),
                Boolean.parseBoolean(property("seams.mutants.widen", "true")),
                Duration.ofMinutes(Long.parseLong(property("seams.mutants.build.minutes", "30"))));
        Provenance source = Provenance.of(root);
        long t0 = System.nanoTime();
        List<MutantRun.Result> results = new ArrayList<>();
        MutantControls controls = new MutantControls(settings, mutants);   // unmutated, same selectors and bounds, this run
        for (Mutant m : mutants) {
            MutantRun.Result r = MutantRun.run(m, settings, controls);
            LOG.info("mutant {}: {} {} {} ({} s)", m.id(), r.verdict(), r.killerEntries(), r.detail(), r.seconds());
            results.add(r);
        }
        Map<String, Object> base = ReportWriter.read(baseline);
        Map<String, Object> json = MutantsReport.toJson(results, controls.made(), catalog, ClaimCatalog.load(), settings, source, base,
                (System.nanoTime() - t0) / 1e9);
        Path dir = root.resolve(whole ? "reports" : "target/mutants-report");
        MutantsReport.write(dir, json);
        LOG.info("mutants report: {}", dir.resolve("mutants.md"));
        if (whole) {   // each claim entry's section shows the mutants it killed (the committed pair, same source)
            try {
                ReportWriter.renderMarkdown(dir);
            } catch (RuntimeException noClaimsReport) {   // the tier's own verdict below still stands
                LOG.warn("guarantees.md not rendered again with the mutants' kills: {}", noClaimsReport.toString());
            }
        }

        assertThat(controls.made()).as("every tier's unmutated control, built in this run (docs/mutants.md step 3)")
                .extracting(MutantControls.Control::tier).containsAll(mutants.stream().map(Mutant::tier).distinct().toList());
        assertThat(results).as("mutants not killed by a claim (a survivor is a finding: strengthen the claim or add the one "
                        + "missing, never drop the mutant); report " + dir.resolve("mutants.md"))
                .allSatisfy(r -> assertThat(r.verdict()).as(r.mutant().id() + ": " + r.detail()).isEqualTo("KILLED"));
        if (whole) {
            @SuppressWarnings("unchecked")
            List<Map<String, Object>> claims = (List<Map<String, Object>>) json.get("claims");
            assertThat(claims).as("claims that killed no mutant and say nowhere why none applies "
                            + "(src/test/resources/dev/seams/mutants/claims-without-mutants.tsv)")
                    .allSatisfy(c -> assertThat(!((List<?>) c.get("killed")).isEmpty() || !String.valueOf(c.get("why_none")).isBlank())
                            .as(String.valueOf(c.get("id"))).isTrue());
        }
    }

    private static String property(String name, String fallback) {
        String v = System.getProperty(name, "");
        return v.isBlank() || v.startsWith("${") ? fallback : v;
    }
}
