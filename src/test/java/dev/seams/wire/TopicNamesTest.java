package dev.seams.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The shipped topic names and a run's prefixed ones (docs/stand.md "An existing stand"). */
class TopicNamesTest {

    @Test
    void theShippedNamesHaveNoPrefix() {
        assertThat(TopicNames.SHIPPED.ordersEvents()).isEqualTo("orders.events");
        assertThat(TopicNames.SHIPPED.ordersEventsDlq()).isEqualTo("orders.events.dlq");
        assertThat(TopicNames.SHIPPED.customerTotals()).isEqualTo("customer.totals");
        assertThat(TopicNames.SHIPPED.customerTotalsDlq()).isEqualTo("customer.totals.dlq");
    }

    @Test
    void aPrefixGoesBeforeEveryName() {
        TopicNames run = new TopicNames("seams_r1_");

        assertThat(run.ordersEvents()).isEqualTo("seams_r1_orders.events");
        assertThat(run.ordersEventsDlq()).isEqualTo("seams_r1_orders.events.dlq");
        assertThat(run.customerTotals()).isEqualTo("seams_r1_customer.totals");
        assertThat(run.customerTotalsDlq()).isEqualTo(TopicNames.deadLetters(run.customerTotals()));
    }

    @Test
    void aPrefixKafkaWouldRefuseIsRefusedHere() {
        assertThatThrownBy(() -> new TopicNames("run 7/")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'run 7/'");
    }
}
