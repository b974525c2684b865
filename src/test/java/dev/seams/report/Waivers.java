package dev.seams.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The entries given up, {@value Gate#WAIVERS} (docs/gate.md "The regression gate"): lines {@code <entry id><TAB><reason>},
 * each dated by the commit that added it ({@code git blame}). A waiver serves one change of the committed report: it is
 * in force for the gate ({@link Gate#configured}) while it is newer than the commit that last changed the committed
 * report, and for that change's own check ({@code CommittedReportTest}) while it is newer than the change before it.
 * Older, it has lapsed: the report it served was regenerated and no longer holds the entry, so the line is deleted, or
 * committed again with a new reason (which dates it anew).
 */
final class Waivers {

    /**
     * A blame line: the commit (a boundary commit — the root, or the last of a shallow clone — is {@code ^} and 39
     * digits), the line number, the line.
     */
    private static final Pattern BLAME = Pattern.compile("^(\\^[0-9a-f]{39}|[0-9a-f]{40}) +\\d+\\) (.*)$");
    private static final String UNCOMMITTED = "0".repeat(40);

    private Waivers() {
    }

    /**
     * One waiver.
     *
     * @param id     the entry given up
     * @param reason why
     * @param commit the commit that added the line, or null while it is not committed
     */
    record Waiver(String id, String reason, String commit) {

        /** @return e.g. {@code G11[three-decimals] (added in abfdc7e: no longer a bad record since B15)} */
        String line() {
            return id + " (" + (commit == null ? "not committed yet" : "added in " + commit.substring(0, 7)) + ": " + reason + ")";
        }

        Map<String, Object> toJson() {
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("id", id);
            json.put("reason", reason);
            json.put("commit", commit);
            return json;
        }
    }

    /**
     * Reads the waivers without dating them: lines {@code <entry id><TAB><reason>}, {@code #} comments.
     *
     * @param file e.g. the project's {@value Gate#WAIVERS}
     * @return entry id → reason, in the file's order; empty if there is no file
     * @throws IllegalStateException for a line without its reason
     * @throws IOException           if the file cannot be read
     */
    static Map<String, String> parse(Path file) throws IOException {
        Map<String, String> waivers = new LinkedHashMap<>();
        for (String[] cols : rows(file, 2, "a waiver names the entry and its reason")) {
            if (waivers.put(cols[0], cols[1]) != null) {
                throw new IllegalStateException(file + ": " + cols[0] + " is waived twice: one line an entry");
            }
        }
        return waivers;
    }

    /** The rows of a committed tab-separated file, every one of {@code columns} non-blank; none if there is no file. */
    static List<String[]> rows(Path file, int columns, String rule) throws IOException {
        List<String[]> rows = new ArrayList<>();
        if (!Files.exists(file)) {
            return rows;
        }
        for (String line : Files.readAllLines(file)) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            String[] cols = line.split("\t", columns);
            if (cols.length != columns || Arrays.stream(cols).anyMatch(String::isBlank)) {
                throw new IllegalStateException(file + ": " + rule + ": " + line);
            }
            rows.add(Arrays.stream(cols).map(String::strip).toArray(String[]::new));
        }
        return rows;
    }

    /**
     * Reads and dates the waivers of a work tree.
     *
     * @param root the work tree (a git checkout)
     * @param path the waivers file in it, e.g. {@value Gate#WAIVERS}
     * @return the waivers in the file's order, each with the commit that added its line (null: not committed, or no git
     *     work tree to ask)
     * @throws IllegalStateException when git holds the file and cannot say which commit added a line
     * @throws IOException           if the file cannot be read
     */
    static List<Waiver> read(Path root, String path) throws IOException {
        Map<String, String> parsed = parse(root.resolve(path));
        if (parsed.isEmpty()) {
            return List.of();
        }
        Map<String, String> addedIn = new HashMap<>();   // entry id → commit
        Git.Result blame = Git.run(root, "-c", "blame.ignoreRevsFile=", "-c", "blame.markIgnoredLines=false",
                "-c", "blame.markUnblamableLines=false", "blame", "-l", "-s", "--", path);
        if (blame.ok()) {
            for (String line : blame.output().lines().toList()) {
                Matcher m = BLAME.matcher(line);
                if (!m.matches()) {   // never taken for a line not committed yet: that one is in force
                    throw new IllegalStateException("cannot date a line of " + path + " (git blame: " + line + ")");
                }
                if (!m.group(2).isBlank() && !m.group(2).startsWith("#")) {
                    addedIn.put(m.group(2).split("\t", 2)[0].strip(), commit(root, m.group(1)));
                }
            }
        } else if (tracked(root, path)) {
            throw new IllegalStateException("cannot date the waivers of " + path + " (git blame: " + blame.output() + ")");
        }
        List<Waiver> waivers = new ArrayList<>();
        parsed.forEach((id, reason) -> waivers.add(new Waiver(id, reason, addedIn.get(id))));
        return waivers;
    }

    /** @return the full commit of a blame line's, null for a line not committed */
    private static String commit(Path root, String blamed) {
        if (UNCOMMITTED.equals(blamed)) {
            return null;
        }
        if (!blamed.startsWith("^")) {
            return blamed;
        }
        Git.Result full = Git.run(root, "rev-parse", "--verify", blamed.substring(1) + "^{commit}");
        if (!full.ok()) {
            throw new IllegalStateException("cannot resolve the boundary commit " + blamed + " of a waiver: " + full.output());
        }
        return full.output();
    }

    private static boolean tracked(Path root, String path) {
        Git.Result r = Git.run(root, "ls-files", "--", path);
        return r.ok() && !r.output().isEmpty();
    }

    /**
     * @param waivers dated waivers
     * @param root    the work tree
     * @param since   a commit, e.g. the one that last changed the committed report; null: none (every waiver is newer)
     * @return the waivers added after {@code since} (not it, not an ancestor of it), and those not committed yet
     */
    static List<Waiver> newerThan(List<Waiver> waivers, Path root, String since) {
        return waivers.stream().filter(w -> since == null || w.commit() == null
                || Git.run(root, "merge-base", "--is-ancestor", w.commit(), since).status() == 1).toList();
    }

    /**
     * @param root   the work tree
     * @param report a committed report, e.g. {@code reports/guarantees.json}
     * @param skip   0 for the commit that last changed it, 1 for the change before that one, …
     * @return that commit, or null when the report has no such change
     */
    static String reportChange(Path root, String report, int skip) {
        Git.Result r = Git.run(root, "log", "-n", "1", "--skip=" + skip, "--format=%H", "--", report);
        return r.ok() && !r.output().isEmpty() ? r.output() : null;
    }

    /** @return entry id → reason of {@code waivers}, in their order */
    static Map<String, String> byId(List<Waiver> waivers) {
        Map<String, String> byId = new LinkedHashMap<>();
        waivers.forEach(w -> byId.put(w.id(), w.reason()));
        return byId;
    }
}
