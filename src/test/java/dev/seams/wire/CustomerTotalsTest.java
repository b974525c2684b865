package dev.seams.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import org.junit.jupiter.api.Test;

/** The {@code customer.totals} value: exact JSON, strict parsing, and the per-customer version (claims G2, B10, B11). */
class CustomerTotalsTest {

    @Test
    void toJsonIsExactText() {
        assertThat(new CustomerTotals(3, 27, new BigDecimal("1112.08"), 42).toJson())
                .isEqualTo("{\"customer_id\":3,\"orders\":27,\"total\":\"1112.08\",\"version\":42}");
        assertThat(new CustomerTotals(5, 1, new BigDecimal("7"), 1).toJson())
                .isEqualTo("{\"customer_id\":5,\"orders\":1,\"total\":\"7.00\",\"version\":1}");
        assertThat(new CustomerTotals(5, 0, BigDecimal.ZERO, 2).toJson())
                .isEqualTo("{\"customer_id\":5,\"orders\":0,\"total\":\"0.00\",\"version\":2}");
        assertThat(new CustomerTotals(5, 1, new BigDecimal("-5.00"), 1).toJson())
                .isEqualTo("{\"customer_id\":5,\"orders\":1,\"total\":\"-5.00\",\"version\":1}");
    }

    @Test
    void fromJsonReadsItsOwnOutputAndIgnoresUnknownFields() {
        CustomerTotals t = new CustomerTotals(3, 27, new BigDecimal("1112.08"), 42);

        assertThat(CustomerTotals.fromJson(t.toJson())).isEqualTo(t);
        assertThat(CustomerTotals.fromJson("{\"customer_id\":3,\"orders\":27,\"total\":1112.08,\"version\":42,\"currency\":\"RUB\"}"))
                .isEqualTo(t);
    }

    @Test
    void fromJsonNamesTheMissingField() {
        assertThatThrownBy(() -> CustomerTotals.fromJson("{\"customer_id\":1,\"orders\":1}"))
                .isInstanceOf(InvalidJsonException.class)
                .hasMessage("customer totals: field \"total\" is missing");
        assertThatThrownBy(() -> CustomerTotals.fromJson("{\"customer_id\":1,\"orders\":1,\"total\":\"1.00\"}"))
                .isInstanceOf(InvalidJsonException.class)
                .hasMessage("customer totals: field \"version\" is missing");
    }

    @Test
    void plusAndMinusAreExactAndEachAddsOneToTheVersion() {
        OrderEvent a = new OrderEvent(1, 4, new BigDecimal("0.10"));
        OrderEvent b = new OrderEvent(2, 4, new BigDecimal("0.20"));

        CustomerTotals both = CustomerTotals.empty().plus(a).plus(b);
        assertThat(both).isEqualTo(new CustomerTotals(4, 2, new BigDecimal("0.30"), 2));
        assertThat(both.minus(a).minus(b).toJson())
                .isEqualTo("{\"customer_id\":4,\"orders\":0,\"total\":\"0.00\",\"version\":4}");
    }

    @Test
    void aRefundMakesTheTotalNegative() {
        CustomerTotals refund = CustomerTotals.empty().plus(new OrderEvent(1, 7, new BigDecimal("-5.00")));

        assertThat(refund).isEqualTo(new CustomerTotals(7, 1, new BigDecimal("-5.00"), 1));
    }

    @Test
    void moneyIsCanonicalWhateverItsScaleNeverRounded() {
        java.util.Random random = new java.util.Random(26);
        java.util.List<BigDecimal> amounts = new java.util.ArrayList<>(java.util.List.of(new BigDecimal("1.10"), new BigDecimal("12.000"),
                new BigDecimal("1.005"), new BigDecimal("7"), new BigDecimal("0.00"), new BigDecimal("-0.00"), new BigDecimal("1E+3"),
                new BigDecimal("-0.50"), new BigDecimal("0.1"), new BigDecimal("100.0000")));
        for (int i = 0; i < 2_000; i++) {
            amounts.add(BigDecimal.valueOf(random.nextLong() % 10_000_000, random.nextInt(8) - 2));
        }
        for (BigDecimal amount : amounts) {
            BigDecimal stripped = amount.stripTrailingZeros();
            BigDecimal canonical = stripped.scale() < 2 ? stripped.setScale(2) : stripped;
            assertThat(new CustomerTotals(1, 1, amount, 1).total()).as("%s", amount).isEqualTo(canonical);
            assertThat(Json.moneyOrNull(amount)).as("%s", amount).isEqualTo(canonical);
        }
    }
}
