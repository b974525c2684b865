package dev.seams.report;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The reports committed beside a claims report — the mutation tier's, the benchmarks', the candidate profile's, the
 * other sinks' (docs/gate.md "Where the committed report comes from") — and how old each is against it: the index lists every one with the
 * commit it was produced from and its distance from this report's source, and marks on the overall line each one whose
 * covered paths ({@code src/}, {@code containers/}, {@code pom.xml}) differ: stale, visible, never blocking.
 */
final class SubReports {

    /** The sub-reports a reports folder may hold, relative to it, besides {@code sinks/<sink>/guarantees.json}. */
    static final List<String> FILES = List.of("mutants.json", "performance.json", "candidate/guarantees.json");

    private SubReports() {
    }

    /**
     * One report beside this one.
     *
     * @param name    its Markdown, relative to the reports folder, e.g. {@code candidate/guarantees.md}
     * @param commit  the commit it was produced from (may be unknown: {@code ?})
     * @param stale   whether its covered paths differ from this report's source (its content hash differs)
     * @param commits commits between its commit and this report's: positive behind, negative after it; null: unknown
     * @param paths   covered paths that differ between the two commits; -1 unknown
     */
    record SubReport(String name, String commit, boolean stale, Integer commits, int paths) {

        /** @return e.g. {@code `candidate/guarantees.md` (fa93a29)}: how the index names it */
        String label() {
            return "`" + name + "` (" + (commit.length() > 7 ? commit.substring(0, 7) : commit) + ")";
        }

        /** @return e.g. {@code candidate/guarantees.md (fa93a29): 57 commits and 159 paths behind this report's source — stale} */
        String line() {
            String distance;
            if (commits == null) {
                distance = "its commit is not in this history";
            } else if (commits == 0) {
                distance = "this report's own commit";
            } else {
                int n = Math.abs(commits);
                distance = n + " commit" + (n == 1 ? "" : "s") + (paths < 0 ? "" : " and " + paths + " path" + (paths == 1 ? "" : "s")
                        + " of src/, containers/, pom.xml") + (commits > 0 ? " behind" : " after") + " this report's source";
            }
            return label() + ": " + distance
                    + (stale ? " — **stale**" : ", same src/, containers/, pom.xml");
        }
    }

    /**
     * @param dir    a reports folder
     * @param here   this report's {@code source} ({@link Provenance#toJson()})
     * @param repo   the git work tree, to count the distance (any folder: unknown distances where it is none)
     * @return the sub-reports found in {@code dir}, in {@link #FILES} order then the sinks' by name
     */
    static List<SubReport> of(Path dir, Map<String, Object> here, Path repo) {
        List<String> names = new ArrayList<>(FILES);
        Path sinks = dir.resolve("sinks");
        if (Files.isDirectory(sinks)) {
            try (Stream<Path> each = Files.list(sinks)) {
                each.filter(d -> Files.isRegularFile(d.resolve("guarantees.json"))).map(d -> "sinks/" + d.getFileName() + "/guarantees.json")
                        .sorted().forEach(names::add);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot list " + sinks, e);
            }
        }
        List<SubReport> found = new ArrayList<>();
        for (String name : names) {
            Path file = dir.resolve(name);
            if (Files.isRegularFile(file)) {
                @SuppressWarnings("unchecked")
                Map<String, Object> source = (Map<String, Object>) ReportWriter.read(file).getOrDefault("source", Map.of());
                found.add(of(name.replaceAll("\\.json$", ".md"), source, here, repo));
            }
        }
        return found;
    }

    /**
     * @param name  the sub-report's Markdown name
     * @param there its {@code source}
     * @param here  this report's {@code source}
     * @param repo  the git work tree
     * @return the sub-report and its distance
     */
    static SubReport of(String name, Map<String, Object> there, Map<String, Object> here, Path repo) {
        String commit = String.valueOf(there.getOrDefault("commit", "?"));
        String ours = String.valueOf(here.getOrDefault("commit", "?"));
        Object hash = there.get("content_hash");
        boolean stale = hash == null || !hash.equals(here.get("content_hash"));
        Integer commits = null;
        int paths = -1;
        if (Git.run(repo, "merge-base", "--is-ancestor", commit, ours).ok()) {
            commits = count(repo, commit + ".." + ours);
        } else if (Git.run(repo, "merge-base", "--is-ancestor", ours, commit).ok()) {
            commits = count(repo, ours + ".." + commit);
            commits = commits == null ? null : -commits;
        }
        if (commits != null) {
            Git.Result diff = Git.run(repo, "diff", "--name-only", commit, ours, "--", "src", "containers", "pom.xml");
            paths = !diff.ok() ? -1 : diff.output().isEmpty() ? 0 : diff.output().split("\n").length;
        }
        return new SubReport(name, commit, stale, commits, paths);
    }

    private static Integer count(Path repo, String range) {
        Git.Result r = Git.run(repo, "rev-list", "--count", range);
        return r.ok() ? Integer.valueOf(r.output()) : null;
    }
}
