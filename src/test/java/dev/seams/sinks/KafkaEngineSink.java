package dev.seams.sinks;

import static org.awaitility.Awaitility.await;

import dev.seams.project.Project;
import dev.seams.report.NotApplicableException;
import dev.seams.sink.SinkMode;
import dev.seams.sink.SinkOptions;
import dev.seams.sink.SinkSummary;
import dev.seams.stand.ContainerControl;
import dev.seams.stand.ExternalStand;
import dev.seams.stand.Stand;
import dev.seams.truth.ClickHouse;
import dev.seams.truth.Endpoints;
import dev.seams.truth.Topics;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.TopicPartition;

/**
 * ClickHouse's Kafka table engine as the sink under test ({@code -Dseams.sink=kafka-engine}; docs/sinks.md): the
 * statements of {@code containers/clickhouse/kafka-engine/totals.sql} — per target table ({@code raw_totals},
 * {@code customer_totals}) a Kafka engine table on the topic and a materialized view into the table — created for the
 * run and dropped at its end, views first. The engine table of {@code raw_totals} reads in the run's consumer group,
 * that of {@code customer_totals} in {@code <group>.customer_totals} ({@link #groups}). The engine commits a block's
 * offsets after its view wrote it, so "caught up" is read from both groups' committed offsets, as for ds-sink. A group
 * without committed offsets on the topic, or a run {@link SinkOptions#fromStart()}, gets them at the topic's start
 * first (the engine's librdkafka would otherwise start at the end). What the engine lacks ({@link #traits()}): a dead-letter queue, the record's position,
 * a process of its own, the dedup-demo mode, a per-run isolation level and ds-sink's own options; a run that sets any
 * of them is {@link NotApplicableException}.
 */
public final class KafkaEngineSink implements SinkUnderTest {

    /** Its name for {@code -Dseams.sink}. */
    public static final String NAME = "kafka-engine";
    /** The statements it runs, shipped beside the tables they write into. */
    public static final Path DDL = Path.of("containers/clickhouse/kafka-engine/totals.sql");
    /** The engine tables, in the order their views are dropped: each {@code seams_kafka_<table>}, its view {@code …_mv}. */
    static final List<String> ENGINE_TABLES = List.of("seams_kafka_raw_totals", "seams_kafka_customer_totals");
    /**
     * Longest wait for the engine to catch up: its first block is flushed ~5 s after the views are attached
     * (stream_flush_interval_ms 7.5 s on 18.16), a stand's topics hold thousands of records, not millions.
     */
    private static final Duration CATCH_UP_TIMEOUT = Duration.ofMinutes(2);

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Set<SinkTrait> traits() {
        return EnumSet.noneOf(SinkTrait.class);
    }

    @Override
    public SinkSummary drain(Endpoints endpoints, SinkOptions options) {
        Stand stand = ExternalStand.processControl(endpoints, "the engine's ClickHouse reaches Kafka on the suite's own network, and is restarted if a drop kills it");
        honoured(options, SinkOptions.defaults(stand.bootstrapServers(), options.clickhouse(), options.mode()));
        String topic = options.source().topic();
        String group = options.membership().groupId();
        String database = options.clickhouse().database();
        ClickHouse ch = ClickHouse.of(options.clickhouse());
        Topics topics = stand.topics();
        Map<TopicPartition, Long> target = topics.lastStableOffsets(topic);
        CatchUp.startGroups(stand, groups(group), topic, options.fromStart());
        long rawBefore = ch.scalar("SELECT count() FROM " + database + ".raw_totals");
        List<String> statements = statements(database, stand.kafkaOnNetwork(), topic, group);
        drop(ch, database);
        RuntimeException failed = null;
        try {
            statements.forEach(ch::execute);
            if (options.window().runFor() != null) {
                CatchUp.runFor(NAME, options.window().runFor(), () -> ch.scalar("SELECT 1") == 1);
            } else {
                CatchUp.await(NAME, topics, groups(group), topic, target, CATCH_UP_TIMEOUT,
                        "the engine logs why it stopped in ClickHouse's server log (target/stand-logs/clickhouse.log)");
            }
        } catch (RuntimeException e) {
            failed = e;
            throw e;
        } finally {
            try {
                drop(ch, database);
                if (failed instanceof CatchUp.SinkStoppedException) {
                    groups(group).forEach(g -> CatchUp.moveGroupPast(stand, g, target));
                }
                requireClickHouseAlive(stand);
            } catch (RuntimeException e) {
                if (failed == null) {
                    throw e;
                }
                failed.addSuppressed(e);
            }
        }
        long inserted = ch.scalar("SELECT count() FROM " + database + ".raw_totals") - rawBefore;
        return new SinkSummary(inserted, 0, 0, 0, 0, 0, false, options.fromStart(), options.mode().cliName());
    }

    /**
     * A fault run's sink (claim B5): the engine tables and their views attached with the shipped names, each group
     * started at the topic's start when it has no committed offsets, until closed (then dropped). The engine runs
     * inside ClickHouse: a ClickHouse fault is a fault of the sink, and it has no process of its own.
     */
    @Override
    public RunningSink start(Stand stand) {
        SinkOptions options = SinkOptions.defaults(stand.bootstrapServers(), stand.clickhouseTarget(), SinkMode.TOTALS);
        String topic = options.source().topic();
        String group = options.membership().groupId();
        String database = options.clickhouse().database();
        ClickHouse ch = ClickHouse.of(options.clickhouse());
        CatchUp.startGroups(stand, groups(group), topic, false);
        drop(ch, database);
        statements(database, stand.kafkaOnNetwork(), topic, group).forEach(ch::execute);
        return new RunningSink() {
            @Override
            public String name() {
                return NAME;
            }

            @Override
            public List<String> groups() {
                return KafkaEngineSink.this.groups(group);
            }

            /** @return nothing: the engine logs into ClickHouse's server log (target/stand-logs/clickhouse.log) */
            @Override
            public String output() {
                return "";
            }

            @Override
            public boolean logsRetries() {
                return false;
            }

            @Override
            public ContainerControl process(String why) {
                throw SinkTrait.PROCESS.missingFrom(NAME, why);
            }

            @Override
            public boolean isConnected() {
                return true;
            }

            /** Drops the engine tables (views first); a ClickHouse that exited on the drop is started again and named. */
            @Override
            public void close() {
                drop(ClickHouse.of(stand.clickhouseTarget()), database);
                requireClickHouseAlive(stand);
            }
        };
    }

    /** @throws NotApplicableException for the first option the engine cannot honour ({@link Honoured}) */
    static void honoured(SinkOptions options, SinkOptions defaults) {
        Honoured.check(NAME, EnumSet.noneOf(SinkTrait.class), options, defaults);
    }

    /**
     * @param database the database of the target tables ({@code raw_totals}, {@code customer_totals})
     * @param broker   the brokers as ClickHouse reaches them
     * @param topic    the topic
     * @param group    the run's group ({@code customer_totals}' engine table reads in {@code <group>.customer_totals})
     * @return the shipped statements ({@link #DDL}) with these names filled in, in order
     * @throws UncheckedIOException if the file cannot be read
     */
    public static List<String> statements(String database, String broker, String topic, String group) {
        String script;
        try {
            script = Files.readString(Project.root().resolve(DDL));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + DDL, e);
        }
        return ClickHouse.statements(script).stream().map(sql -> sql.replace("{database}", database).replace("{broker}", broker)
                .replace("{topic}", topic).replace("{group}", group)).toList();
    }

    /**
     * Drops each view, then its engine table (the order 18.16 needs); what is not there is skipped.
     *
     * @param database where {@link #statements} created them
     */
    public static void drop(ClickHouse ch, String database) {
        for (String table : ENGINE_TABLES) {
            ch.execute("DROP TABLE IF EXISTS " + database + "." + table + "_mv");
            ch.execute("DROP TABLE IF EXISTS " + database + "." + table);
        }
    }

    /**
     * @param group the run's consumer group
     * @return the engine tables' groups: {@code raw_totals}' is the run's, {@code customer_totals}' is
     *     {@code <group>.customer_totals}
     */
    @Override
    public List<String> groups(String group) {
        return List.of(group, group + ".customer_totals");
    }

    /**
     * ClickHouse 18.16 has aborted once when an engine table was dropped (docs/findings.md): then the server is started
     * again ({@link Stand#restartClickHouseIfExited}), so that the claims after this one have their ClickHouse, and this
     * run fails by name.
     *
     * @throws IllegalStateException if ClickHouse exited during the drop
     */
    private static void requireClickHouseAlive(Stand stand) {
        stand.restartClickHouseIfExited().ifPresent(status -> {
            throw new IllegalStateException(NAME + ": ClickHouse exited (status " + status + ") when the engine's tables were "
                    + "dropped; it was started again (see target/stand-logs/clickhouse.log)");
        });
    }
}
