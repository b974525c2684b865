package dev.seams.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/** The catalog the report lists is CLAIMS.md's (checked where {@code ../shared/CLAIMS.md} is beside the project). */
class ClaimCatalogTest {

    @Test
    void theCatalogHasTheIdsAndTitlesOfClaimsMd() throws Exception {
        Path claimsMd = Project.root().resolve("../shared/CLAIMS.md");
        Assumptions.assumeTrue(Files.exists(claimsMd), "no ../shared/CLAIMS.md beside the project");
        List<String> expected = new ArrayList<>();
        Matcher m = Pattern.compile("^\\| ([GB]\\d+) \\| ([^|]+) \\|", Pattern.MULTILINE).matcher(Files.readString(claimsMd));
        while (m.find()) {
            expected.add(m.group(1) + " " + m.group(2).strip());
        }
        assertThat(ClaimCatalog.load().entries()).extracting(e -> e.id() + " " + e.title()).containsExactlyElementsOf(expected);
    }

    @Test
    void entryIdsSortInClaimsOrder() {
        List<String> ids = new ArrayList<>(List.of("B1", "G10", "G3[n=51]", "G3", "B12", "G2"));
        ids.sort(ClaimCatalog.load().order());
        assertThat(ids).containsExactly("G2", "G3", "G3[n=51]", "G10", "B1", "B12");
    }
}
