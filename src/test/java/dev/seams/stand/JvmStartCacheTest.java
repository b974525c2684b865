package dev.seams.stand;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testcontainers.utility.DockerImageName;

/** The start cache of a JVM container: classes packed once per content, the class-data archive written, then used. */
class JvmStartCacheTest {

    private static final DockerImageName JRE = DockerImageName.parse("stand/base:bookworm");

    @TempDir
    Path tmp;

    @Test
    void classesArePackedOncePerContentSoTheJarsTimestampStays() throws IOException {
        Path classes = Files.createDirectories(tmp.resolve("classes/dev/seams"));
        Files.writeString(classes.resolve("A.class"), "a");
        Path cacheDir = tmp.resolve("cache");

        Path jar = JvmStartCache.of("streams", JRE, List.of(tmp.resolve("classes")), cacheDir).classpath().get(0);
        Files.setLastModifiedTime(jar, FileTime.fromMillis(0));
        Path again = JvmStartCache.of("streams", JRE, List.of(tmp.resolve("classes")), cacheDir).classpath().get(0);

        assertThat(again).isEqualTo(jar);
        assertThat(Files.getLastModifiedTime(again).toMillis()).as("not written again").isZero();
        try (JarFile file = new JarFile(jar.toFile())) {
            assertThat(file.getEntry("dev/seams/A.class")).isNotNull();
        }
        Files.writeString(classes.resolve("A.class"), "changed");
        assertThat(JvmStartCache.of("streams", JRE, List.of(tmp.resolve("classes")), cacheDir).classpath().get(0))
                .as("new content, new jar (and so a new archive)").isNotEqualTo(jar);
    }

    @Test
    void theArchiveIsWrittenAtAGracefulExitAndUsedFromTheNextStart() throws IOException {
        JvmStartCache cache = JvmStartCache.of("streams", JRE, List.of(), tmp);
        String write = cache.jvmFlags(true).get(0);
        assertThat(write).startsWith("-XX:ArchiveClassesAtExit=").endsWith(".jsa.part");
        Path part = Path.of(write.substring(write.indexOf('=') + 1));

        Files.writeString(part, "cut short");
        cache.settle(JvmProcess.SIGKILL_EXIT);
        assertThat(part).doesNotExist();
        assertThat(cache.jvmFlags(true).get(0)).as("a killed JVM's archive is not used").startsWith("-XX:ArchiveClassesAtExit=");

        Files.writeString(part, "archive");
        cache.settle(143);
        assertThat(cache.jvmFlags(true).get(0)).isEqualTo("-XX:SharedArchiveFile=" + part.resolveSibling(
                part.getFileName().toString().replace(".part", "")));
    }

    @Test
    void aStartThatMayNotWriteUsesAnArchiveButWritesNone() throws IOException {
        JvmStartCache cache = JvmStartCache.of("streams", JRE, List.of(), tmp);
        assertThat(cache.jvmFlags(false)).as("beside a debugger agent: no archive yet, none written")
                .noneMatch(f -> f.startsWith("-XX:ArchiveClassesAtExit=") || f.startsWith("-XX:SharedArchiveFile="));
        String write = cache.jvmFlags(true).get(0);
        Files.writeString(Path.of(write.substring(write.indexOf('=') + 1)), "archive");
        cache.settle(143);
        assertThat(cache.jvmFlags(false).get(0)).as("an archive written before is used").startsWith("-XX:SharedArchiveFile=");
    }
}
