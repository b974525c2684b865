package dev.seams.sinks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.seams.report.NotApplicableException;
import dev.seams.sink.ClickHouseTarget;
import dev.seams.sink.CustomerRange;
import dev.seams.sink.SinkMode;
import dev.seams.sink.SinkOptions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/** The choice of the sink under test and what each one honours, without a stand. */
class SinkUnderTestTest {

    private static final ClickHouseTarget CH = new ClickHouseTarget("http://localhost:8123", "default", "s3cret", "default");

    private static SinkOptions defaults(SinkMode mode) {
        return SinkOptions.defaults("localhost:9092", CH, mode).withUntilCaughtUp();
    }

    @Test
    void dsSinkIsTheDefaultAndAnUnknownNameIsRefusedWithTheKnownOnes() {
        assertThat(SinkUnderTest.named("").name()).isEqualTo("ds-sink");
        assertThat(SinkUnderTest.named("kafka-engine").name()).isEqualTo("kafka-engine");
        assertThatThrownBy(() -> SinkUnderTest.named("kafka-engien")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("-Dseams.sink=kafka-engien").hasMessageContaining("ds-sink, kafka-engine");
    }

    @Test
    void aClaimNeedingWhatTheSinkLacksIsNotApplicableWithTheSinkTheTraitAndTheNeedInItsReason() {
        new DsSink().require(SinkTrait.DEAD_LETTER_QUEUE, "G11 counts rejects");
        assertThatThrownBy(() -> new KafkaEngineSink().require(SinkTrait.DEAD_LETTER_QUEUE, "G11 counts rejects"))
                .isInstanceOf(NotApplicableException.class)
                .hasMessage("kafka-engine: " + SinkTrait.DEAD_LETTER_QUEUE.lacking() + " (G11 counts rejects)");
    }

    @Test
    void theKafkaEngineHonoursTheGroupTheTablesTheStartAndARunForASetTime() {
        SinkOptions d = defaults(SinkMode.TOTALS);
        for (UnaryOperator<SinkOptions> ok : List.<UnaryOperator<SinkOptions>>of(o -> o, o -> o.withGroupId("twin"),
                o -> o.withFromStart(true), o -> o.withRunFor(Duration.ofSeconds(20)),
                o -> o.withClickhouse(CH.withDatabase("scratch")))) {
            KafkaEngineSink.honoured(ok.apply(d), d);
        }
    }

    @Test
    void theKafkaEngineRefusesEachOptionItCannotHonourNamingWhatItLacks() {
        SinkOptions d = defaults(SinkMode.TOTALS);
        assertLacks(defaults(SinkMode.DEDUP_DEMO), d, SinkTrait.DEDUP_DEMO);
        assertLacks(d.withIsolation("read_uncommitted"), d, SinkTrait.ISOLATION_CHOICE);
        assertLacks(d.withDup(true), d, SinkTrait.DS_SINK_OPTIONS);
        assertLacks(d.withValidation(false), d, SinkTrait.DS_SINK_OPTIONS);
        assertLacks(d.withCustomers(new CustomerRange(1, 5)), d, SinkTrait.DS_SINK_OPTIONS);
        assertLacks(d.withDlqTopic("twin.dlq"), d, SinkTrait.DEAD_LETTER_QUEUE);
        assertLacks(d.withInstanceId("ds-sink-1"), d, SinkTrait.DS_SINK_OPTIONS);
        assertLacks(d.withCommitInterval(Duration.ZERO), d, SinkTrait.DS_SINK_OPTIONS);
        assertThatThrownBy(() -> KafkaEngineSink.honoured(d.withUntilIdle(Duration.ofSeconds(5)), d))
                .isInstanceOf(NotApplicableException.class).hasMessageContaining("no idle window");
    }

    private static void assertLacks(SinkOptions options, SinkOptions defaults, SinkTrait trait) {
        assertThatThrownBy(() -> KafkaEngineSink.honoured(options, defaults)).isInstanceOf(NotApplicableException.class)
                .hasMessageStartingWith("kafka-engine: " + trait.lacking());
    }

    @Test
    void theShippedStatementsCreateAnEngineTableAndThenItsViewPerTargetTableWithTheRunsNames() {
        List<String> sql = KafkaEngineSink.statements("seams", "kafka:19092", "customer.totals", "ds-sink");
        assertThat(sql).hasSize(4);
        assertThat(sql.get(0)).startsWith("CREATE TABLE seams.seams_kafka_raw_totals")
                .contains("ENGINE = Kafka('kafka:19092', 'customer.totals', 'ds-sink', 'JSONEachRow')");
        assertThat(sql.get(1)).startsWith("CREATE MATERIALIZED VIEW seams.seams_kafka_raw_totals_mv TO seams.raw_totals")
                .endsWith("FROM seams.seams_kafka_raw_totals");
        assertThat(sql.get(2)).startsWith("CREATE TABLE seams.seams_kafka_customer_totals")
                .contains("'ds-sink.customer_totals', 'JSONEachRow')");
        assertThat(sql.get(3)).startsWith("CREATE MATERIALIZED VIEW seams.seams_kafka_customer_totals_mv TO seams.customer_totals")
                .endsWith("FROM seams.seams_kafka_customer_totals");
        assertThat(new KafkaEngineSink().groups("ds-sink")).containsExactly("ds-sink", "ds-sink.customer_totals");
        assertThat(String.join("\n", sql)).doesNotContain("{").doesNotContain("--");
    }

    @Test
    void anImageNamesItsTraitsInALabelAndIsAlwaysAProcess() {
        assertThat(SinkUnderTest.named("image:seams/ds-sink:dev").name()).isEqualTo("image:seams/ds-sink:dev");
        assertThat(ImageSink.parseTraits(null)).containsExactly(SinkTrait.PROCESS);
        assertThat(ImageSink.parseTraits("dead-letter-queue, record-position,"))
                .containsExactlyInAnyOrder(SinkTrait.PROCESS, SinkTrait.DEAD_LETTER_QUEUE, SinkTrait.RECORD_POSITION);
        assertThatThrownBy(() -> ImageSink.parseTraits("dlq")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("names no trait \"dlq\"").hasMessageContaining("dead-letter-queue");
        assertThatThrownBy(() -> SinkUnderTest.named("image:")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void anImageGetsTheContractsEnvironmentAndTheDlqAndIsolationOnlyWithTheirTraits() {
        SinkOptions o = defaults(SinkMode.TOTALS).withGroupId("twin").withFromStart(true);
        Map<String, String> plain = ImageSink.environment("kafka:19092", o, ImageSink.parseTraits(""));
        assertThat(plain).containsEntry("SEAMS_BOOTSTRAP_SERVERS", "kafka:19092").containsEntry("SEAMS_TOPIC", "customer.totals")
                .containsEntry("SEAMS_GROUP", "twin").containsEntry("SEAMS_FROM_START", "true")
                .containsEntry("SEAMS_CLICKHOUSE_URL", "http://clickhouse:8123").containsEntry("SEAMS_CLICKHOUSE_DATABASE", "default")
                .containsEntry("SEAMS_CLICKHOUSE_PASSWORD_FILE", ImageSink.PASSWORD_FILE)
                .containsEntry("SEAMS_RAW_TABLE", "raw_totals").containsEntry("SEAMS_TOTALS_TABLE", "customer_totals")
                .doesNotContainKeys("SEAMS_DLQ_TOPIC", "SEAMS_ISOLATION");
        assertThat(plain.values()).as("no password in the environment").doesNotContain(CH.password());
        assertThat(ImageSink.environment("kafka:19092", o, ImageSink.parseTraits("dead-letter-queue,isolation-choice")))
                .containsEntry("SEAMS_DLQ_TOPIC", "customer.totals.dlq").containsEntry("SEAMS_ISOLATION", "read_committed");
    }

    @Test
    void aClaimThatDrivesDsSinksOwnCodeIsNotApplicableUnderAnotherSink() {
        String before = System.getProperty(SinkUnderTest.PROPERTY);
        try {
            System.clearProperty(SinkUnderTest.PROPERTY);
            SinkUnderTest.requireDsSink("B9 kills ds-sink's process");
            System.setProperty(SinkUnderTest.PROPERTY, "image:seams/ds-sink:dev");
            assertThatThrownBy(() -> SinkUnderTest.requireDsSink("B9 kills ds-sink's process"))
                    .isInstanceOf(NotApplicableException.class)
                    .hasMessageStartingWith("image:seams/ds-sink:dev: the claim drives ds-sink's own code (B9 kills ds-sink's process)");
        } finally {
            if (before == null) {
                System.clearProperty(SinkUnderTest.PROPERTY);
            } else {
                System.setProperty(SinkUnderTest.PROPERTY, before);
            }
        }
    }
}
