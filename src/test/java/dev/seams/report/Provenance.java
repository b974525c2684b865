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
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * What a report was produced from (CLAIMS.md "Evidence and the report"; issue "Every verdict
 * earned" §4): a SHA-256 of the files of {@code src/}, {@code containers/} and {@code pom.xml} —
 * every file under them except build output (any {@code target/} directory), hashed as its path
 * relative to the project root and its bytes, in path order — plus the git commit the tree was based
 * on and whether those paths had uncommitted changes. Two trees with the same files have the same
 * hash whether or not they are committed, so {@code CommittedReportTest} can tell whether the
 * committed report is the evidence of the code beside it.
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
        String commit = git(root, "rev-parse", "HEAD");
        String status = git(root, "status", "--porcelain", "--", "src", "containers", "pom.xml");
        return new Provenance(HexFormat.of().formatHex(all.digest()), hashes, commit,
                !status.isEmpty() && !status.startsWith("unknown:"));
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

    private static String git(Path root, String... args) {
        try {
            Process p = new ProcessBuilder(Stream.concat(Stream.of("git", "-C", root.toString()), Stream.of(args)).toList())
                    .redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
                return "unknown: git " + String.join(" ", args) + " failed: " + out;
            }
            return out;
        } catch (IOException e) {
            return "unknown: " + e.getMessage();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "unknown: interrupted";
        }
    }
}
