package dev.seams.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.seams.seed.OrderSeeder;
import java.math.BigDecimal;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class OrderLoadTest {

    @Test
    void theSameSeedPlansTheSameLoad() {
        assertThat(OrderLoad.plan(500, 5, 7, OrderLoad.Mix.REAL).lines())
                .isEqualTo(OrderLoad.plan(500, 5, 7, OrderLoad.Mix.REAL).lines());
        assertThat(OrderLoad.plan(500, 5, 7, OrderLoad.Mix.REAL).lines())
                .isNotEqualTo(OrderLoad.plan(500, 5, 8, OrderLoad.Mix.REAL).lines());
    }

    @Test
    void aRealLoadHasEveryKindOfChange() {
        OrderLoad.Applied planned = OrderLoad.plan(20_000, 5, 1, OrderLoad.Mix.REAL).planned();
        assertThat(planned.changes()).isEqualTo(20_000);
        assertThat(planned.updatedAmount()).isBetween(2_700L, 3_300L);
        assertThat(planned.moved()).isBetween(800L, 1_200L);
        assertThat(planned.deleted()).isBetween(800L, 1_200L);
    }

    @Test
    void changesOnlyTouchLiveOrdersAndMovesChangeTheCustomer() {
        List<String> lines = OrderLoad.plan(5_000, 3, 3, OrderLoad.Mix.REAL).lines();
        Set<String> live = new HashSet<>();
        Map<String, String> customer = new HashMap<>();
        for (String line : lines) {
            String[] f = line.split(" ");
            if (f[0].equals("INSERT")) {
                assertThat(live.add(f[1])).as("a new order per insert").isTrue();
                customer.put(f[1], f[2]);
                continue;
            }
            assertThat(live).as("%s touches a live order", line).contains(f[1]);
            switch (f[0]) {
                case "MOVE" -> {
                    assertThat(f[2]).as("a move goes to another customer").isNotEqualTo(customer.get(f[1]));
                    customer.put(f[1], f[2]);
                }
                case "DELETE" -> live.remove(f[1]);
                default -> assertThat(f[2]).isEqualTo(customer.get(f[1]));
            }
            assertThat(Integer.parseInt(f[2])).isBetween(1, 3);
        }
    }

    @Test
    void theExpectedOutputCountsEveryApplicationOfTheAggregate() {
        OrderLoad load = OrderLoad.plan(2_000, 4, 11, OrderLoad.Mix.REAL);
        OrderLoad.Applied p = load.planned();
        OrderLoad.Expected x = load.expected();
        assertThat(x.snapshots()).isEqualTo(p.inserted() + p.updatedAmount() + 2 * p.moved() + p.deleted());
        assertThat(x.versionSteps().values().stream().mapToLong(Long::longValue).sum())
                .isEqualTo(p.inserted() + 2 * p.updatedAmount() + 2 * p.moved() + p.deleted());
        assertThat(x.versionSteps().keySet()).isSubsetOf(1L, 2L, 3L, 4L);
    }

    @Test
    void aLoadNeedsTwoCustomersAndAMixBelowOne() {
        assertThatThrownBy(() -> OrderLoad.plan(10, 1, 1, OrderLoad.Mix.REAL)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> OrderLoad.plan(10, 5, 1, new OrderLoad.Mix(0.5, 0.3, 0.2))).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void anAcknowledgedChangeTheSourceLostIsCounted() {
        OrderLoad.Acknowledged acknowledged = new OrderLoad.Acknowledged(Map.of(
                1L, new OrderSeeder.Order(1, 3, new BigDecimal("10.00")),
                2L, new OrderSeeder.Order(2, 4, new BigDecimal("20.00")),
                3L, new OrderSeeder.Order(3, 5, new BigDecimal("30.00"))), Set.of(4L));
        Map<Long, OrderSeeder.Order> source = new HashMap<>(Map.of(
                1L, new OrderSeeder.Order(1, 3, new BigDecimal("10.0")),   // the same amount, another scale
                2L, new OrderSeeder.Order(2, 4, new BigDecimal("20.00")),
                3L, new OrderSeeder.Order(3, 5, new BigDecimal("30.00")),
                9L, new OrderSeeder.Order(9, 1, new BigDecimal("1.00"))));   // a row the load did not acknowledge: not counted
        assertThat(acknowledged.differingIn(source)).isZero();

        source.put(2L, new OrderSeeder.Order(2, 1, new BigDecimal("20.00")));   // the move lost
        source.remove(3L);                                                      // the insert lost
        source.put(4L, new OrderSeeder.Order(4, 2, new BigDecimal("5.00")));    // the delete lost
        assertThat(acknowledged.differingIn(source)).isEqualTo(3);
        assertThat(OrderLoad.Acknowledged.NONE.differingIn(source)).isZero();
    }
}
