package dev.seams.stand;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
}
