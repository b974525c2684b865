package dev.seams.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.seams.consumer.GroupMembership;
import dev.seams.consumer.KafkaSource;
import dev.seams.consumer.OffsetFault;
import dev.seams.consumer.RunWindow;
import dev.seams.kafka.KafkaClientConfig;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Defaults and copies of the sink's settings (DLQ topic, value limit, no customer range, the run
 * windows, static membership, group and target, the three test-only switches) and that they never print the password.
 */
class SinkOptionsTest {

    private final SinkOptions defaults = SinkOptions.defaults("localhost:9092",
            new ClickHouseTarget("http://localhost:8123", "default", "", "default"), SinkMode.TOTALS);

    @Test
    void defaultsValidateAndDeadLetterIntoTheTopicsDlq() {
        assertThat(defaults.rejects().dlqTopic()).isEqualTo("customer.totals.dlq");
        assertThat(SinkOptions.defaultDlqTopic(SinkMode.DEDUP_DEMO)).isEqualTo("orders.events.dlq");
        assertThat(defaults.rejects().maxValueBytes()).isEqualTo(TotalsValidator.DEFAULT_MAX_VALUE_BYTES);
        assertThat(defaults.faults()).isEqualTo(SinkFaults.NONE);
        assertThat(defaults.window().untilIdle()).isEqualTo(Duration.ofSeconds(5));
        assertThat(defaults.window().runFor()).isNull();
    }

    @Test
    void defaultsAcceptEveryCustomerTakeTheVersionFromStreamsAndJoinDynamically() {
        assertThat(defaults.rejects().customers()).as("--customers is opt-in (B11)").isNull();
        assertThat(defaults.faults().offsetAsVersion()).isFalse();
        assertThat(defaults.window().untilCaughtUp()).isFalse();
        assertThat(defaults.membership().instanceId()).isNull();
        assertThat(defaults.membership().sessionTimeout()).isNull();
        assertThat(defaults.clickhouse().timeout()).isEqualTo(ClickHouseTarget.DEFAULT_TIMEOUT);
    }

    @Test
    void copiesChangeOneSettingEach() {
        SinkOptions changed = defaults.withFromStart(true).withDup(true).withIsolation("read_uncommitted")
                .withCustomers(CustomerRange.parse("2..9")).withDlqTopic("x.dlq").withValidation(false)
                .withRunFor(Duration.ofSeconds(12));

        assertThat(changed).isEqualTo(new SinkOptions(new KafkaSource("localhost:9092", "customer.totals", "read_uncommitted",
                KafkaClientConfig.NONE), GroupMembership.dynamic("ds-sink"), new RunWindow(Duration.ofSeconds(12), null, false),
                true, SinkMode.TOTALS, defaults.clickhouse(), new Rejects(new CustomerRange(2, 9), "x.dlq",
                TotalsValidator.DEFAULT_MAX_VALUE_BYTES), Batching.PER_POLL, SinkOptions.DEFAULT_COMMIT_INTERVAL,
                new SinkFaults(true, true, false, Duration.ZERO, OffsetFault.NONE)));
        assertThat(changed.withUntilIdle(Duration.ofSeconds(3)).window()).isEqualTo(new RunWindow(null, Duration.ofSeconds(3), false));
        assertThat(changed.withCustomers(null).rejects().customers()).isNull();
    }

    @Test
    void theNewSettingsCopyToo() {
        SinkOptions changed = defaults.withOffsetAsVersion(true).withInstanceId("sink-1")
                .withSessionTimeout(Duration.ofSeconds(10)).withUntilCaughtUp().withCommitInterval(Duration.ZERO);

        assertThat(changed.faults().offsetAsVersion()).isTrue();
        assertThat(changed.membership().instanceId()).isEqualTo("sink-1");
        assertThat(changed.membership().sessionTimeout()).isEqualTo(Duration.ofSeconds(10));
        assertThat(changed.commitInterval()).isZero();
        assertThat(defaults.commitInterval()).isEqualTo(SinkOptions.DEFAULT_COMMIT_INTERVAL);
        assertThatThrownBy(() -> defaults.withCommitInterval(Duration.ofMillis(-1))).isInstanceOf(IllegalArgumentException.class);
        assertThat(changed.window()).isEqualTo(new RunWindow(null, null, true));
        assertThat(changed.withUntilIdle(Duration.ofSeconds(1)).window()).isEqualTo(new RunWindow(null, Duration.ofSeconds(1), false));
        assertThat(changed.withRunFor(Duration.ofSeconds(2)).window()).isEqualTo(new RunWindow(Duration.ofSeconds(2), null, false));
    }

    @Test
    void groupTargetAndTheTestOnlyInsertDelayCopyToo() {
        SinkOptions changed = defaults.withGroupId("scratch").withClickhouse(defaults.clickhouse().withDatabase("twin"))
                .withInsertDelay(Duration.ofMillis(800));

        assertThat(defaults.faults().insertDelay()).as("no delay unless a test injects one").isEqualTo(Duration.ZERO);
        assertThat(changed.membership().groupId()).isEqualTo("scratch");
        assertThat(changed.clickhouse().database()).isEqualTo("twin");
        assertThat(changed.faults().insertDelay()).isEqualTo(Duration.ofMillis(800));
        assertThat(changed.withDup(true).faults().insertDelay()).as("kept by later copies").isEqualTo(Duration.ofMillis(800));
        assertThat(defaults.faults().offsetFault()).as("no offset fault unless a test injects one").isEqualTo(OffsetFault.NONE);
        assertThat(changed.withOffsetFault(OffsetFault.COMMIT_BEFORE_WRITE).withDup(true).faults().offsetFault())
                .isEqualTo(OffsetFault.COMMIT_BEFORE_WRITE);
        assertThatThrownBy(() -> defaults.withInsertDelay(Duration.ofMillis(-1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("insert delay must not be negative, got PT-0.001S");
    }

    @Test
    void invalidCombinationsAreRefused() {
        assertThatThrownBy(() -> new RunWindow(Duration.ofSeconds(1), Duration.ofSeconds(1), false))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("at most one of --for, --until-idle, --until-caught-up and --run-until-stopped may be given");
        assertThatThrownBy(() -> new RunWindow(null, Duration.ofSeconds(1), true))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("at most one of --for, --until-idle, --until-caught-up and --run-until-stopped may be given");
        assertThatThrownBy(() -> defaults.withIsolation("serializable")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("isolation must be read_committed or read_uncommitted, got serializable");
        assertThatThrownBy(() -> new Rejects(new CustomerRange(1, 5), "d", 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("max value bytes must be >= 1, got 0");
    }

    @Test
    void thePasswordIsNeverPrinted() {
        SinkOptions secret = SinkOptions.defaults("b:1", new ClickHouseTarget("http://ch:8123", "u", "s3cr3t", "db"), SinkMode.TOTALS);

        assertThat(secret.toString()).doesNotContain("s3cr3t").contains("password=***");
        assertThat(secret.clickhouse().toString()).isEqualTo(
                "ClickHouseTarget[endpoint=http://ch:8123, user=u, password=***, database=db, timeout=PT30S]");
    }

    @Test
    void theClickHouseTimeoutMustBePositive() {
        assertThatThrownBy(() -> defaults.clickhouse().withTimeout(Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("--clickhouse-timeout must be > 0, got PT0S");
        assertThat(defaults.clickhouse().withTimeout(Duration.ofSeconds(10)).timeout()).isEqualTo(Duration.ofSeconds(10));
    }

    @Test
    void theUsersKafkaConfigReachesTheConsumerButNotOverItsOwnSettings() {
        SinkOptions secured = defaults.withKafkaConfig(new KafkaClientConfig(Map.of("security.protocol", "SSL",
                "ssl.truststore.location", "/etc/kafka/truststore.jks")));

        assertThat(Sink.consumerProperties(secured)).containsEntry("security.protocol", "SSL")
                .containsEntry("ssl.truststore.location", "/etc/kafka/truststore.jks")
                .containsEntry("isolation.level", "read_committed").containsEntry("enable.auto.commit", "false");
        assertThat(secured.toString()).contains("KafkaClientConfig[security.protocol, ssl.truststore.location]");
        SinkOptions otherGroup = defaults.withKafkaConfig(new KafkaClientConfig(Map.of("group.id", "someone-else")));
        assertThatThrownBy(() -> Sink.consumerProperties(otherGroup)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("group.id");
    }
}
