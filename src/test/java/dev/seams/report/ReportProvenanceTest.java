package dev.seams.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link ReportProvenance} on a small git repository the test makes: a report of a clean commit of the branch is
 * accepted and told how far behind HEAD it is; a report of a dirty tree, of a commit outside the history, or whose
 * hashes are not those of the commit it names is rejected (issue 35).
 */
class ReportProvenanceTest {

    @TempDir
    Path repo;

    @BeforeEach
    void aRepositoryWithOneCommit() throws IOException {
        git("init", "-q", "-b", "main");
        write("src/main/A.java", "class A {}\n");
        write("containers/postgres/001.sql", "create table orders (id int);\n");
        write("pom.xml", "<project/>\n");
        write("README.md", "not hashed\n");
        commit("first");
    }

    @Test
    void aReportOfHeadIsAcceptedAndIsNotBehind() {
        ReportProvenance.Behind behind = ReportProvenance.verify(repo, "reports/guarantees.json", report());

        assertThat(behind.commits()).isZero();
        assertThat(behind.line()).endsWith("= HEAD");
    }

    @Test
    void aReportOfAnAncestorIsAcceptedAndSaysHowFarBehindItIs() throws IOException {
        Map<String, Object> source = report();
        write("src/main/B.java", "class B {}\n");
        commit("second");
        write("README.md", "still not hashed\n");
        commit("third");

        ReportProvenance.Behind behind = ReportProvenance.verify(repo, "reports/guarantees.json", source);

        assertThat(behind.commits()).isEqualTo(2);
        assertThat(behind.paths()).containsExactly("src/main/B.java");
        assertThat(behind.line()).contains("2 commits and 1 path of src/, containers/, pom.xml behind HEAD: src/main/B.java");
    }

    @Test
    void aReportOfADirtyTreeIsRejected() throws IOException {
        write("src/main/A.java", "class A { int changed; }\n");
        Map<String, Object> source = report();

        assertThat(source.get("dirty")).isEqualTo(true);
        assertThatThrownBy(() -> ReportProvenance.verify(repo, "reports/guarantees.json", source))
                .isInstanceOf(ReportProvenance.RejectedException.class)
                .hasMessageContaining("uncommitted changes");
    }

    @Test
    void aReportOfACommitOutsideTheHistoryIsRejected() throws IOException {
        git("checkout", "-q", "-b", "elsewhere");
        write("src/main/A.java", "class A { int elsewhere; }\n");
        commit("off the branch");
        Map<String, Object> source = report();
        git("checkout", "-q", "main");

        assertThatThrownBy(() -> ReportProvenance.verify(repo, "reports/guarantees.json", source))
                .isInstanceOf(ReportProvenance.RejectedException.class)
                .hasMessageContaining("not HEAD or an ancestor of HEAD");
        Map<String, Object> unknown = new LinkedHashMap<>(source);
        unknown.put("commit", "0123456789abcdef0123456789abcdef01234567");
        assertThatThrownBy(() -> ReportProvenance.verify(repo, "reports/guarantees.json", unknown))
                .isInstanceOf(ReportProvenance.RejectedException.class)
                .hasMessageContaining("not in this repository");
    }

    @Test
    void aReportWhoseHashesAreNotThoseOfItsCommitIsRejected() throws IOException {
        write("containers/postgres/001.sql", "create table orders (id bigint);\n");
        Map<String, Object> source = report();   // hashes of the changed tree, then claimed clean and of HEAD
        source.put("dirty", false);

        assertThatThrownBy(() -> ReportProvenance.verify(repo, "reports/guarantees.json", source))
                .isInstanceOf(ReportProvenance.RejectedException.class)
                .hasMessageContaining("was not produced from that commit as committed");
    }

    @Test
    void aReportNamingNoCommitIsRejected() {
        Map<String, Object> source = report();
        source.put("commit", "unknown: git rev-parse HEAD failed");

        assertThatThrownBy(() -> ReportProvenance.verify(repo, "reports/mutants.json", source))
                .isInstanceOf(ReportProvenance.RejectedException.class)
                .hasMessageContaining("reports/mutants.json names no commit");
    }

    @Test
    void theHashesOfACommitAreThoseOfItsCleanCheckout() {
        assertThat(ReportProvenance.hashCommit(repo, git("rev-parse", "HEAD")).hashes())
                .isEqualTo(Provenance.of(repo).hashes());
    }

    /** @return the provenance a report produced now from the repository's tree would record, as its JSON */
    private Map<String, Object> report() {
        return new LinkedHashMap<>(Provenance.of(repo).toJson());
    }

    private void write(String path, String text) throws IOException {
        Path file = repo.resolve(path);
        Files.createDirectories(file.getParent());
        Files.writeString(file, text);
    }

    private void commit(String message) {
        git("add", "-A");
        git("-c", "user.name=seams", "-c", "user.email=seams@example.invalid", "commit", "-q", "-m", message);
    }

    private String git(String... args) {
        Git.Result r = Git.run(repo, args);
        assertThat(r.ok()).as("git %s: %s", String.join(" ", args), r.output()).isTrue();
        return r.output();
    }
}
