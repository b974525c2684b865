package dev.seams.sink;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** What a ClickHouse Decimal column holds exactly, the check the sink makes before writing a money value (B15). */
class DecimalTypeTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            Decimal(18, 2)           | Decimal(18, 2)
            Decimal(18,3)            | Decimal(18, 3)
            Nullable(Decimal(38, 10))| Decimal(38, 10)
            Decimal64(2)             | Decimal(18, 2)
            Decimal32(4)             | Decimal(9, 4)
            Decimal128(6)            | Decimal(38, 6)
            Int32                    | -
            String                   | -
            """)
    void readsTheTypesSystemColumnsNames(String type, String parsed) {
        assertThat(String.valueOf(DecimalType.parse(type)).replace("null", "-")).isEqualTo(parsed);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            1.00                 | true  | Decimal(18, 2)
            12.000               | true  | Decimal(18, 2)
            -9999999999999999.99 | true  | Decimal(18, 2)
            1.005                | false | Decimal(19, 3)
            -0.001               | false | Decimal(19, 3)
            99999999999999999    | false | Decimal(19, 2)
            1E+20                | false | Decimal(23, 2)
            """)
    void decimal18x2HoldsTwoDecimalsAndSixteenIntegerDigits(String value, boolean holds, String widened) {
        DecimalType shipped = new DecimalType(18, 2);

        assertThat(shipped.holds(new BigDecimal(value))).isEqualTo(holds);
        if (!holds) {
            assertThat(shipped.widenedFor(new BigDecimal(value))).hasToString(widened);
            assertThat(shipped.widenedFor(new BigDecimal(value)).holds(new BigDecimal(value))).isTrue();
        }
    }
}
