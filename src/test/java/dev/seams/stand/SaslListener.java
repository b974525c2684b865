package dev.seams.stand;

import java.security.SecureRandom;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * A SASL_PLAINTEXT listener with the PLAIN mechanism on each Kafka node, beside its PLAINTEXT ones, published on a host
 * port of its own ({@code -D}{@value #PROPERTY}{@code =true}; {@code seams stand up --kafka-sasl}): a secured cluster
 * for the claims' external mode (docs/stand.md "An existing stand"), whose clients are served only with the client
 * properties of {@link #clientProperties()} ({@code kafka.client.properties}, the {@code --kafka-config} of seams'
 * commands). The stand's own clients, Connect and the containers on its network keep the PLAINTEXT listeners.
 *
 * @param user     the one user the listener knows
 * @param password that user's password
 */
public record SaslListener(String user, String password) {

    /** The system property that adds the listener (failsafe and {@code seams stand up --kafka-sasl} set it). */
    public static final String PROPERTY = "seams.kafka.sasl";
    /** Where the listener listens inside each node's container. */
    static final int PORT = 9095;
    /**
     * The listener's name: Testcontainers' {@code KafkaContainer} names the n-th listener given with {@code withListener}
     * {@code TC-n} (its {@code KafkaHelper.resolveListeners}), and this one is each node's second, after the
     * network listener ({@link BrokerLayout#NETWORK_PORT}).
     */
    static final String NAME = "TC-1";

    /**
     * @return a listener with user {@code seams} and a random password, if {@value #PROPERTY} is {@code true}
     */
    static Optional<SaslListener> fromSystemProperties() {
        if (!Boolean.parseBoolean(System.getProperty(PROPERTY, "false").strip())) {
            return Optional.empty();
        }
        byte[] secret = new byte[12];
        new SecureRandom().nextBytes(secret);
        return Optional.of(new SaslListener("seams", HexFormat.of().formatHex(secret)));
    }

    /** @return the broker's PLAIN login: its one user and password ({@code user_<name>} is the server side's list) */
    String serverJaas() {
        return "org.apache.kafka.common.security.plain.PlainLoginModule required username=\"" + user + "\" password=\""
                + password + "\" user_" + user + "=\"" + password + "\";";
    }

    /**
     * @return the node's environment for the listener, in the {@code apache/kafka} image's contract ({@code ___}
     *     becomes {@code -}): PLAIN enabled, and the listener's login
     */
    Map<String, String> brokerEnv() {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("KAFKA_SASL_ENABLED_MECHANISMS", "PLAIN");
        env.put("KAFKA_LISTENER_NAME_" + NAME.replace("-", "___") + "_PLAIN_SASL_JAAS_CONFIG", serverJaas());
        return env;
    }

    /**
     * Makes the listener SASL_PLAINTEXT: Testcontainers maps every listener it adds to PLAINTEXT when the container is
     * configured, after the environment given to it, so the map is changed in the create command itself.
     *
     * @param env the create command's environment, {@code NAME=value} each
     * @return the same, {@value #NAME} mapped to SASL_PLAINTEXT
     * @throws IllegalStateException if the environment maps no {@value #NAME} to PLAINTEXT (Testcontainers names its
     *     listeners otherwise)
     */
    static String[] secured(String[] env) {
        String[] out = Arrays.copyOf(env, env.length);
        String key = "KAFKA_LISTENER_SECURITY_PROTOCOL_MAP=";
        for (int i = 0; i < out.length; i++) {
            if (out[i].startsWith(key)) {
                String[] entries = out[i].substring(key.length()).split(",");
                boolean found = false;
                for (int j = 0; j < entries.length; j++) {
                    if (entries[j].equals(NAME + ":PLAINTEXT")) {
                        entries[j] = NAME + ":SASL_PLAINTEXT";
                        found = true;
                    }
                }
                if (found) {
                    out[i] = key + String.join(",", entries);
                    return out;
                }
            }
        }
        throw new IllegalStateException("the Kafka node's listener map has no " + NAME + ":PLAINTEXT to secure: "
                + Arrays.stream(env).filter(e -> e.startsWith(key)).findFirst().orElse("(none)"));
    }

    /**
     * @return a client's properties for the listener, as a Java properties file's text (a
     *     {@code kafka.client.properties} or {@code --kafka-config} file)
     */
    public String clientProperties() {
        return String.join("\n", "security.protocol=SASL_PLAINTEXT", "sasl.mechanism=PLAIN",
                "sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username=\"" + user
                        + "\" password=\"" + password + "\";", "");
    }

    /** @return the user, the password masked */
    @Override
    public String toString() {
        return "SaslListener[user=" + user + ", password=****]";
    }
}
