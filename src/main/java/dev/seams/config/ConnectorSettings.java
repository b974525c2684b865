package dev.seams.config;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;

/**
 * A Debezium connector's configuration as users keep it (docs/config.md): Kafka Connect's {@code {"name": ..., "config":
 * {...}}} (what {@code POST /connectors} takes), a bare config object ({@code PUT /connectors/NAME/config}), or a
 * {@code .properties} file (Connect's standalone mode). Values are kept as text, as Connect reads them.
 */
public final class ConnectorSettings {

    private static final ObjectMapper JSON = new ObjectMapper();

    private ConnectorSettings() {
    }

    /**
     * @param file a connector configuration file
     * @return its settings, in the file's order
     * @throws IllegalArgumentException if it cannot be read, or is not one of the three shapes (the message names the file)
     */
    public static Map<String, String> load(Path file) {
        String text;
        try {
            text = Files.readString(file);
        } catch (IOException e) {
            throw new IllegalArgumentException(file + ": cannot read it (" + e.getMessage() + ")", e);
        }
        return file.getFileName().toString().endsWith(".properties") ? properties(file, text) : json(file, text);
    }

    private static Map<String, String> properties(Path file, String text) {
        Properties p = new Properties();
        try {
            p.load(new StringReader(text));
        } catch (IOException | IllegalArgumentException e) {
            throw new IllegalArgumentException(file + ": not a properties file (" + e.getMessage() + ")", e);
        }
        Map<String, String> settings = new LinkedHashMap<>();
        p.stringPropertyNames().stream().sorted().forEach(k -> settings.put(k, p.getProperty(k).strip()));
        return settings;
    }

    private static Map<String, String> json(Path file, String text) {
        JsonNode root;
        try {
            root = JSON.readTree(text);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(file + ": not JSON (" + e.getOriginalMessage() + ", line "
                    + e.getLocation().getLineNr() + ")", e);
        }
        JsonNode config = root != null && root.path("config").isObject() ? root.path("config") : root;
        if (config == null || !config.isObject() || !config.has("connector.class")) {
            throw new IllegalArgumentException(file + ": not a connector configuration (neither {\"name\": ..., \"config\": "
                    + "{...}} nor a config object; no connector.class)");
        }
        Map<String, String> settings = new LinkedHashMap<>();
        config.fields().forEachRemaining(f -> settings.put(f.getKey(), f.getValue().isValueNode() ? f.getValue().asText()
                : f.getValue().toString()));
        return settings;
    }

    /**
     * @param settings   a connector's settings
     * @param typeSuffix the end of a transform's class name, e.g. {@code RegexRouter}
     * @return the names of the transforms of that type, in the chain's order ({@code transforms})
     */
    public static java.util.List<String> transformsOfType(Map<String, String> settings, String typeSuffix) {
        return java.util.Arrays.stream(settings.getOrDefault("transforms", "").split(",")).map(String::strip)
                .filter(t -> !t.isEmpty() && settings.getOrDefault("transforms." + t + ".type", "").endsWith(typeSuffix)).toList();
    }
}
