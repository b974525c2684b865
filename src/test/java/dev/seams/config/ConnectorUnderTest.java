package dev.seams.config;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The Debezium connector configuration every claim runs (docs/config.md "Your connector under the claims"): the shipped
 * {@code containers/debezium/orders-connector.json}, or a user's own file chosen with {@code -D}{@value #PROPERTY}
 * (Connect's {@code {"name":…, "config":{…}}}, a bare config object or a {@code .properties} file: {@link
 * ConnectorSettings}). The stand changes only what running on its own servers needs ({@link #STAND_KEYS}: the
 * connection, the connector's name, slot, publication and topic prefix, the table list, the route to the suite's topic);
 * every change is an {@link Override} the report's header lists beside the user's value. Everything else reaches Connect
 * as the user wrote it: claim B7[connector under test] reads Connect's copy back and compares.
 *
 * @param name     its name in the report: {@value #SHIPPED}, or the file's name without its extension
 * @param file     the file, as given
 * @param settings the file's settings, in its order
 */
public record ConnectorUnderTest(String name, Path file, Map<String, String> settings) {

    /** The system property naming a user's connector configuration file. */
    public static final String PROPERTY = "seams.connector";
    /** The name of the shipped configuration. */
    public static final String SHIPPED = "shipped";
    /** The shipped configuration, under the project root. */
    public static final String SHIPPED_FILE = "containers/debezium/orders-connector.json";
    /** The route the stand appends when the user's chain has no RegexRouter. */
    static final String STAND_ROUTE = "seams_route";
    /**
     * The only settings the stand may change (besides the {@code transforms.<RegexRouter>.replacement} of the user's
     * routes, and the route it appends): a claim finds any other difference between the file and Connect's copy.
     */
    public static final Set<String> STAND_KEYS = Set.of("name", "database.hostname", "database.port", "database.user",
            "database.password", "database.dbname", "slot.name", "publication.name", "topic.prefix", "table.include.list",
            "table.exclude.list", "schema.include.list", "schema.exclude.list", "transforms");
    private static final Set<String> SECRETS = Set.of("database.password");

    /**
     * Where the stand runs the connector.
     *
     * @param host        PostgreSQL's host as the Connect worker reaches it
     * @param port        its port
     * @param user        the user
     * @param password    the password
     * @param database    the database holding {@code public.orders}
     * @param topicPrefix the topic prefix (Debezium's topics, its heartbeat topic {@code __debezium-heartbeat.<prefix>})
     * @param slot        the replication slot and publication
     * @param ordersTopic the topic ds-streams reads the order events from
     */
    public record StandNames(String host, String port, String user, String password, String database, String topicPrefix,
                             String slot, String ordersTopic) {
    }

    /**
     * One setting the stand changed.
     *
     * @param key   the setting
     * @param user  the user's value, or null if the file does not set it
     * @param stand the stand's value, or null if the stand removed it
     */
    public record Override(String key, String user, String stand) {

        /** @return {@code key: user's value -> stand's value}, {@code (not set)}/{@code (removed)} for a missing side, secrets masked */
        public String line() {
            boolean secret = SECRETS.contains(key);
            return key + ": " + (user == null ? "(not set)" : secret ? "***" : user) + " -> "
                    + (stand == null ? "(removed)" : secret ? "***" : stand);
        }
    }

    /**
     * What the stand registers.
     *
     * @param config    the configuration Connect gets
     * @param overrides every setting the stand changed, in the order it changed them
     */
    public record Registered(Map<String, String> config, List<Override> overrides) {

        /** @return the overrides as report lines ({@link Override#line()}) */
        public List<String> lines() {
            return overrides.stream().map(Override::line).toList();
        }
    }

    /** The configuration last read, by the property's value it was read for: the file is read once per run. */
    private static volatile Map.Entry<String, ConnectorUnderTest> read;

    /**
     * @return the configuration of this run: {@code -D}{@value #PROPERTY}'s file, or the shipped one (read once per
     *     value of the property)
     * @throws IllegalArgumentException if the file given cannot be read as a connector configuration (the message names it)
     */
    public static ConnectorUnderTest configured() {
        String file = propertyFile();
        Map.Entry<String, ConnectorUnderTest> last = read;
        if (last != null && last.getKey().equals(file)) {
            return last.getValue();
        }
        ConnectorUnderTest connector;
        if (file.isEmpty()) {
            connector = shipped();
        } else {
            Path path = Path.of(file);
            if (!Files.isRegularFile(path)) {
                throw new IllegalArgumentException("-D" + PROPERTY + "=" + file + ": no such file");
            }
            connector = new ConnectorUnderTest(configuredName(), path, ConnectorSettings.load(path));
        }
        read = Map.entry(file, connector);
        return connector;
    }

    /**
     * @return the name of this run's configuration without reading it: {@value #SHIPPED}, or the file's name without its
     *     extension, every character but {@code [a-z0-9.-]} a dash ({@code reports/connectors/<name>/})
     */
    public static String configuredName() {
        String file = propertyFile();
        if (file.isEmpty()) {
            return SHIPPED;
        }
        String base = Path.of(file).getFileName().toString().replaceFirst("\\.[^.]*$", "");
        return base.toLowerCase(java.util.Locale.ROOT).replaceAll("[^a-z0-9.-]", "-");
    }

    /** @return {@code -D}{@value #PROPERTY}'s value, or empty when unset (blank, or Maven's unresolved {@code ${...}}) */
    private static String propertyFile() {
        String file = System.getProperty(PROPERTY, "");
        return file.isBlank() || file.startsWith("${") ? "" : file;
    }

    /** @return the shipped configuration ({@value #SHIPPED_FILE}) */
    public static ConnectorUnderTest shipped() {
        Path file = dev.seams.project.Project.root().resolve(SHIPPED_FILE);
        return new ConnectorUnderTest(SHIPPED, file, ConnectorSettings.load(file));
    }

    /**
     * @param names where the stand runs it
     * @return the configuration Connect gets and every change the stand made to the user's
     */
    public Registered forStand(StandNames names) {
        Map<String, String> config = new LinkedHashMap<>(settings);
        List<Override> overrides = new ArrayList<>();
        set(config, overrides, "name", null);   // the connector's name is the URL's (a properties file names it inside)
        set(config, overrides, "database.hostname", names.host());
        set(config, overrides, "database.port", names.port());
        set(config, overrides, "database.user", names.user());
        set(config, overrides, "database.password", names.password());
        set(config, overrides, "database.dbname", names.database());
        set(config, overrides, "slot.name", names.slot());
        set(config, overrides, "publication.name", names.slot());
        set(config, overrides, "topic.prefix", names.topicPrefix());
        set(config, overrides, "schema.include.list", null);
        set(config, overrides, "schema.exclude.list", null);
        set(config, overrides, "table.exclude.list", null);
        set(config, overrides, "table.include.list", "public.orders");
        List<String> routes = ConnectorSettings.transformsOfType(config, "RegexRouter");
        if (routes.isEmpty()) {   // Debezium's own topic name, <prefix>.public.orders, routed to the suite's
            String chain = config.getOrDefault("transforms", "").strip();
            set(config, overrides, "transforms", chain.isEmpty() ? STAND_ROUTE : chain + "," + STAND_ROUTE);
            set(config, overrides, "transforms." + STAND_ROUTE + ".type", "org.apache.kafka.connect.transforms.RegexRouter");
            set(config, overrides, "transforms." + STAND_ROUTE + ".regex", java.util.regex.Pattern.quote(names.topicPrefix())
                    + "\\.public\\.orders");
            set(config, overrides, "transforms." + STAND_ROUTE + ".replacement", names.ordersTopic());
        } else {
            routes.forEach(route -> set(config, overrides, "transforms." + route + ".replacement", names.ordersTopic()));
        }
        return new Registered(config, List.copyOf(overrides));
    }

    /** Sets (or, with null, removes) one setting, recording the change when it is one. */
    private static void set(Map<String, String> config, List<Override> overrides, String key, String value) {
        String before = config.get(key);
        if (java.util.Objects.equals(before, value)) {
            return;
        }
        if (value == null) {
            config.remove(key);
        } else {
            config.put(key, value);
        }
        overrides.add(new Override(key, before, value));
    }

    /**
     * Whether ds-streams can read the events this configuration writes (docs/event-contract.md): the row unwrapped by
     * {@code ExtractNewRecordState}, as JSON without a schema envelope.
     *
     * @return why the claims cannot be asked with it, or null if they can
     */
    public String notAskable() {
        List<String> why = new ArrayList<>();
        if (!settings.getOrDefault("connector.class", "").endsWith("PostgresConnector")) {
            why.add("connector.class " + settings.get("connector.class") + " is no PostgreSQL connector: the stand's source is PostgreSQL");
        }
        if (ConnectorSettings.transformsOfType(settings, "ExtractNewRecordState").isEmpty()) {
            why.add("no io.debezium.transforms.ExtractNewRecordState in its transforms ("
                    + settings.getOrDefault("transforms", "none") + "): its events are Debezium's envelope (before, after, source, op)");
        }
        String converter = settings.getOrDefault("value.converter", "org.apache.kafka.connect.json.JsonConverter (the worker's)");
        if (!converter.startsWith("org.apache.kafka.connect.json.JsonConverter")) {
            why.add("value.converter " + converter + " writes no JSON");
        } else if (!"false".equalsIgnoreCase(settings.getOrDefault("value.converter.schemas.enable", "true").strip())) {
            why.add("value.converter.schemas.enable is " + settings.getOrDefault("value.converter.schemas.enable", "not set (true)")
                    + ": each value is wrapped in a {schema, payload} envelope");
        }
        return why.isEmpty() ? null : "the connector under test (" + name + ", " + file + ") writes events ds-streams does not "
                + "read, which every claim reads through it (docs/event-contract.md: the row unwrapped by ExtractNewRecordState, JSON "
                + "without schemas): " + String.join("; ", why);
    }

    /**
     * The settings of the user's file that did not reach Connect as given and are not a listed override.
     *
     * @param registered what the stand registered ({@link #forStand})
     * @param inConnect  the configuration Connect holds ({@code GET /connectors/NAME/config})
     * @return one line per difference: {@code key: file's value -> Connect's value}; also an override of a setting outside
     *     {@link #STAND_KEYS} and the user's routes, which the stand must not change
     */
    public List<String> notAsGiven(Registered registered, Map<String, String> inConnect) {
        Map<String, Override> listed = new LinkedHashMap<>();
        registered.overrides().forEach(o -> listed.put(o.key(), o));
        List<String> routes = ConnectorSettings.transformsOfType(settings, "RegexRouter");
        List<String> differences = new ArrayList<>();
        listed.values().forEach(o -> {
            boolean allowed = STAND_KEYS.contains(o.key()) || o.key().startsWith("transforms." + STAND_ROUTE + ".")
                    || routes.stream().anyMatch(r -> o.key().equals("transforms." + r + ".replacement"));
            if (!allowed) {
                differences.add(o.key() + ": changed by the stand, which may change only " + STAND_KEYS + " and the routes");
            } else if (!"name".equals(o.key()) && !java.util.Objects.equals(o.stand(), inConnect.get(o.key()))) {
                differences.add(o.key() + ": the stand's " + (o.stand() == null ? "(removed)" : o.stand()) + " -> Connect's "
                        + inConnect.getOrDefault(o.key(), "(not set)"));
            }
        });
        settings.forEach((key, value) -> {
            if (!listed.containsKey(key) && !value.equals(inConnect.get(key))) {
                differences.add(key + ": " + value + " -> " + inConnect.getOrDefault(key, "(not set)"));
            }
        });
        inConnect.forEach((key, value) -> {
            if (!listed.containsKey(key) && !settings.containsKey(key) && !"name".equals(key)) {
                differences.add(key + ": (not set) -> " + value);
            }
        });
        return differences;
    }
}
