package dev.seams.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link SubReports}: every report beside the claims report shows how old it is; one of other covered paths is stale on the overall line. */
class SubReportsTest {

    @TempDir
    Path repo;

    @Test
    void aSubReportOfOtherCoveredPathsIsStaleWithItsDistanceAndOneOfTheSameSourceIsNot() throws Exception {
        ScratchRepo git = ScratchRepo.init(repo);
        String old = git.commit("src/A.java", "class A {}", "old");
        git.commit("docs/x.md", "docs only", "docs");
        String docsOnly = git.git("rev-parse", "HEAD");
        String here = git.commit("src/A.java", "class A { int a; }", "new");
        String after = git.commit("README.md", "readme", "after");
        Map<String, Object> source = Map.of("commit", here, "content_hash", "h2");

        SubReports.SubReport candidate = SubReports.of("candidate/guarantees.md", Map.of("commit", old, "content_hash", "h1"), source, repo);
        SubReports.SubReport perf = SubReports.of("performance.md", Map.of("commit", after, "content_hash", "h2"), source, repo);
        SubReports.SubReport same = SubReports.of("sinks/kafka-engine/guarantees.md", Map.of("commit", here, "content_hash", "h2"), source, repo);

        assertThat(candidate.line()).isEqualTo("`candidate/guarantees.md` (" + old.substring(0, 7) + "): 2 commits and 1 path of "
                + "src/, containers/, pom.xml behind this report's source — **stale**");
        assertThat(perf.line()).isEqualTo("`performance.md` (" + after.substring(0, 7) + "): 1 commit and 0 paths of src/, "
                + "containers/, pom.xml after this report's source, same src/, containers/, pom.xml");
        assertThat(same.line()).endsWith("this report's own commit, same src/, containers/, pom.xml");
        assertThat(SubReports.of("mutants.md", Map.of("commit", "f".repeat(40), "content_hash", "h0"), source, repo).line())
                .endsWith("its commit is not in this history — **stale**");
        assertThat(SubReports.of("mutants.md", Map.of("commit", docsOnly, "content_hash", "h1"), source, repo).stale()).isTrue();

        String index = Markdown.pages(Map.of("source", source, "claims", List.of(Map.of("id", "G1", "title", "Baseline parity",
                "verdict", "PASS"))), Map.of(), Map.of(), List.of(candidate, perf)).get(Markdown.INDEX);
        assertThat(index).contains("**Overall: PASS** — its one entry passes. Stale beside it (of other src/, containers/, pom.xml): "
                + "`candidate/guarantees.md` (" + old.substring(0, 7) + ").\n");
        assertThat(index).contains("Reports beside this one:\n- " + candidate.line() + "\n- " + perf.line() + "\n");
    }

    @Test
    void theSubReportsOfAFolderAreFoundBesideIt() throws Exception {
        Files.createDirectories(repo.resolve("sinks/kafka-engine"));
        Files.writeString(repo.resolve("mutants.json"), "{\"source\":{\"commit\":\"abc\",\"content_hash\":\"h1\"}}");
        Files.writeString(repo.resolve("sinks/kafka-engine/guarantees.json"), "{\"source\":{\"commit\":\"abc\",\"content_hash\":\"h2\"}}");

        List<SubReports.SubReport> found = SubReports.of(repo, Map.of("commit", "abc", "content_hash", "h2"), repo);

        assertThat(found).extracting(SubReports.SubReport::name).containsExactly("mutants.md", "sinks/kafka-engine/guarantees.md");
        assertThat(found).extracting(SubReports.SubReport::stale).containsExactly(true, false);
    }
}
