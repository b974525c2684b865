package dev.seams.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;
import org.apache.kafka.common.utils.AppInfoParser;
import picocli.CommandLine.IVersionProvider;

/**
 * What {@code seams --version} prints: this build's version (Maven's {@code project.version}, written into
 * {@code dev/seams/cli/version.properties} when the build filters its resources), the Kafka client library it runs
 * with (read from the library itself, as a user's upgrade would change it) and the JVM.
 */
public final class BuildVersion implements IVersionProvider {

    private static final String RESOURCE = "version.properties";

    /**
     * @return three lines: {@code seams <version> (commit <commit>)}, {@code Kafka clients <version>}, {@code Java
     *     <version> (<vendor>)}
     * @throws UncheckedIOException if the build's version file cannot be read
     */
    @Override
    public String[] getVersion() {
        return new String[] {"seams " + version() + " (commit " + commit() + ")", "Kafka clients " + AppInfoParser.getVersion(),
            "Java " + Runtime.version() + " (" + System.getProperty("java.vendor") + ")"};
    }

    /**
     * @return this build's version, e.g. {@code 0.1.0-SNAPSHOT}; {@code unknown} when the resources were not filtered
     *     (a build that did not go through Maven's resources phase)
     * @throws UncheckedIOException if the version file cannot be read
     */
    public static String version() {
        return property("version");
    }

    /**
     * @return the commit this build was made from, abbreviated, e.g. {@code 6028c0d}, followed by {@code , uncommitted
     *     changes} when its tree had some; {@code unknown} when built outside a git checkout
     * @throws UncheckedIOException if the version file cannot be read
     */
    public static String commit() {
        String commit = property("commit");
        return "true".equals(property("dirty")) && !"unknown".equals(commit) ? commit + ", uncommitted changes" : commit;
    }

    private static String property(String name) {
        Properties properties = new Properties();
        try (InputStream in = BuildVersion.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                return "unknown";
            }
            properties.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + RESOURCE, e);
        }
        String value = properties.getProperty(name, "unknown");
        return value.isBlank() || value.startsWith("${") ? "unknown" : value;
    }
}
