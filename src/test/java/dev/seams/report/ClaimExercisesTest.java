package dev.seams.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seams.project.Project;
import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every {@link Claim#exercises()} entry names code or a file that exists: a class relative to
 * {@code src/main/java/dev/seams} ({@code sink/Sink}), a harness class relative to {@code src/test/java/dev/seams}
 * (the version gate, a fault the product's users run too), or a project file ({@code containers/clickhouse/001-tables.sql}).
 * The report lists them as the code a claim covers, so a class moved to another package must not leave its claim
 * pointing at nothing.
 */
class ClaimExercisesTest {

    private static final String CLAIMS_PACKAGE = "dev.seams.it";

    @Test
    void everyExercisedClassOrFileExists() throws Exception {
        List<String> missing = new ArrayList<>();
        int declared = 0;
        for (Method method : claimMethods()) {
            for (String exercised : method.getAnnotation(Claim.class).exercises()) {
                declared++;
                if (!exists(exercised)) {
                    missing.add(method.getDeclaringClass().getSimpleName() + "#" + method.getName() + ": " + exercised);
                }
            }
        }
        assertThat(declared).as("exercises declared by the claims of " + CLAIMS_PACKAGE).isPositive();
        assertThat(missing).as("exercises naming no class of src/main/java/dev/seams or src/test/java/dev/seams and no project file").isEmpty();
    }

    private static boolean exists(String exercised) {
        Path root = Project.root();
        return Files.isRegularFile(root.resolve("src/main/java/dev/seams/" + exercised + ".java"))
                || Files.isRegularFile(root.resolve("src/test/java/dev/seams/" + exercised + ".java"))
                || Files.isRegularFile(root.resolve(exercised));
    }

    private static List<Method> claimMethods() throws IOException, ClassNotFoundException {
        Path dir = Project.root().resolve("src/test/java/" + CLAIMS_PACKAGE.replace('.', '/'));
        List<Method> methods = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).sorted().toList()) {
                String name = file.getFileName().toString().replace(".java", "");
                Class<?> type = Class.forName(CLAIMS_PACKAGE + "." + name, false, ClaimExercisesTest.class.getClassLoader());
                for (Method m : type.getDeclaredMethods()) {
                    if (m.isAnnotationPresent(Claim.class)) {
                        methods.add(m);
                    }
                }
            }
        }
        return methods;
    }
}
