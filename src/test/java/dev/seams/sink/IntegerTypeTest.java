package dev.seams.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** What a ClickHouse integer column holds, the check the sink makes before writing an id (B15: customer_id bigint). */
class IntegerTypeTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            Int32            | -2147483648          | 2147483647
            Int64            | -9223372036854775808 | 9223372036854775807
            UInt8            | 0                    | 255
            UInt64           | 0                    | 9223372036854775807
            Nullable(Int16)  | -32768               | 32767
            """)
    void readsTheRangeOfEachType(String type, long min, long max) {
        IntegerType parsed = IntegerType.parse(type);

        assertThat(parsed.min()).isEqualTo(min);
        assertThat(parsed.max()).isEqualTo(max);
        assertThat(IntegerType.parse("Decimal(18, 2)")).isNull();
    }

    @Test
    void aCustomerBeyond32BitsStopsTheRunOnAnInt32ColumnAndFitsTheShippedInt64() {
        TargetColumns int32 = new TargetColumns("seams", Map.of("customer_totals.customer_id", "Int32"));
        TargetColumns shipped = new TargetColumns("seams", Map.of("customer_totals.customer_id", "Int64"));

        TargetTooNarrowException e = catchThrowableOfType(TargetTooNarrowException.class,
                () -> int32.requireFits("customer_totals", "customer_id", 3_000_000_001L));

        assertThat(e).hasMessageStartingWith("customer_id 3000000001 does not fit customer_totals.customer_id Int32 "
                + "(-2147483648..2147483647); to carry it the column must be Int64");
        assertThat(shipped.requireFits("customer_totals", "customer_id", 3_000_000_001L)).isEqualTo(3_000_000_001L);
        assertThat(int32.requireFits("customer_totals", "customer_id", 2_147_483_647L)).isEqualTo(2_147_483_647L);
    }
}
