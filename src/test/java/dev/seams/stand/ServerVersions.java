package dev.seams.stand;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.seams.truth.ClickHouse;
import dev.seams.truth.Pg;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one place that knows how each component of the stand writes its version, and when a declared
 * version and a live one mean the same release (claim B7, docs/claims.md: "every image declares the
 * version it contains and B7 fails when a server's live version differs").
 *
 * <p>Formats met, per component (live = what the running server reports, see {@link #live};
 * declared = an image label {@code seams.version.<component>}, a version tag, or {@code -Dkafka.version}):
 * <ul>
 *   <li>{@code postgresql}: live {@code SHOW server_version} = {@code 15.18 (Debian 15.18-0+deb12u1)}
 *       or {@code 17.6}; declared {@code 15.18}, a tag {@code 17.6} or {@code 17.6-bookworm}. Same
 *       release = same numbers (major.minor) and the same pre-release ({@code beta1}, {@code rc1});
 *       the text after a space and image variants ({@code -bookworm}, {@code -alpine}) do not count.</li>
 *   <li>{@code kafka}, {@code kafka_connect}, {@code kafka_streams}: {@code 4.1.1} everywhere
 *       (AppInfoParser, {@code GET /} of Connect, the Streams jar's version resource). Same release =
 *       equal, qualifier included ({@code 4.1} is not {@code 4.1.1}).</li>
 *   <li>{@code debezium}: {@code 3.5.0.Final} (the connector's {@code build.version}, the Connect
 *       image's tag). Same release = equal, qualifier included ({@code 3.6.0.CR1} is not
 *       {@code 3.6.0.Final}).</li>
 *   <li>{@code clickhouse}: {@code SELECT version()} prints year.month.patch.build
 *       ({@code 25.8.11.66}) from 19.x on, three parts on 18.x ({@code 18.16.1}); Debian's package
 *       and some tags name three. Same release = the numbers both sides have are equal, and both
 *       have at least year.month.patch (a floating tag {@code 25.8} pins nothing, so it never
 *       matches); image variants ({@code -alpine}) do not count.</li>
 * </ul>
 */
public final class ServerVersions {

    /** The components B7 checks, in report order: the keys of {@code Stand.versions()}. */
    public static final List<String> COMPONENTS =
            List.of("postgresql", "kafka", "kafka_connect", "debezium", "clickhouse", "kafka_streams");

    private static final Pattern PRE_RELEASE = Pattern.compile("(?i)(alpha|beta|rc|cr)\\d*");

    private ServerVersions() {
    }

    /**
     * @param component one of {@link #COMPONENTS}
     * @param declared  the version the image or profile declares, e.g. {@code 15.18}
     * @param live      the version the running server reports, e.g. {@code 15.18 (Debian 15.18-0+deb12u1)}
     * @return whether both name the same release, by the component's rule (class comment)
     * @throws IllegalArgumentException for an unknown component, or a value that is not a version
     *     (callers check {@link Version#looksLikeOne} first: an unread live value is not a mismatch
     *     but a verdict of its own)
     */
    public static boolean sameRelease(String component, String declared, String live) {
        Version d = Version.parse(declared);
        Version l = Version.parse(live);
        return switch (component) {
            case "postgresql" -> d.numbers().equals(l.numbers()) && preRelease(d).equals(preRelease(l));
            case "kafka", "kafka_connect", "kafka_streams", "debezium" -> d.equals(l);
            case "clickhouse" -> {
                int common = Math.min(d.numbers().size(), l.numbers().size());
                yield common >= 3 && d.first(common).equals(l.first(common));
            }
            default -> throw new IllegalArgumentException("unknown component " + component + ", not one of " + COMPONENTS);
        };
    }

    /**
     * @param component one of {@link #COMPONENTS}
     * @param raw       a version as printed by a server, a label or a tag
     * @return its canonical form for the report, e.g. {@code 15.18} for
     *     {@code 15.18 (Debian 15.18-0+deb12u1)}; the raw text unchanged if it is not a version
     */
    public static String normalise(String component, String raw) {
        if (!Version.looksLikeOne(raw)) {
            return raw;
        }
        Version v = Version.parse(raw);
        return switch (component) {
            case "postgresql" -> new Version(v.numbers(), preRelease(v)).toString();
            case "clickhouse" -> new Version(v.numbers(), "").toString();
            default -> v.toString();
        };
    }

    private static String preRelease(Version v) {
        return PRE_RELEASE.matcher(v.qualifier()).matches() ? v.qualifier().toLowerCase() : "";
    }

    /**
     * The Kafka Streams library on this JVM's class path, which is the one ds-streams runs
     * ({@link JvmProcess} starts it with the test JVM's class path): the {@code version} of the
     * kafka-streams jar's own {@code kafka/kafka-streams-version.properties} (the clients' AppInfoParser
     * would name kafka-clients, which Maven may resolve to another version).
     *
     * @return e.g. {@code 4.2.2}, or {@code unknown: <reason>} if the resource is missing
     */
    public static String kafkaStreamsLibrary() {
        try (InputStream in = org.apache.kafka.streams.KafkaStreams.class
                .getResourceAsStream("/kafka/kafka-streams-version.properties")) {
            if (in == null) {
                return "unknown: no kafka/kafka-streams-version.properties in the kafka-streams jar";
            }
            Properties p = new Properties();
            p.load(in);
            return p.getProperty("version", "unknown: no version in kafka/kafka-streams-version.properties");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Each component's version as the running servers report it (docs/claims.md: the report header; B7):
     * PostgreSQL {@code SHOW server_version}; the broker's software version from its start-up line
     * {@code Kafka version: X} (no Kafka API returns it) and its finalized features from the Admin
     * API ({@code describeFeatures}: {@code metadata.version} level and the others); Kafka Connect's
     * REST root {@code GET /}; the PostgreSQL connector's version from {@code GET /connector-plugins};
     * the Kafka Streams library the Streams process runs; ClickHouse {@code SELECT version()}.
     * A value that cannot be read is {@code unknown: <reason>}.
     *
     * @param stand the stand, started
     * @return component ({@link #COMPONENTS}, and {@code kafka_features}) → version
     */
    public static Map<String, String> live(Stand stand) {
        Map<String, String> live = new LinkedHashMap<>();
        live.put("postgresql", Pg.of(stand).version());
        Matcher m = Pattern.compile("Kafka version: (\\S+)").matcher(stand.kafka().logs());
        live.put("kafka", m.find() ? m.group(1) : "unknown: no 'Kafka version:' line in the broker log");
        try {
            var features = new TreeMap<String, Short>();
            stand.admin().describeFeatures().featureMetadata().get(30, TimeUnit.SECONDS).finalizedFeatures()
                    .forEach((name, range) -> features.put(name, range.maxVersionLevel()));
            live.put("kafka_features", features.toString());
        } catch (Exception e) {
            live.put("kafka_features", "unknown: " + e);
        }
        try {
            var http = HttpClient.newHttpClient();
            ObjectMapper json = new ObjectMapper();
            var root = http.send(HttpRequest.newBuilder(URI.create(stand.connect().getTarget() + "/")).build(),
                    HttpResponse.BodyHandlers.ofString()).body();
            live.put("kafka_connect", json.readTree(root).path("version").asText("unknown"));
            var plugins = http.send(HttpRequest.newBuilder(URI.create(stand.connect().getTarget() + "/connector-plugins")).build(),
                    HttpResponse.BodyHandlers.ofString()).body();
            String debezium = "unknown: no PostgresConnector in GET /connector-plugins";
            for (var plugin : json.readTree(plugins)) {
                if (plugin.path("class").asText().equals(stand.connectorConfig().get("connector.class"))) {
                    debezium = plugin.path("version").asText("unknown");
                }
            }
            live.put("debezium", debezium);
        } catch (IOException | InterruptedException e) {
            live.put("kafka_connect", "unknown: " + e);
        }
        live.put("kafka_streams", ServerVersions.kafkaStreamsLibrary());
        live.put("clickhouse", ClickHouse.of(stand.clickhouseTarget()).version());
        return live;
    }
}
