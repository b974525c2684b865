package dev.seams.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.math.BigDecimal;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The check before a money value is added to a row (B15): it fits its Decimal column exactly, or the run stops by name. */
class TargetColumnsTest {

    private static final BigDecimal VALUE = new BigDecimal("3.25");

    @Test
    void aMoneyColumnThatIsNoDecimalStopsTheRun() {
        TargetColumns floats = new TargetColumns("seams", Map.of("customer_totals.total", "Float64", "customer_totals.orders", "UInt64"));

        assertThat(catchThrowableOfType(TargetTooNarrowException.class, () -> floats.requireFits("customer_totals", "total", VALUE)))
                .hasMessageStartingWith("customer_totals.total is Float64, not a Decimal: money (total 3.25) is written only into a "
                        + "Decimal column that holds it exactly");
    }

    @Test
    void aTableWithoutTheColumnStopsTheRunAndAnUnlistedTableIsLeftToTheInsert() {
        TargetColumns other = new TargetColumns("seams", Map.of("customer_totals.amount", "Decimal(18, 2)"));

        assertThat(catchThrowableOfType(TargetTooNarrowException.class, () -> other.requireFits("customer_totals", "total", VALUE)))
                .hasMessageStartingWith("customer_totals.total is not a column of the table");
        assertThat(other.requireFits("raw_totals", "total", VALUE)).as("no column of raw_totals listed: the insert names the "
                + "missing table").isEqualTo(VALUE);
    }

    @Test
    void aValueNoDecimalHoldsSaysSoInsteadOfAnAlter() {
        TargetColumns shipped = new TargetColumns("seams", Map.of("customer_totals.total", "Decimal(18, 2)"));

        assertThat(catchThrowableOfType(TargetTooNarrowException.class,
                () -> shipped.requireFits("customer_totals", "total", new BigDecimal("1E+80"))))
                .hasMessageContaining("(81 integer digits > 16) without rounding; no ClickHouse Decimal holds it (76 digits at most)")
                .hasMessageNotContaining("ALTER");
    }
}
