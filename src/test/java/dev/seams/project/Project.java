package dev.seams.project;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** Locates the project's root directory (where {@code containers/} and {@code reports/} live), and empties its build folders. */
public final class Project {

    private Project() {
    }

    /** @return {@code -Dseams.root} if set (failsafe sets it), else the nearest parent holding pom.xml */
    public static Path root() {
        String configured = System.getProperty("seams.root");
        if (configured != null) {
            return Path.of(configured);
        }
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null && !Files.exists(dir.resolve("pom.xml"))) {
            dir = dir.getParent();
        }
        if (dir == null) {
            throw new IllegalStateException("cannot find the project root (no pom.xml above " + Path.of("").toAbsolutePath() + ")");
        }
        return dir;
    }

    /**
     * Removes a directory and everything below it; nothing if it does not exist.
     *
     * @param dir the directory (e.g. ds-streams' state under {@code target/}, a mutant's copy of the tree)
     * @throws UncheckedIOException if something below it cannot be deleted
     */
    public static void deleteTree(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + dir, e);
        }
    }
}
