package dev.seams.inbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.seams.consumer.GroupMembership;
import dev.seams.consumer.KafkaSource;
import dev.seams.consumer.RunWindow;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Options, names and the summary line of the inbox sink (claim B4). */
class InboxSettingsTest {

    private static InboxOptions options(int commitSize, int keepFactor, Duration runFor, Duration untilIdle) {
        return new InboxOptions(KafkaSource.readCommitted("localhost:9092", "orders.events"),
                GroupMembership.dynamic("ds-inbox"), new RunWindow(runFor, untilIdle, false),
                new InboxTarget("jdbc:postgresql://localhost/ledger", "test", "test"), InboxMode.INBOX, commitSize,
                keepFactor, InboxFaults.NONE);
    }

    @Test
    void theKeysWindowIsKeepFactorTimesCommitSize() {
        assertThat(options(100, 3, null, Duration.ofSeconds(5)).keep()).isEqualTo(300);
        assertThat(options(7, 2, Duration.ofSeconds(1), null).keep()).isEqualTo(14);
    }

    @Test
    void rejectsInvalidSettings() {
        assertThatThrownBy(() -> options(0, 3, null, Duration.ofSeconds(5))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> options(100, 0, null, Duration.ofSeconds(5))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> options(Integer.MAX_VALUE, 2, null, Duration.ofSeconds(5)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(options(100, 3, null, null).window().untilStopped()).as("no window: until stopped").isTrue();
        assertThatThrownBy(() -> options(100, 3, Duration.ofSeconds(1), Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void oneKeysTablePerTopicWithASafeName() {
        assertThat(InboxStore.keysTable("orders.events")).isEqualTo("processed_keys_orders_events");
        assertThat(InboxStore.keysTable("Other-Topic.v2")).isEqualTo("processed_keys_other_topic_v2");
        assertThat(InboxStore.keysTable("x'; DROP TABLE orders; --")).matches("[a-z0-9_]+");
        assertThatThrownBy(() -> InboxStore.keysTable("t".repeat(60))).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void modesRoundTripTheirNames() {
        for (InboxMode mode : InboxMode.values()) {
            assertThat(InboxMode.fromCliName(mode.cliName())).isEqualTo(mode);
        }
        assertThatThrownBy(() -> InboxMode.fromCliName("totals")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void summaryLineNamesEveryCounter() {
        InboxSummary summary = new InboxSummary(50, 5000, 4900, 100, 7, 0, 4600, 1, 0, 2, 0, "inbox", 100, 300);

        assertThat(summary.line()).isEqualTo("inbox: records=5000 inserted=4900 skipped=100 redelivered=7 tombstones=0 "
                + "trimmed=4600 polls=50 db_errors=1 commit_errors=0 fetch_errors=2 uncommitted=0 (mode=inbox, "
                + "commit-size=100, keep=300)");
        assertThat(summary.line()).startsWith(InboxSummary.LINE_PREFIX);
    }

    @Test
    void thePasswordIsNeverPrinted() {
        InboxOptions options = new InboxOptions(KafkaSource.readCommitted("b:1", "orders.events"),
                GroupMembership.dynamic("ds-inbox"), new RunWindow(null, Duration.ofSeconds(5), false),
                new InboxTarget("jdbc:postgresql://h/db", "u", "s3cr3t"), InboxMode.INBOX, 100, 3, InboxFaults.NONE);

        assertThat(options.toString()).doesNotContain("s3cr3t").contains("password=***").contains("user=u");
    }
}
