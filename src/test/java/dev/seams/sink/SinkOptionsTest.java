package dev.seams.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Defaults and copies of the sink's settings (DLQ topic, value limit, the test-only validation switch). */
class SinkOptionsTest {

    private final SinkOptions defaults = SinkOptions.defaults("localhost:9092",
            new ClickHouseTarget("http://localhost:8123", "default", "", "default"), SinkMode.TOTALS);

    @Test
    void defaultsValidateAndDeadLetterIntoTheTopicsDlq() {
        assertThat(defaults.dlqTopic()).isEqualTo("customer.totals.dlq");
        assertThat(SinkOptions.defaultDlqTopic(SinkMode.DEDUP_DEMO)).isEqualTo("orders.events.dlq");
        assertThat(defaults.maxValueBytes()).isEqualTo(TotalsValidator.DEFAULT_MAX_VALUE_BYTES);
        assertThat(defaults.validate()).isTrue();
        assertThat(defaults.untilIdle()).isEqualTo(Duration.ofSeconds(5));
        assertThat(defaults.runFor()).isNull();
    }

    @Test
    void copiesChangeOneSettingEach() {
        SinkOptions changed = defaults.withFromStart(true).withDup(true).withIsolation("read_uncommitted")
                .withCustomers(CustomerRange.parse("2..9")).withDlqTopic("x.dlq").withValidation(false)
                .withRunFor(Duration.ofSeconds(12));

        assertThat(changed).isEqualTo(new SinkOptions("localhost:9092", defaults.clickhouse(), SinkMode.TOTALS, "ds-sink",
                true, true, Duration.ofSeconds(12), null, "read_uncommitted", new CustomerRange(2, 9), "x.dlq",
                TotalsValidator.DEFAULT_MAX_VALUE_BYTES, false));
        assertThat(changed.withUntilIdle(Duration.ofSeconds(3))).extracting(SinkOptions::runFor, SinkOptions::untilIdle)
                .containsExactly(null, Duration.ofSeconds(3));
    }

    @Test
    void invalidCombinationsAreRefused() {
        assertThatThrownBy(() -> new SinkOptions("b", defaults.clickhouse(), SinkMode.TOTALS, "g", false, false,
                Duration.ofSeconds(1), Duration.ofSeconds(1), "read_committed", new CustomerRange(1, 5)))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("exactly one of --for and --until-idle must be given");
        assertThatThrownBy(() -> defaults.withIsolation("serializable")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new SinkOptions("b", defaults.clickhouse(), SinkMode.TOTALS, "g", false, false, null,
                Duration.ofSeconds(1), "read_committed", new CustomerRange(1, 5), "d", 0, true))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("max value bytes must be >= 1, got 0");
    }
}
