package dev.seams.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seams.project.Project;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The catalog the report lists is the one in the repository ({@code docs/claims.md}), and that one is the
 * maintainers' copy of the catalogue where it is beside the project.
 */
class ClaimCatalogTest {

    /** @return "id title" of every claim row of a claims catalogue in markdown, in its order ({@link ClaimStatements#rows}) */
    private static List<String> claims(Path markdown) throws IOException {
        return ClaimStatements.rows(Files.readString(markdown)).stream().map(r -> r.id() + " " + r.statement().title()).toList();
    }

    @Test
    void theCatalogHasTheIdsAndTitlesOfDocsClaimsMd() throws Exception {
        List<String> expected = claims(Project.root().resolve("docs/claims.md"));
        assertThat(expected).as("claims of docs/claims.md").isNotEmpty();
        assertThat(ClaimCatalog.load().entries()).extracting(e -> e.id() + " " + e.title()).containsExactlyElementsOf(expected);
    }

    @Test
    void docsClaimsMdHasTheIdsAndTitlesOfTheSharedClaimsMd() throws Exception {
        Path shared = Project.root().resolve("../shared/CLAIMS.md");
        Assumptions.assumeTrue(Files.exists(shared), "no maintainers' copy of the catalogue beside the project");
        assertThat(claims(Project.root().resolve("docs/claims.md"))).containsExactlyElementsOf(claims(shared));
    }

    @Test
    void aClaimWithoutTestsSaysWhyInItsNotRunReason() {
        List<ClaimCatalog.Entry> notBuilt = ClaimCatalog.load().entries().stream().filter(e -> !e.built()).toList();
        assertThat(notBuilt).allSatisfy(e -> assertThat(e.notRunReason()).startsWith("not built yet"));
    }

    @Test
    void entryIdsSortInClaimsOrder() {
        List<String> ids = new ArrayList<>(List.of("B1", "G10", "G3[n=51]", "G3", "B12", "G2"));
        ids.sort(ClaimCatalog.load().order());
        assertThat(ids).containsExactly("G2", "G3", "G3[n=51]", "G10", "B1", "B12");
    }
}
