package dev.seams.report;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Verifies a committed report's provenance (docs/claims.md "Evidence and the report"; docs/gate.md "Where the
 * committed report comes from"): the report names the commit it was produced from and the hashes of that commit's {@code src/},
 * {@code containers/} and {@code pom.xml} ({@link Provenance}). It is accepted when
 * <ol>
 *   <li>it was produced from a clean tree ({@code dirty} false),</li>
 *   <li>the commit it names is HEAD or an ancestor of HEAD ({@code git merge-base --is-ancestor}), and</li>
 *   <li>the hashes it records equal the hashes of that commit's tree as git holds it — exported with
 *       {@code git archive} into a temporary folder and hashed there, never taken from the report.</li>
 * </ol>
 * A report may so come from an earlier commit of the branch: landings in between carry it, and CI re-runs the
 * tiers on every landing with it as the gate's baseline. {@link Behind} says how far behind HEAD it is.
 */
public final class ReportProvenance {

    private ReportProvenance() {
    }

    /** A report whose provenance does not hold; the message says which rule failed and what to do. */
    public static final class RejectedException extends RuntimeException {

        RejectedException(String message) {
            super(message);
        }
    }

    /**
     * How far a verified report is behind HEAD.
     *
     * @param report  the report's name, e.g. {@code reports/guarantees.json}
     * @param commit  the commit it was produced from
     * @param commits the number of commits from it to HEAD (0: produced from HEAD)
     * @param paths   the files under {@code src/}, {@code containers/}, {@code pom.xml} that differ between it and HEAD
     */
    public record Behind(String report, String commit, int commits, List<String> paths) {

        /** How many of the paths {@link #line()} names. */
        static final int SHOWN = 8;

        /** @return one line for CI's log, e.g. {@code reports/guarantees.json produced from 1a2b3c4d5e6f, 2 commits and 3 paths behind HEAD: …} */
        public String line() {
            String shortCommit = commit.substring(0, Math.min(12, commit.length()));
            if (commits == 0) {
                return report + " produced from " + shortCommit + " = HEAD";
            }
            return report + " produced from " + shortCommit + ", " + commits + " commit" + (commits == 1 ? "" : "s")
                    + " and " + paths.size() + " path" + (paths.size() == 1 ? "" : "s") + " of src/, containers/, pom.xml behind HEAD"
                    + (paths.isEmpty() ? "" : ": " + String.join(", ", paths.subList(0, Math.min(SHOWN, paths.size())))
                    + (paths.size() > SHOWN ? " and " + (paths.size() - SHOWN) + " more" : ""));
        }
    }

    /**
     * @param repo   the project root, inside a git work tree
     * @param report the report's name, for messages
     * @param source the report's {@code source} object ({@link Provenance#toJson()})
     * @return how far the report is behind HEAD
     * @throws RejectedException if the report names no commit, was produced from a dirty tree, names a commit that is
     *                           not HEAD or an ancestor of it, or records hashes that differ from that commit's tree
     * @throws UncheckedIOException if the temporary folder cannot be written
     */
    public static Behind verify(Path repo, String report, Map<String, Object> source) {
        Object commitValue = source.get("commit");
        String commit = commitValue == null ? "" : String.valueOf(commitValue);
        if (!commit.matches("[0-9a-f]{40}")) {
            throw new RejectedException(report + " names no commit it was produced from (source.commit = " + commitValue
                    + "): regenerate it from a commit of this branch");
        }
        if (!Boolean.FALSE.equals(source.get("dirty"))) {
            throw new RejectedException(report + " was produced from a tree with uncommitted changes to src/, containers/ or "
                    + "pom.xml (source.dirty = " + source.get("dirty") + ", based on " + commit + "): commit the code first, "
                    + "then regenerate the report from that commit");
        }
        if (!Git.run(repo, "cat-file", "-e", commit + "^{commit}").ok()) {
            throw new RejectedException(report + " was produced from commit " + commit + ", which is not in this repository: "
                    + "regenerate it from a commit of this branch");
        }
        Git.Result ancestor = Git.run(repo, "merge-base", "--is-ancestor", commit, "HEAD");
        if (!ancestor.ok()) {
            throw new RejectedException(report + " was produced from commit " + commit + ", which is not HEAD or an ancestor "
                    + "of HEAD (a commit outside this branch's history" + (ancestor.output().isEmpty() ? "" : ": " + ancestor.output())
                    + "): regenerate it from a commit of this branch");
        }
        Provenance committed = hashCommit(repo, commit);
        Object recorded = source.get("hashes");
        if (!committed.hashes().equals(recorded)) {
            throw new RejectedException(report + " records hashes " + recorded + " for commit " + commit + ", but that commit's "
                    + "tree hashes to " + committed.hashes() + ": it was not produced from that commit as committed; "
                    + "regenerate it from a clean checkout");
        }
        int commits = Integer.parseInt(require(repo, "rev-list", "--count", commit + "..HEAD").output());
        String diff = require(repo, "diff", "--name-only", commit, "HEAD", "--", "src", "containers", "pom.xml").output();
        List<String> paths = diff.isEmpty() ? List.of() : Arrays.asList(diff.split("\n"));
        return new Behind(report, commit, commits, paths);
    }

    /** @return the hashes of {@code commit}'s src/, containers/ and pom.xml, exported by git archive into a temporary folder */
    static Provenance hashCommit(Path repo, String commit) {
        List<String> present = new ArrayList<>();
        for (String line : require(repo, "ls-tree", "--name-only", commit).output().split("\n")) {
            if (Provenance.PATHS.contains(line)) {
                present.add(line);
            }
        }
        Path tmp = null;
        try {
            tmp = Files.createTempDirectory("seams-provenance-");
            if (!present.isEmpty()) {
                Path tar = tmp.resolve("tree.tar");
                List<String> archive = new ArrayList<>(List.of("archive", "--format=tar", "-o", tar.toString(), commit, "--"));
                archive.addAll(present);
                require(repo, archive.toArray(String[]::new));
                Path tree = Files.createDirectory(tmp.resolve("tree"));
                untar(tar, tree);
                return Provenance.ofFiles(tree);
            }
            return Provenance.ofFiles(tmp);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot export commit " + commit + " into a temporary folder", e);
        } finally {
            delete(tmp);
        }
    }

    private static void untar(Path tar, Path into) throws IOException {
        try {
            Process p = new ProcessBuilder("tar", "-xf", tar.toString(), "-C", into.toString()).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes());
            if (p.waitFor() != 0) {
                throw new IOException("tar -xf " + tar + " failed: " + out);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while extracting " + tar, e);
        }
    }

    private static Git.Result require(Path repo, String... args) {
        Git.Result r = Git.run(repo, args);
        if (!r.ok()) {
            throw new IllegalStateException("git " + String.join(" ", args) + " failed (" + r.status() + "): " + r.output());
        }
        return r;
    }

    private static void delete(Path dir) {
        if (dir == null) {
            return;
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // a temporary folder left behind is harmless
        }
    }
}
