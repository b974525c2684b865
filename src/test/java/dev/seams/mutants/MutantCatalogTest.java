package dev.seams.mutants;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seams.project.Project;
import dev.seams.report.ClaimCatalog;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The mutation tier's catalogue stays runnable as the code moves (issue 21): at least 15 mutants, each patch
 * applies to this tree and changes what it names, each names claims of the catalogue and tests that exist.
 * A mutant that no longer applies fails here, in {@code mvn test}, not an hour into {@code -Pmutants}.
 */
class MutantCatalogTest {

    private static final MutantCatalog CATALOG = MutantCatalog.load();

    @Test
    void theCatalogueHoldsAtLeastFifteenMutantsOfTheProductAndTheStand() {
        assertThat(CATALOG.mutants()).extracting(Mutant::id).hasSizeGreaterThanOrEqualTo(15);
        assertThat(CATALOG.mutants()).allSatisfy(m -> assertThat(m.files()).isNotEmpty()
                // the product, the stand's definition, and the code that puts the user's connector under the claims
                .allSatisfy(f -> assertThat(f).matches("src/main/.*|containers/.*|pom\\.xml|src/test/java/dev/seams/config/ConnectorUnderTest\\.java")));
    }

    @Test
    void everyPatchAppliesToThisTree(@TempDir Path dir) throws Exception {
        Path root = Project.root();
        for (Mutant m : CATALOG.mutants()) {
            Path tree = dir.resolve(m.id()).resolve("tree");
            for (String file : m.files()) {
                Files.createDirectories(tree.resolve(file).getParent());
                Files.copy(root.resolve(file), tree.resolve(file));
            }
            assertThat(MutantRun.apply(m, root, tree, dir.resolve(m.id()).resolve("apply.log"))).as(m.id()).isNull();
        }
    }

    @Test
    void everyMutantNamesClaimsOfTheCatalogueAndTestsThatExist() {
        Set<String> claims = ClaimCatalog.load().entries().stream().map(ClaimCatalog.Entry::id).collect(Collectors.toSet());
        Path it = Project.root().resolve("src/test/java/dev/seams/it");
        for (Mutant m : CATALOG.mutants()) {
            assertThat(m.expectedClaims()).as(m.id() + " entries").isNotEmpty().allSatisfy(c -> assertThat(claims).contains(c));
            for (String selector : m.expected()) {
                String cls = selector.contains("#") ? selector.substring(0, selector.indexOf('#')) : selector;
                assertThat(it.resolve(cls + ".java")).as(m.id() + " expected " + selector).exists();
            }
        }
    }

    @Test
    void claimsWithoutMutantsAreClaimsOfTheCatalogue() {
        List<String> ids = ClaimCatalog.load().entries().stream().map(ClaimCatalog.Entry::id).toList();
        assertThat(CATALOG.withoutMutants().keySet()).allSatisfy(id -> assertThat(ids).contains(id));
    }
}
