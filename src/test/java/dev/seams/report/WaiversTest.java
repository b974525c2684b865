package dev.seams.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link Waivers}: a waiver is dated by the commit that added it and lapses with the report change after the one it served. */
class WaiversTest {

    private static final String FILE = "reports/waivers.tsv";
    private static final String REPORT = "reports/guarantees.json";

    @TempDir
    Path repo;

    @Test
    void aWaiverServesTheNextChangeOfTheReportAndLapsesWithTheOneAfter() throws Exception {
        ScratchRepo git = ScratchRepo.init(repo);
        Files.createDirectories(repo.resolve("reports"));
        git.commit(REPORT, "{\"n\":1}", "report 1");
        append("G11[three-decimals]\tno longer a bad record since B15\n");
        String first = git.commit(FILE, null, "waiver for the next report");
        String report2 = git.commit(REPORT, "{\"n\":2}", "report 2: G11[three-decimals] given up");
        append("B12[join and leave @55%]\tits third stay moved to 70 %\n");
        git.commit(FILE, null, "waiver for the report after");
        append("B17[cut@10%]\tnot committed yet\n");

        List<Waivers.Waiver> waivers = Waivers.read(repo, FILE);

        assertThat(waivers).extracting(Waivers.Waiver::id).containsExactly("G11[three-decimals]", "B12[join and leave @55%]", "B17[cut@10%]");
        assertThat(waivers.get(0).commit()).isEqualTo(first);
        assertThat(waivers.get(2).commit()).as("a line not committed").isNull();
        assertThat(waivers.get(0).line()).isEqualTo("G11[three-decimals] (added in " + first.substring(0, 7)
                + ": no longer a bad record since B15)");
        assertThat(Waivers.reportChange(repo, REPORT, 0)).isEqualTo(report2);
        assertThat(Waivers.newerThan(waivers, repo, Waivers.reportChange(repo, REPORT, 0))).as("the gate against report 2")
                .extracting(Waivers.Waiver::id).containsExactly("B12[join and leave @55%]", "B17[cut@10%]");
        assertThat(Waivers.newerThan(waivers, repo, Waivers.reportChange(repo, REPORT, 1))).as("report 2 against report 1")
                .extracting(Waivers.Waiver::id).containsExactly("G11[three-decimals]", "B12[join and leave @55%]", "B17[cut@10%]");

        git.commit(REPORT, "{\"n\":3}", "report 3");
        List<Waivers.Waiver> after = Waivers.newerThan(waivers, repo, Waivers.reportChange(repo, REPORT, 1));
        assertThat(after).as("report 3 against report 2: the first waiver served report 2 and has lapsed")
                .extracting(Waivers.Waiver::id).containsExactly("B12[join and leave @55%]", "B17[cut@10%]");
    }

    @Test
    void aLineOfTheRootCommitIsDatedByItAndALineWaivedTwiceIsRefused() throws Exception {
        ScratchRepo git = ScratchRepo.init(repo);
        Files.createDirectories(repo.resolve("reports"));
        append("G1\ta reason\n");
        String root = git.commit(FILE, null, "root: the waiver");
        git.commit(REPORT, "{}", "report");

        List<Waivers.Waiver> waivers = Waivers.read(repo, FILE);

        assertThat(waivers).extracting(Waivers.Waiver::commit).as("git blame marks the root's lines ^ and 39 digits").containsExactly(root);
        assertThat(Waivers.newerThan(waivers, repo, Waivers.reportChange(repo, REPORT, 0))).isEmpty();
        append("G1\tanother reason\n");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Waivers.read(repo, FILE)).hasMessageContaining("G1 is waived twice");
    }

    @Test
    void withoutGitEveryWaiverIsUndatedAndInForce() throws Exception {
        Files.createDirectories(repo.resolve("reports"));
        append("G1\ta reason\n");
        List<Waivers.Waiver> waivers = Waivers.read(repo.resolve("reports").getParent(), FILE);
        assertThat(waivers).extracting(Waivers.Waiver::commit).containsExactly((String) null);
        assertThat(Waivers.reportChange(repo, REPORT, 0)).isNull();
        assertThat(Waivers.newerThan(waivers, repo, null)).hasSize(1);
    }

    private void append(String line) throws Exception {
        Path file = repo.resolve(FILE);
        Files.writeString(file, (Files.exists(file) ? Files.readString(file) : "# entries given up\n") + line);
    }
}
