package dev.seams.stand;

import dev.seams.project.Project;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.testcontainers.utility.DockerImageName;

/**
 * The image set of one profile, from {@code containers/images.properties} (claim B7).
 * The profile is {@code -Dseams.profile=current|candidate|offline|offline-candidate}; nothing else
 * in the tests knows which profile runs.
 */
public final class Images {

    /** The services of a profile, in the order of {@code containers/images.properties}. */
    public static final List<String> SERVICES = List.of("postgres", "kafka", "connect", "clickhouse");

    private final String profile;
    private final Properties properties;

    private Images(String profile, Properties properties) {
        this.profile = profile;
        this.properties = properties;
    }

    /**
     * @return the images of the profile named by {@code seams.profile} (default {@code current})
     * @throws IllegalStateException if the file or the profile's entries are missing
     */
    public static Images fromSystemProperties() {
        String profile = System.getProperty("seams.profile", "current");
        Path file = Project.root().resolve("containers/images.properties");
        Properties properties = new Properties();
        try (InputStream in = Files.newInputStream(file)) {
            properties.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
        return new Images(profile, properties);
    }

    /** @return the profile's name */
    public String profile() {
        return profile;
    }

    /**
     * @return service → the profile's image reference for it, e.g. {@code kafka → stand/kafka:4.1.1-offline}
     *     (what {@link DeclaredVersions#of(Map)} inspects for claim B7)
     */
    public Map<String, String> references() {
        Map<String, String> references = new LinkedHashMap<>();
        SERVICES.forEach(service -> references.put(service, image(service).asCanonicalNameString()));
        return references;
    }

    /**
     * @param service one of postgres, kafka, connect, clickhouse, jre (the JRE of the project's own processes)
     * @return the profile's image, declared a compatible substitute of the official one
     */
    public DockerImageName image(String service) {
        String name = properties.getProperty(profile + "." + service);
        String official = properties.getProperty("official." + service);
        if (name == null || official == null) {
            throw new IllegalStateException("containers/images.properties has no " + profile + "." + service
                    + " or official." + service);
        }
        return DockerImageName.parse(name).asCompatibleSubstituteFor(official);
    }
}
