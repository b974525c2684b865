package dev.seams.report;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * What a report was produced from (docs/claims.md "Evidence and the report"): a SHA-256 of the files of
 * {@code src/}, {@code containers/} and {@code pom.xml} — every file under them except build output (any {@code target/} directory), hashed as its path
 * relative to the project root and its bytes, in path order — plus the git commit the tree was based
 * on and whether those paths had uncommitted changes. Two trees with the same files have the same
 * hash whether or not they are committed, so {@link ReportProvenance} can tell whether a committed
 * report is the evidence of the commit it names, by hashing that commit's tree as git holds it.
 *
 * @param contentHash the hash of all three, hex
 * @param hashes      path ({@code src}, {@code containers}, {@code pom.xml}) → its own hash, hex
 * @param commit      {@code git rev-parse HEAD}, or {@code unknown: <reason>}
 * @param dirty       whether {@code git status --porcelain -- src containers pom.xml} listed anything
 */
public record Provenance(String contentHash, Map<String, String> hashes, String commit, boolean dirty) {

    /** The paths the hash covers, relative to the project root. */
    public static final List<String> PATHS = List.of("src", "containers", "pom.xml");

    /**
     * @param root the project root
     * @return the provenance of the tree as it is now on disk
     * @throws UncheckedIOException if a file cannot be read
     */
    public static Provenance of(Path root) {
        Provenance files = ofFiles(root);
        Git.Result head = Git.run(root, "rev-parse", "HEAD");
        Git.Result status = Git.run(root, "status", "--porcelain", "--", "src", "containers", "pom.xml");
        return new Provenance(files.contentHash(), files.hashes(),
                head.ok() ? head.output() : "unknown: git rev-parse HEAD failed: " + head.output(),
                status.ok() && !status.output().isEmpty());
    }

    /**
     * The hashes of the files under {@code root} alone, without asking git: what {@link ReportProvenance} computes
     * for a commit's tree exported into a temporary folder.
     *
     * @param root a folder holding (some of) {@link #PATHS}
     * @return the hashes, with commit {@code none} and not dirty
     * @throws UncheckedIOException if a file cannot be read
     */
    static Provenance ofFiles(Path root) {
        MessageDigest all = sha256();
        Map<String, String> hashes = new LinkedHashMap<>();
        for (String path : PATHS) {
            MessageDigest one = sha256();
            for (Path file : files(root.resolve(path))) {
                byte[] name = root.relativize(file).toString().replace('\\', '/').getBytes(StandardCharsets.UTF_8);
                byte[] bytes = read(file);
                for (MessageDigest d : List.of(one, all)) {
                    d.update(name);
                    d.update((byte) 0);
                    d.update(Long.toString(bytes.length).getBytes(StandardCharsets.UTF_8));
                    d.update((byte) 0);
                    d.update(bytes);
                }
            }
            hashes.put(path, HexFormat.of().formatHex(one.digest()));
        }
        return new Provenance(HexFormat.of().formatHex(all.digest()), hashes, "none", false);
    }

    /** @return the provenance as the report's {@code source} object */
    public Map<String, Object> toJson() {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("content_hash", contentHash);
        json.put("hashes", hashes);
        json.put("commit", commit);
        json.put("dirty", dirty);
        return json;
    }

    private static List<Path> files(Path top) {
        if (Files.isRegularFile(top)) {
            return List.of(top);
        }
        if (!Files.isDirectory(top)) {
            return List.of();
        }
        try (Stream<Path> walk = Files.walk(top)) {
            return walk.filter(Files::isRegularFile)
                    .filter(p -> !top.relativize(p).toString().replace('\\', '/').matches("(.*/)?target/.*"))
                    .sorted()
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static byte[] read(Path file) {
        try {
            return Files.readAllBytes(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
