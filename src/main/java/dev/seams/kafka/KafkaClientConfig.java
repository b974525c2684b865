package dev.seams.kafka;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.TreeMap;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;

/**
 * The client properties a user gives every Kafka client of a command ({@code --kafka-config FILE}, the
 * {@code --command-config} habit of Kafka's own tools; docs/sink.md "A secured cluster"): {@code security.protocol},
 * {@code sasl.*}, {@code ssl.*}, timeouts. They are added to the settings the command makes itself; a setting the
 * command makes itself ({@code bootstrap.servers}, {@code group.id}, {@code enable.auto.commit},
 * {@code isolation.level}, the serializers, the exactly-once settings: what the claims prove depends on them) is
 * never overridden: the file may repeat it with the same value, any other value is refused.
 * {@link #toString()} names the properties without their values (a JAAS line holds a password).
 *
 * @param properties the properties by name, unmodifiable
 */
public record KafkaClientConfig(Map<String, String> properties) {

    /** No user properties: the commands' own settings only. */
    public static final KafkaClientConfig NONE = new KafkaClientConfig(Map.of());

    /** @throws NullPointerException if properties is null */
    public KafkaClientConfig {
        properties = Map.copyOf(Objects.requireNonNull(properties, "properties"));
    }

    /**
     * @param file a Java properties file, read as UTF-8, e.g. the client.properties of a SASL_SSL cluster; null for none
     * @return its properties; {@link #NONE} for null
     * @throws IllegalArgumentException naming the file (and the property) if it cannot be read, is not a properties file
     *     (a malformed escape), has a property without a name, or a value a Kafka client would refuse (an unknown {@code
     *     security.protocol}, a number that is not one); what only a client's start can tell (a SASL login without a
     *     JAAS configuration) is a usage error of the command line ({@code cli/SeamsCli})
     */
    public static KafkaClientConfig load(Path file) {
        if (file == null) {
            return NONE;
        }
        Properties props = new Properties();
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            props.load(reader);
        } catch (IOException | IllegalArgumentException e) {
            throw new IllegalArgumentException("cannot read the Kafka client config " + file + ": " + e, e);
        }
        Map<String, String> config = new TreeMap<>();
        for (String name : props.stringPropertyNames()) {
            if (name.isBlank()) {
                throw new IllegalArgumentException("the Kafka client config " + file + " has a property without a name");
            }
            config.put(name, props.getProperty(name).strip());
        }
        validate(file, config);
        return new KafkaClientConfig(config);
    }

    /** Each value checked as the Kafka clients will parse it, so that a mistake is one line naming it, not a stack trace. */
    private static void validate(Path file, Map<String, String> config) {
        List<ConfigDef> defs = List.of(ConsumerConfig.configDef(), ProducerConfig.configDef(), AdminClientConfig.configDef());
        for (Map.Entry<String, String> e : config.entrySet()) {
            for (ConfigDef def : defs) {
                ConfigDef.ConfigKey key = def.configKeys().get(e.getKey());
                if (key == null) {
                    continue;
                }
                try {
                    Object value = ConfigDef.parseType(e.getKey(), e.getValue(), key.type);
                    if (key.validator != null) {
                        key.validator.ensureValid(e.getKey(), value);
                    }
                } catch (ConfigException refused) {
                    throw new IllegalArgumentException("the Kafka client config " + file + ": " + refused.getMessage(), refused);
                }
            }
        }
    }

    /**
     * @param command the command, for the message
     * @param owned   the settings the command makes itself on some client and a user must not change (e.g. {@code
     *                isolation.level} for {@code lag}), whether or not to the same value
     * @return this config
     * @throws IllegalArgumentException naming the first such setting the file makes
     */
    public KafkaClientConfig refusing(String command, java.util.Set<String> owned) {
        for (String name : new TreeMap<>(properties).keySet()) {
            if (owned.contains(name)) {
                throw new IllegalArgumentException("--kafka-config sets " + name + ", which seams " + command
                        + " sets itself: remove it from the file");
            }
        }
        return this;
    }

    /**
     * Adds these properties to a client's own settings.
     *
     * @param own the settings the command makes (changed in place)
     * @return {@code own}, with every property of this config it did not set
     * @throws IllegalArgumentException if this config sets a property {@code own} sets, to another value (named)
     */
    public Properties applyTo(Properties own) {
        for (Map.Entry<String, String> e : new TreeMap<>(properties).entrySet()) {
            Object mine = own.get(e.getKey());
            if (mine != null && !String.valueOf(mine).equals(e.getValue())) {
                throw new IllegalArgumentException("--kafka-config sets " + e.getKey() + ", which seams sets itself to "
                        + mine + " (its guarantees depend on it): remove it from the file");
            }
            own.putIfAbsent(e.getKey(), e.getValue());
        }
        return own;
    }

    /**
     * @param own the settings the command makes, as a map (the Admin client's shape); not changed
     * @return a new map of both
     * @throws IllegalArgumentException as {@link #applyTo(Properties)}
     */
    public Map<String, Object> applyTo(Map<String, Object> own) {
        Properties props = new Properties();
        props.putAll(own);
        applyTo(props);
        Map<String, Object> merged = new TreeMap<>();
        props.forEach((k, v) -> merged.put((String) k, v));
        return merged;
    }

    /** @return the property names, values masked */
    @Override
    public String toString() {
        return "KafkaClientConfig" + new TreeMap<>(properties).keySet();
    }
}
