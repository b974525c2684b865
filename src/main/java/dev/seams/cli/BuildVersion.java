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
     * @return three lines: {@code seams <version>}, {@code Kafka clients <version>}, {@code Java <version> (<vendor>)}
     * @throws UncheckedIOException if the build's version file cannot be read
     */
    @Override
    public String[] getVersion() {
        return new String[] {"seams " + version(), "Kafka clients " + AppInfoParser.getVersion(),
            "Java " + Runtime.version() + " (" + System.getProperty("java.vendor") + ")"};
    }

    /**
     * @return this build's version, e.g. {@code 0.1.0-SNAPSHOT}; {@code unknown} when the resources were not filtered
     *     (a build that did not go through Maven's resources phase)
     * @throws UncheckedIOException if the version file cannot be read
     */
    public static String version() {
        Properties properties = new Properties();
        try (InputStream in = BuildVersion.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                return "unknown";
            }
            properties.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + RESOURCE, e);
        }
        String version = properties.getProperty("version", "unknown");
        return version.startsWith("${") ? "unknown" : version;
    }
}
