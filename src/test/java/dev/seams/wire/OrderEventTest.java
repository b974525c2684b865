package dev.seams.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class OrderEventTest {

    @Test
    void parsesDebeziumValueWithStringAmount() {
        OrderEvent e = OrderEvent.parse(
                "{\"order_id\":1,\"customer_id\":2,\"amount\":\"59.68\",\"created_at\":\"2026-11-29T19:57:27.148553Z\"}");

        assertThat(e).isEqualTo(new OrderEvent(1, 2, new BigDecimal("59.68")));
        assertThat(e.amount().toPlainString()).isEqualTo("59.68");
    }

    @Test
    void parsesNumberAmountExactlyFromItsText() {
        BigDecimal a = OrderEvent.parse("{\"order_id\":1,\"customer_id\":2,\"amount\":0.1}").amount();
        BigDecimal b = OrderEvent.parse("{\"order_id\":2,\"customer_id\":2,\"amount\":0.2}").amount();

        assertThat(a.add(b).toPlainString()).isEqualTo("0.30");
        assertThat(OrderEvent.parse("{\"order_id\":3,\"customer_id\":2,\"amount\":12}").amount())
                .isEqualTo(new BigDecimal("12.00"));
    }

    @Test
    void everyDecimalTheSourceHoldsIsKeptAndTrailingZerosAreNot() {
        // B15: after ALTER COLUMN amount TYPE numeric(14,3), Debezium writes "1.005" for a new order, "12.000" for an old one
        assertThat(OrderEvent.parse("{\"order_id\":1,\"customer_id\":2,\"amount\":\"1.005\"}").amount()).hasToString("1.005");
        assertThat(OrderEvent.parse("{\"order_id\":1,\"customer_id\":2,\"amount\":\"12.000\"}").amount()).hasToString("12.00");
        assertThat(OrderEvent.parse("{\"order_id\":1,\"customer_id\":2,\"amount\":\"-0.0010\"}").amount()).hasToString("-0.001");
        assertThat(OrderEvent.parse("{\"order_id\":1,\"customer_id\":2,\"amount\":\"1E+3\"}").amount()).hasToString("1000.00");
    }

    @Test
    void aCustomerIdBeyond32BitsIsRead() {
        // B15: after ALTER COLUMN customer_id TYPE bigint
        assertThat(OrderEvent.parse("{\"order_id\":1,\"customer_id\":3000000001,\"amount\":\"1.00\"}").customerId())
                .isEqualTo(3_000_000_001L);
    }

    @Test
    void stringAmountsAddExactly() {
        BigDecimal a = OrderEvent.parse("{\"order_id\":1,\"customer_id\":2,\"amount\":\"0.10\"}").amount();
        BigDecimal b = OrderEvent.parse("{\"order_id\":2,\"customer_id\":2,\"amount\":\"0.20\"}").amount();

        assertThat(a.add(b)).isEqualTo(new BigDecimal("0.30"));
    }

    @Test
    void ignoresUnknownFields() {
        OrderEvent e = OrderEvent.parse(
                "{\"order_id\":7,\"customer_id\":3,\"amount\":\"1.50\",\"currency\":\"RUB\",\"extra\":{\"a\":[1]}}");

        assertThat(e).isEqualTo(new OrderEvent(7, 3, new BigDecimal("1.50")));
    }

    @Test
    void roundTripsThroughItsOwnJson() {
        OrderEvent e = new OrderEvent(9_000_000_000L, 4, new BigDecimal("1112.08"));

        assertThat(new String(e.toJsonBytes())).isEqualTo("{\"order_id\":9000000000,\"customer_id\":4,\"amount\":\"1112.08\"}");
        assertThat(OrderEvent.parse(e.toJsonBytes())).isEqualTo(e);
    }

    @Test
    void readsTheConnectorsMetadataFields() {
        OrderEvent insert = OrderEvent.parse("{\"order_id\":1,\"customer_id\":2,\"amount\":\"59.68\",\"created_at\":\"2026-11-29T19:57:27.148553Z\","
                + "\"__deleted\":\"false\",\"__op\":\"c\",\"__lsn\":24023128,\"__source_ts_ms\":1764446247148}");

        assertThat(insert).isEqualTo(new OrderEvent(1, 2, new BigDecimal("59.68"), false, 24023128L, "c"));
    }

    @Test
    void aRewrittenDeleteIsTheOldRowMarkedDeleted() {
        String delete = "{\"order_id\":1,\"customer_id\":3,\"amount\":\"60.00\",\"created_at\":\"2026-11-29T19:57:27.148553Z\","
                + "\"__deleted\":\"true\",\"__op\":\"d\",\"__lsn\":24023776,\"__source_ts_ms\":1764446250000}";

        assertThat(OrderEvent.parse(delete)).isEqualTo(new OrderEvent(1, 3, new BigDecimal("60.00"), true, 24023776L, "d"));
        assertThat(OrderEvent.isDeletion(delete.getBytes(StandardCharsets.UTF_8))).isTrue();
    }

    @Test
    void eitherMarkerMakesADeletion() {
        assertThat(OrderEvent.parse("{\"order_id\":1,\"customer_id\":3,\"amount\":\"1.00\",\"__deleted\":true}").deleted()).isTrue();
        assertThat(OrderEvent.parse("{\"order_id\":1,\"customer_id\":3,\"amount\":\"1.00\",\"__op\":\"d\"}").deleted()).isTrue();
        assertThat(OrderEvent.parse("{\"order_id\":1,\"customer_id\":3,\"amount\":\"1.00\",\"__op\":\"u\"}").deleted()).isFalse();
    }

    @Test
    void theRowlessDeletionFormsHaveNoEvent() {
        assertThat(OrderEvent.ofValue(null)).isNull();
        assertThat(OrderEvent.ofValue("null".getBytes(StandardCharsets.UTF_8))).isNull();
        assertThat(OrderEvent.ofValue(" null\n".getBytes(StandardCharsets.UTF_8))).isNull();
        assertThat(OrderEvent.isDeletion(null)).isTrue();
        assertThat(OrderEvent.isDeletion("null".getBytes(StandardCharsets.UTF_8))).isTrue();
    }

    @Test
    void aRowOrAnInvalidValueIsNotADeletion() {
        assertThat(OrderEvent.isDeletion("{\"order_id\":1,\"customer_id\":3,\"amount\":\"1.00\",\"__deleted\":\"false\"}"
                .getBytes(StandardCharsets.UTF_8))).isFalse();
        assertThat(OrderEvent.isDeletion("not-a-json{{{".getBytes(StandardCharsets.UTF_8))).isFalse();
        assertThatThrownBy(() -> OrderEvent.parse("null")).isInstanceOf(InvalidJsonException.class)
                .hasMessage("order event: not a JSON object: null");
    }

    @Test
    void roundTripsItsMetadataThroughItsOwnJson() {
        OrderEvent e = new OrderEvent(5, 4, new BigDecimal("-5.00"), false, 99L, "u");

        assertThat(new String(e.toJsonBytes(), StandardCharsets.UTF_8))
                .isEqualTo("{\"order_id\":5,\"customer_id\":4,\"amount\":\"-5.00\",\"__op\":\"u\",\"__lsn\":99}");
        assertThat(OrderEvent.parse(e.toJsonBytes())).isEqualTo(e);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '\'', value = {
            "not-a-json{{{                                            | not valid JSON",
            "''                                                       | not a JSON object",
            "[1,2]                                                    | not a JSON object",
            "42                                                       | not a JSON object",
            "{\"order_id\":1,\"customer_id\":2,\"amount\":\"1.00\"} x  | not valid JSON",
            "{}                                                       | \"order_id\" is missing",
            "{\"order_id\":1,\"amount\":\"1.00\"}                     | \"customer_id\" is missing",
            "{\"order_id\":1,\"customer_id\":2}                       | \"amount\" is missing",
            "{\"customer_id\":2,\"amount\":\"1.00\"}                  | \"order_id\" is missing",
            "{\"order_id\":1,\"customer_id\":null,\"amount\":\"1.00\"} | \"customer_id\" is null",
            "{\"order_id\":1,\"customer_id\":\"2\",\"amount\":\"1.00\"} | \"customer_id\" is not a 64-bit integer",
            "{\"order_id\":1,\"customer_id\":2.5,\"amount\":\"1.00\"}  | \"customer_id\" is not a 64-bit integer",
            "{\"order_id\":1,\"customer_id\":99999999999999999999,\"amount\":\"1\"} | \"customer_id\" is not a 64-bit integer",
            "{\"order_id\":\"x\",\"customer_id\":2,\"amount\":\"1.00\"} | \"order_id\" is not a 64-bit integer",
            "{\"order_id\":1,\"customer_id\":2,\"amount\":\"abc\"}     | \"amount\" is not a decimal",
            "{\"order_id\":1,\"customer_id\":2,\"amount\":true}        | \"amount\" is not a decimal",
            "{\"order_id\":1,\"customer_id\":2,\"amount\":\"NaN\"}     | \"amount\" is not a decimal",
            "{\"order_id\":1,\"customer_id\":2,\"amount\":\"1e999999999\"} | \"amount\" is beyond what PostgreSQL's numeric can hold",
            "{\"order_id\":1,\"customer_id\":2,\"amount\":\"1e-20000\"} | \"amount\" is beyond what PostgreSQL's numeric can hold",
            "{\"order_id\":1,\"customer_id\":2,\"amount\":\"1e2147483647\"} | \"amount\" is beyond what PostgreSQL's numeric can hold",
            "{\"order_id\":1,\"customer_id\":2,\"amount\":\"100e2147483647\"} | \"amount\" is beyond what PostgreSQL's numeric can hold",
            "{\"order_id\":1,\"customer_id\":2,\"amount\":\"1\",\"amount\":\"2\"} | Duplicate field",
            "{\"order_id\":1,\"customer_id\":2,\"amount\":\"1\",\"__deleted\":\"yes\"} | field \"__deleted\" is not true or false: \"yes\"",
            "{\"order_id\":1,\"customer_id\":2,\"amount\":\"1\",\"__lsn\":\"0/16B3748\"} | field \"__lsn\" is not a 64-bit integer",
            "{\"order_id\":1,\"customer_id\":2,\"amount\":\"1\",\"__lsn\":-1} | field \"__lsn\" is negative: -1",
            "{\"order_id\":1,\"customer_id\":2,\"amount\":\"1\",\"__op\":\"x\"} | field \"__op\" is not one of c, u, d, r: \"x\"",
            "{\"order_id\":1,\"customer_id\":2,\"amount\":\"1\",\"__op\":1}  | field \"__op\" is not a string: 1",
    })
    void rejectsInvalidValueNamingTheProblem(String json, String problem) {
        assertThatThrownBy(() -> OrderEvent.parse(json))
                .isInstanceOf(InvalidJsonException.class)
                .hasMessageStartingWith("order event: ")
                .hasMessageContaining(problem);
    }
}
