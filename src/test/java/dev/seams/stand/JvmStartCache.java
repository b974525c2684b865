package dev.seams.stand;

import dev.seams.project.Project;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import org.testcontainers.utility.DockerImageName;

/**
 * What a process of {@link JvmContainer} need not redo at every start: a process killed and started again
 * (claims G13, G14, B9, B5) spends its first seconds loading, parsing and verifying the same few thousand
 * classes (Kafka clients, Streams, RocksDB, Jackson) and, for Kafka Streams, unpacking RocksDB's 15 MB native
 * library from its jar to a temporary file.
 *
 * <ul>
 *   <li>Application class-data sharing (AppCDS, the JDK's dynamic archive, JDK 13+): the classes are mapped
 *       from an archive. Measured on the offline JRE 17 on an idle machine, {@code docker run} to Kafka
 *       Streams' {@code CREATED -> REBALANCING}: 2.2 s without, 1.6 s with; under B9's load 4.4-4.6 s
 *       without, 2.8-3.5 s with (B9's {@code process up} figure).</li>
 *   <li>The JDK archives classes from JAR files only: {@code target/classes} is packed into
 *       {@value #DIR}{@code /classes-<sha-256 of its content>.jar}, written once per content, so its
 *       timestamp, which the archive records and checks, stays the same across test JVMs.</li>
 *   <li>One archive per process name, image and classpath ({@value #DIR}{@code /<name>-<hash>.jsa}). While
 *       there is none, the JVM runs with {@code -XX:ArchiveClassesAtExit} and writes it when it ends
 *       gracefully (SIGTERM runs the JVM's exit, SIGKILL does not) to a {@code .part} file that
 *       {@link #settle(int)} publishes only after a graceful exit; afterwards it runs with
 *       {@code -XX:SharedArchiveFile}. An archive the JVM cannot use (another JDK, a changed jar) it ignores with a
 *       warning and runs without, as it would with no archive.</li>
 *   <li>Native libraries of the classpath's jars for this platform ({@code librocksdbjni-linux64.so}) are unpacked
 *       once into {@value #DIR}{@code /native-<hash>/} and put on {@code java.library.path}, where RocksDB's loader
 *       looks before it unpacks its own copy.</li>
 * </ul>
 */
public final class JvmStartCache {

    /** Where the classes jar and the archives go, relative to the project root; mounted read-write. */
    public static final String DIR = "target/stand-cds";

    /** This platform's suffix of RocksDB-style native libraries at a jar's root (containers run on the host's architecture). */
    private static final String NATIVE_SUFFIX = switch (System.getProperty("os.arch")) {
        case "amd64", "x86_64" -> "-linux64.so";
        case "aarch64" -> "-linux-aarch64.so";
        default -> null;
    };

    private final Path dir;
    private final Path archive;
    private final Path part;
    private final List<Path> classpath;
    private final Path nativeDir;

    private JvmStartCache(Path dir, Path archive, List<Path> classpath, Path nativeDir) {
        this.dir = dir;
        this.archive = archive;
        this.part = archive.resolveSibling(archive.getFileName() + ".part");
        this.classpath = List.copyOf(classpath);
        this.nativeDir = nativeDir;
    }

    /**
     * @param name    the process's name (one archive each: they load different classes)
     * @param image   the JRE image (an archive belongs to one JDK build)
     * @param entries the process's classpath ({@link RuntimeClasspath#entries()}): directories are packed into jars
     * @return the archive of this process, its classes directories replaced by jars
     * @throws UncheckedIOException if the jar cannot be written
     */
    public static JvmStartCache of(String name, DockerImageName image, List<Path> entries) {
        return of(name, image, entries, Project.root().resolve(DIR));
    }

    /** {@link #of(String, DockerImageName, List)} with the cache in {@code dir} (unit tests). */
    static JvmStartCache of(String name, DockerImageName image, List<Path> entries, Path dir) {
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + dir, e);
        }
        List<Path> classpath = new ArrayList<>();
        for (Path entry : entries) {
            classpath.add(Files.isDirectory(entry) ? packed(entry, dir) : entry);
        }
        String key = sha256(image.asCanonicalNameString() + "\n" + String.join("\n", classpath.stream().map(Path::toString).toList()));
        return new JvmStartCache(dir, dir.resolve(name + "-" + key.substring(0, 16) + ".jsa"), classpath,
                unpackedNativeLibraries(classpath, dir));
    }

    /** @return the classpath to run with: jars only */
    public List<Path> classpath() {
        return classpath;
    }

    /** @return the directory to mount read-write (the archive is written there) */
    public Path dir() {
        return dir;
    }

    /**
     * @param mayWrite whether the start may write the archive (not beside a JVMTI agent such as JDWP: the JDK
     *                 refuses to start, "CDS dumping does not support native JVMTI agent")
     * @return the JVM flags of the next start: use the archive if one was written, else write it at exit if allowed; the
     *     unpacked native libraries' directory as {@code java.library.path}
     */
    public List<String> jvmFlags(boolean mayWrite) {
        List<String> flags = new ArrayList<>();
        if (Files.isRegularFile(archive)) {
            flags.add("-XX:SharedArchiveFile=" + archive);
        } else if (mayWrite) {
            flags.add("-XX:ArchiveClassesAtExit=" + part);
        }
        if (nativeDir != null) {
            flags.add("-Djava.library.path=" + nativeDir);
        }
        return flags;
    }

    /**
     * After the process ended: publishes an archive it wrote at a graceful exit, drops one a kill may have cut short.
     *
     * @param exitCode the process's exit code (137: SIGKILL)
     */
    public void settle(int exitCode) {
        try {
            if (Files.isRegularFile(part) && exitCode != JvmProcess.SIGKILL_EXIT && !Files.exists(archive)) {
                Files.move(part, archive, StandardCopyOption.ATOMIC_MOVE);
            }
            Files.deleteIfExists(part);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot publish the class-data archive " + archive, e);
        }
    }

    /**
     * Unpacks the jars' root-level native libraries for this platform (e.g. {@code librocksdbjni-linux64.so}) into
     * {@code <dir>/native-<hash of the jars>/}, once.
     *
     * @return that directory, or null if no jar has one
     */
    private static Path unpackedNativeLibraries(List<Path> classpath, Path dir) {
        if (NATIVE_SUFFIX == null) {
            return null;
        }
        try {
            List<Path> jars = new ArrayList<>();
            for (Path jar : classpath) {
                if (Files.isRegularFile(jar) && jar.toString().endsWith(".jar")) {
                    try (JarFile file = new JarFile(jar.toFile())) {
                        if (file.stream().anyMatch(JvmStartCache::isNativeLibrary)) {
                            jars.add(jar);
                        }
                    }
                }
            }
            if (jars.isEmpty()) {
                return null;
            }
            Path target = dir.resolve("native-" + sha256(String.join("\n", jars.stream().map(Path::toString).toList())).substring(0, 16));
            if (!Files.isDirectory(target)) {
                Path tmp = Files.createTempDirectory(dir, "native-");
                for (Path jar : jars) {
                    try (JarFile file = new JarFile(jar.toFile())) {
                        for (JarEntry entry : file.stream().filter(JvmStartCache::isNativeLibrary).toList()) {
                            try (InputStream in = file.getInputStream(entry)) {
                                Files.copy(in, tmp.resolve(entry.getName()));
                            }
                        }
                    }
                }
                Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwxr-xr-x"));
                Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE);
            }
            return target;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot unpack the native libraries of " + classpath, e);
        }
    }

    private static boolean isNativeLibrary(JarEntry entry) {
        return !entry.getName().contains("/") && entry.getName().startsWith("lib") && entry.getName().endsWith(NATIVE_SUFFIX);
    }

    /** Packs a classes directory into a jar named by its content (written once per content). */
    private static Path packed(Path classes, Path dir) {
        try {
            List<Path> files;
            try (Stream<Path> walk = Files.walk(classes)) {
                files = walk.filter(Files::isRegularFile).sorted().toList();
            }
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            for (Path f : files) {
                digest.update(classes.relativize(f).toString().getBytes(StandardCharsets.UTF_8));
                digest.update(Files.readAllBytes(f));
            }
            Path jar = dir.resolve("classes-" + HexFormat.of().formatHex(digest.digest()).substring(0, 16) + ".jar");
            if (!Files.isRegularFile(jar)) {
                Path tmp = Files.createTempFile(dir, "classes-", ".jar.tmp");
                try (OutputStream out = Files.newOutputStream(tmp); JarOutputStream jarOut = new JarOutputStream(out)) {
                    for (Path f : files) {
                        jarOut.putNextEntry(new JarEntry(classes.relativize(f).toString().replace('\\', '/')));
                        Files.copy(f, jarOut);
                        jarOut.closeEntry();
                    }
                }
                Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rw-r--r--"));
                Files.move(tmp, jar, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            }
            return jar;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot pack " + classes + " into a jar", e);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String sha256(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
