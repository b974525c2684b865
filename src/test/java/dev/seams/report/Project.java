package dev.seams.report;

import java.nio.file.Files;
import java.nio.file.Path;

/** Locates the project's root directory (where {@code containers/} and {@code reports/} live). */
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
}
