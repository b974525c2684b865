package dev.seams.stand;

import com.github.dockerjava.api.model.ContainerConfig;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.testcontainers.DockerClientFactory;

/**
 * What a profile's images declare they contain (claim B7), one entry per component of
 * {@link ServerVersions#COMPONENTS}, each with where it was read:
 * <ol>
 *   <li>the image label {@code seams.version.<component>} (the offline substitutes:
 *       {@code containers/offline/prepare.sh} writes them from what it built);</li>
 *   <li>else the image's version tag, for the component the official image is named after
 *       ({@code postgres:17.6} → postgresql, {@code apache/kafka:4.3.1} → kafka,
 *       {@code quay.io/debezium/connect:3.6.1.Final} → debezium, {@code clickhouse-server:25.8.11.66});</li>
 *   <li>else, for Kafka Connect inside Debezium's image, its environment {@code KAFKA_VERSION};</li>
 *   <li>kafka_streams: the Maven property {@code kafka.version} of the run, which failsafe passes as
 *       {@code -Dseams.kafka.version} (the library ds-streams and the sinks are built with).</li>
 * </ol>
 * A component with none of these is declared as {@code null}: B7 reports it as undeclared.
 */
public final class DeclaredVersions {

    /** The label prefix the substitute images carry: {@code seams.version.kafka=4.1.1}. */
    public static final String LABEL_PREFIX = "seams.version.";
    /** The system property that carries the run's Kafka client/Streams version. */
    public static final String KAFKA_VERSION_PROPERTY = "seams.kafka.version";

    /**
     * Service of {@link Images#SERVICES} → the components its image contains; the first is the one
     * the official image is named after, which its version tag names.
     */
    public static final Map<String, List<String>> CONTAINS = Map.of(
            "postgres", List.of("postgresql"),
            "kafka", List.of("kafka"),
            "connect", List.of("debezium", "kafka_connect"),
            "clickhouse", List.of("clickhouse"));
    private static final Map<String, String> ENV = Map.of("kafka_connect", "KAFKA_VERSION");

    /**
     * One component's declared version.
     *
     * @param component one of {@link ServerVersions#COMPONENTS}
     * @param image     the image that declares it ({@code -} for the kafka_streams library)
     * @param version   the declared version, {@code null} if nothing declares one
     * @param source    where it was read, e.g. {@code label seams.version.kafka}, {@code tag}
     */
    public record Declared(String component, String image, String version, String source) {
    }

    private DeclaredVersions() {
    }

    /**
     * Reads the declarations of the profile's images from the Docker engine (Testcontainers' client,
     * {@code inspectImageCmd}); call it once the stand has started, when every image is present.
     *
     * @param images service (postgres, kafka, connect, clickhouse) → the image reference it runs,
     *               e.g. {@link Images#references()}
     * @return one declaration per component, in {@link ServerVersions#COMPONENTS} order
     * @throws com.github.dockerjava.api.exception.NotFoundException if an image is not in the engine
     */
    public static List<Declared> of(Map<String, String> images) {
        Map<String, Declared> byComponent = new LinkedHashMap<>();
        images.forEach((service, image) -> {
            ContainerConfig config = DockerClientFactory.instance().client().inspectImageCmd(image).exec().getConfig();
            Map<String, String> labels = config == null || config.getLabels() == null ? Map.of() : config.getLabels();
            List<String> env = config == null || config.getEnv() == null ? List.of() : Arrays.asList(config.getEnv());
            fromImage(service, image, labels, env).forEach(d -> byComponent.put(d.component(), d));
        });
        byComponent.put("kafka_streams", kafkaStreams(System.getProperty(KAFKA_VERSION_PROPERTY)));
        return ServerVersions.COMPONENTS.stream()
                .map(c -> byComponent.getOrDefault(c, new Declared(c, "-", null, "no image of the profile contains it")))
                .toList();
    }

    /**
     * @param service one of postgres, kafka, connect, clickhouse
     * @param image   its reference, e.g. {@code stand/kafka:4.1.1-offline} or {@code postgres:17.6}
     * @param labels  the image's labels
     * @param env     the image's environment, {@code NAME=value} entries
     * @return the declarations of the components the service's image contains (class comment's order
     *     of sources)
     */
    public static List<Declared> fromImage(String service, String image, Map<String, String> labels, List<String> env) {
        List<String> components = CONTAINS.get(service);
        if (components == null) {
            throw new IllegalArgumentException("unknown service " + service + ", not one of " + CONTAINS.keySet());
        }
        List<Declared> declared = new ArrayList<>();
        for (String component : components) {
            String label = labels.get(LABEL_PREFIX + component);
            String tag = component.equals(components.get(0)) ? versionTag(image) : null;
            String fromEnv = ENV.containsKey(component) ? envValue(env, ENV.get(component)) : null;
            declared.add(label != null ? new Declared(component, image, label, "label " + LABEL_PREFIX + component)
                    : tag != null ? new Declared(component, image, tag, "tag")
                    : fromEnv != null ? new Declared(component, image, fromEnv, "env " + ENV.get(component))
                    : new Declared(component, image, null, "nothing declares it"));
        }
        return declared;
    }

    /**
     * @param kafkaVersion the run's {@code kafka.version} (Maven), null if not passed
     * @return the kafka_streams library's declaration
     */
    public static Declared kafkaStreams(String kafkaVersion) {
        return new Declared("kafka_streams", "-", kafkaVersion,
                kafkaVersion == null ? "nothing declares it (-D" + KAFKA_VERSION_PROPERTY + " not set)" : "-Dkafka.version");
    }

    /**
     * @param image an image reference, e.g. {@code postgres:15.14} or
     *              {@code localhost:5000/clickhouse/clickhouse-server:25.8.11.66@sha256:ab}
     * @return its tag if the tag is a version (starts with a digit), else null
     */
    public static String versionTag(String image) {
        int slash = image.lastIndexOf('/');
        int colon = image.indexOf(':', slash + 1);
        if (colon < 0) {
            return null;
        }
        String tag = image.substring(colon + 1);
        int digest = tag.indexOf('@');
        tag = digest < 0 ? tag : tag.substring(0, digest);
        return !tag.isEmpty() && Character.isDigit(tag.charAt(0)) ? tag : null;
    }

    private static String envValue(List<String> env, String name) {
        return env.stream().filter(e -> e.startsWith(name + "=")).map(e -> e.substring(name.length() + 1))
                .findFirst().orElse(null);
    }
}
