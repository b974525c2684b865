package dev.seams.stand;

import dev.seams.project.Project;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The classpath of the project's main code and nothing else: {@code target/classes} plus the jars of
 * compile and runtime scope, as Maven resolved them for this build. {@code maven-dependency-plugin}
 * ({@code build-classpath}, phase {@code generate-test-resources}, see pom.xml) writes the jars to
 * {@code target/runtime-classpath.txt}; the test JVM's own {@code java.class.path} cannot tell a
 * main-scope jar from a test one. {@link JvmContainer} mounts these paths read-only at the same
 * absolute paths, so the same string works inside the container (claim B5: the project's processes
 * as fault targets; G13/G14: ds-streams killed and restarted).
 */
public final class RuntimeClasspath {

    /** Where Maven writes the jar list, relative to the project root. */
    public static final String FILE = "target/runtime-classpath.txt";

    private RuntimeClasspath() {
    }

    /**
     * @return {@code target/classes} first, then every main-scope jar, absolute paths
     * @throws IllegalStateException if {@value #FILE} or {@code target/classes} is missing (the build
     *     did not run through {@code generate-test-resources}/{@code compile}) or lists a path that does
     *     not exist
     */
    public static List<Path> entries() {
        Path root = Project.root();
        Path file = root.resolve(FILE);
        Path classes = root.resolve("target/classes");
        if (!Files.isRegularFile(file) || !Files.isDirectory(classes)) {
            throw new IllegalStateException(FILE + " or target/classes missing: run the tests through Maven "
                    + "(mvn verify), which writes them before the tests run");
        }
        String line;
        try {
            line = Files.readString(file).strip();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
        List<Path> entries = new ArrayList<>();
        entries.add(classes);
        Arrays.stream(line.split(File.pathSeparator)).filter(s -> !s.isBlank()).map(Path::of).forEach(entries::add);
        entries.stream().filter(p -> !Files.exists(p)).findFirst().ifPresent(p -> {
            throw new IllegalStateException(FILE + " lists " + p + ", which does not exist");
        });
        return List.copyOf(entries);
    }
}
