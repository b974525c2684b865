package dev.seams.truth;

import dev.seams.sink.SinkMode;
import dev.seams.sink.SinkOptions;
import dev.seams.streams.StreamsSettings;
import dev.seams.wire.TopicNames;
import java.time.Instant;
import java.util.regex.Pattern;

/**
 * The names this run's pipeline uses: topics, consumer groups, the connector and its heartbeat topic (docs/stand.md).
 * On the stand the suite starts they are the shipped names, since the claims test what ships. On an existing stand
 * ({@code -Dseams.stand=external}) every one carries the run's prefix ({@code -Dseams.names.prefix}, else
 * {@code seams_<time in base 36>_}), so that the run shares the cluster with whatever else runs there and can remove
 * all it created afterwards. Every claim, load and reader names what it touches through these, never the shipped
 * constants ({@link TopicNames}, {@link StreamsSettings#APPLICATION_ID}, {@link SinkOptions#DEFAULT_GROUP}).
 */
public final class RunNames {

    /** What a prefix may hold (declared before {@code PREFIX}, whose computation reads it). */
    private static final Pattern LEGAL = Pattern.compile("([a-z][a-z0-9_]+_)?");
    /** The system property choosing the stand: {@code local} (default, the suite's own) or {@code external}. */
    public static final String STAND_PROPERTY = "seams.stand";
    /** The system property giving an external stand's run prefix (lower-case letters, digits, {@code _}). */
    public static final String PREFIX_PROPERTY = "seams.names.prefix";
    /** This run's prefix: empty on the suite's own stand. */
    public static final String PREFIX = prefix(System.getProperty(STAND_PROPERTY, "local"),
            System.getProperty(PREFIX_PROPERTY), Instant.now());
    /** This run's topics. */
    public static final TopicNames TOPICS = new TopicNames(PREFIX);
    /** Debezium's order events ({@link TopicNames#ORDERS_EVENTS} with the prefix). */
    public static final String ORDERS_EVENTS = TOPICS.ordersEvents();
    /** ds-streams' dead letters ({@link TopicNames#ORDERS_EVENTS_DLQ} with the prefix; claim B2). */
    public static final String ORDERS_EVENTS_DLQ = TOPICS.ordersEventsDlq();
    /** ds-streams' changelog ({@link TopicNames#CUSTOMER_TOTALS} with the prefix). */
    public static final String CUSTOMER_TOTALS = TOPICS.customerTotals();
    /** The sink's dead letters ({@link TopicNames#CUSTOMER_TOTALS_DLQ} with the prefix; claims G10, G11). */
    public static final String CUSTOMER_TOTALS_DLQ = TOPICS.customerTotalsDlq();
    /** ds-streams' application id, its consumer group and the prefix of its internal topics. */
    public static final String STREAMS_GROUP = PREFIX + StreamsSettings.APPLICATION_ID;
    /** The sink's consumer group. */
    public static final String SINK_GROUP = PREFIX + SinkOptions.DEFAULT_GROUP;
    /** The orders connector's name in Kafka Connect. */
    public static final String CONNECTOR = PREFIX + "orders-connector";
    /** The connector's {@code topic.prefix} ({@code seams} in containers/debezium/orders-connector.json). */
    public static final String CONNECTOR_TOPIC_PREFIX = PREFIX + "seams";
    /**
     * The connector's heartbeat topic ({@code topic.heartbeat.prefix}.{@code topic.prefix}; claim B14 "wal
     * retention"): created with the others, as a cluster without automatic topic creation needs it (docs/source.md).
     */
    public static final String HEARTBEAT = "__debezium-heartbeat." + CONNECTOR_TOPIC_PREFIX;

    private RunNames() {
    }

    /**
     * @param name a name a claim makes up (a group, a scratch topic)
     * @return it with the run's prefix
     */
    public static String of(String name) {
        return PREFIX + name;
    }

    /**
     * @param mode a sink mode
     * @return the topic it consumes in this run ({@link SinkMode#topic()} with the prefix)
     */
    public static String topic(SinkMode mode) {
        return PREFIX + mode.topic();
    }

    /**
     * @param stand a value of {@value #STAND_PROPERTY}: {@code local} or {@code external}
     * @param given {@value #PREFIX_PROPERTY}, or null or empty for none
     * @param now   the run's start, for a prefix nobody gave
     * @return the run's prefix: empty on a local stand, else the given one or {@code seams_<seconds in base 36>_}
     * @throws IllegalArgumentException for another stand, a prefix on a local stand (whose names are the shipped ones),
     *     or a prefix that does not start with a lower-case letter, holds other characters than lower-case letters,
     *     digits and {@code _} (those a replication slot allows, and every other name too) or does not end with {@code _}
     *     (the run's removal drops whatever starts with it: {@code s} would take every database named {@code s…})
     */
    static String prefix(String stand, String given, Instant now) {
        switch (stand) {
            case "local" -> {
                if (given != null && !given.isEmpty()) {
                    throw new IllegalArgumentException("-D" + PREFIX_PROPERTY + " applies to -D" + STAND_PROPERTY
                            + "=external only: the suite's own stand runs the shipped names");
                }
                return "";
            }
            case "external" -> {
                String prefix = given != null && !given.isEmpty() ? given : "seams_" + Long.toString(now.getEpochSecond(), 36) + "_";
                if (!LEGAL.matcher(prefix).matches()) {
                    throw new IllegalArgumentException("-D" + PREFIX_PROPERTY + " starts with a lower-case letter, holds "
                            + "lower-case letters, digits and '_' only (a replication slot's characters) and ends with '_', got '"
                            + prefix + "'");
                }
                return prefix;
            }
            default -> throw new IllegalArgumentException("-D" + STAND_PROPERTY + " is local or external, got '" + stand + "'");
        }
    }
}
