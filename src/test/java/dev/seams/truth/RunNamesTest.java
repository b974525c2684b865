package dev.seams.truth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The run's names: shipped on the suite's own stand, prefixed on an existing one (docs/stand.md). */
class RunNamesTest {

    private static final Instant NOW = Instant.ofEpochSecond(1_765_000_000L);

    @Test
    void theSuitesOwnStandRunsTheShippedNames() {
        assertThat(RunNames.prefix("local", null, NOW)).isEmpty();
        assertThat(RunNames.prefix("local", "", NOW)).as("Maven's empty default").isEmpty();
    }

    @Test
    void everyNameIsTheShippedOneAfterThePrefix() {   // whatever stand this JVM was given (mvn verify passes -D to both)
        String p = RunNames.PREFIX;
        assertThat(RunNames.CUSTOMER_TOTALS).isEqualTo(p + "customer.totals");
        assertThat(RunNames.ORDERS_EVENTS_DLQ).isEqualTo(p + "orders.events.dlq");
        assertThat(RunNames.STREAMS_GROUP).isEqualTo(p + "ds-streams");
        assertThat(RunNames.SINK_GROUP).isEqualTo(p + "ds-sink");
        assertThat(RunNames.CONNECTOR).isEqualTo(p + "orders-connector");
        assertThat(RunNames.HEARTBEAT).isEqualTo("__debezium-heartbeat." + p + "seams");
    }

    @Test
    void anExternalStandTakesTheGivenPrefixOrMakesOne() {
        assertThat(RunNames.prefix("external", "ci7_", NOW)).isEqualTo("ci7_");
        assertThat(RunNames.prefix("external", null, NOW)).isEqualTo("seams_" + Long.toString(1_765_000_000L, 36) + "_");
        assertThat(RunNames.prefix("external", "", NOW)).as("Maven's empty default: never the shipped names on a shared stand")
                .isEqualTo("seams_" + Long.toString(1_765_000_000L, 36) + "_");
    }

    @Test
    void aPrefixASlotCannotHoldIsRefused() {
        assertThatThrownBy(() -> RunNames.prefix("external", "7ci_", NOW)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'7ci_'");
        assertThatThrownBy(() -> RunNames.prefix("external", "s", NOW)).as("the removal would take every name s…")
                .hasMessageContaining("ends with '_'");
    }

    @Test
    void aPrefixOnTheSuitesOwnStandOrAnUnknownStandIsRefused() {
        assertThatThrownBy(() -> RunNames.prefix("local", "ci7_", NOW)).hasMessageContaining("external only");
        assertThatThrownBy(() -> RunNames.prefix("k8s", null, NOW)).hasMessageContaining("local or external");
    }
}
