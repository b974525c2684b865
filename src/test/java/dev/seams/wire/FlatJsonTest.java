package dev.seams.wire;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The token-by-token reading of {@code customer.totals} ({@link FlatJson}) gives what the tree readers give, or
 * nothing: on every input of the corpus below, regular or broken, {@link CustomerTotals#fromJson(byte[])} has the
 * tree path's outcome (the same totals or the same error message), and the regular inputs take the fast path.
 */
class FlatJsonTest {

    /** Regular values: read without a tree. */
    private static final List<String> REGULAR = List.of(
            "{\"customer_id\":3,\"orders\":27,\"total\":\"1112.08\",\"version\":42}",
            "{\"customer_id\":3,\"orders\":27,\"total\":1112.08,\"version\":42}",
            "{\"customer_id\":3,\"orders\":27,\"total\":1112,\"version\":42}",
            "{\"customer_id\":3,\"orders\":27,\"total\":\"1112.0800\",\"version\":42}",
            "{\"customer_id\":3,\"orders\":1,\"total\":\"-5.5\",\"version\":1}",
            "{\"customer_id\":3,\"orders\":1,\"total\":1.5e3,\"version\":1}",
            "{\"customer_id\":3,\"orders\":1,\"total\":\"0.123456789012345678901234567890\",\"version\":1}",
            "{\"customer_id\":3,\"orders\":0,\"total\":\"-0.00\",\"version\":9}",
            "{\"version\":42,\"total\":\"1.00\",\"orders\":2,\"customer_id\":9223372036854775807}",
            " {\"customer_id\":-9223372036854775808,\"orders\":2,\"total\":\"1.00\",\"version\":4} \n");

    /** Everything else, unknown fields included (G10: accepted there): the tree path decides and names any problem. */
    private static final List<String> IRREGULAR = List.of(
            "{\"customer_id\":3,\"currency\":\"RUB\",\"orders\":2,\"total\":\"1.00\",\"version\":4}",
            "{\"customer_id\":3,\"orders\":2,\"extra\":{\"a\":[1,{\"b\":null}],\"c\":\"x\"},\"total\":\"1.00\",\"version\":4}",
            "{\"customer_id\":3,\"orders\":2,\"total\":\"1.00\",\"version\":4,\"note\":null}",
            "", " ", "null", "[1,2]", "\"text\"", "42", "{", "{}", "not json",
            "{\"customer_id\":1,\"orders\":1}",
            "{\"customer_id\":1,\"orders\":1,\"total\":\"1.00\"}",
            "{\"customer_id\":null,\"orders\":1,\"total\":\"1.00\",\"version\":1}",
            "{\"customer_id\":1,\"orders\":1,\"total\":null,\"version\":1}",
            "{\"customer_id\":\"1\",\"orders\":1,\"total\":\"1.00\",\"version\":1}",
            "{\"customer_id\":1.0,\"orders\":1,\"total\":\"1.00\",\"version\":1}",
            "{\"customer_id\":9223372036854775808,\"orders\":1,\"total\":\"1.00\",\"version\":1}",
            "{\"customer_id\":1,\"orders\":true,\"total\":\"1.00\",\"version\":1}",
            "{\"customer_id\":1,\"orders\":1,\"total\":\"abc\",\"version\":1}",
            "{\"customer_id\":1,\"orders\":1,\"total\":\" 1.00\",\"version\":1}",
            "{\"customer_id\":1,\"orders\":1,\"total\":[1],\"version\":1}",
            "{\"customer_id\":1,\"orders\":1,\"total\":{\"v\":1},\"version\":1}",
            "{\"customer_id\":1,\"orders\":1,\"total\":1e2147483648,\"version\":1}",
            "{\"customer_id\":1,\"orders\":1,\"total\":\"1e-20000\",\"version\":1}",
            "{\"customer_id\":1,\"orders\":1,\"total\":\"1.00\",\"version\":1,\"version\":2}",
            "{\"customer_id\":1,\"orders\":1,\"total\":\"1.00\",\"total\":\"2.00\",\"version\":1}",
            "{\"customer_id\":1,\"orders\":1,\"total\":\"1.00\",\"version\":1,\"x\":1,\"x\":2}",
            "{\"customer_id\":1,\"orders\":1,\"total\":\"1.00\",\"version\":1,\"x\":{\"y\":1,\"y\":2}}",
            "{\"customer_id\":1,\"orders\":1,\"total\":\"1.00\",\"version\":1} {}",
            "{\"customer_id\":1,\"orders\":1,\"total\":\"1.00\",\"version\":1}]",
            "{\"customer_id\":1,\"orders\":1,\"total\":\"1.00\",\"version\":1,}",
            "{\"customer_id\":1,\"orders\":1,\"total\":NaN,\"version\":1}");

    @Test
    void regularValuesAreReadWithoutATreeAndAsTheTreeReadsThem() {
        for (String text : REGULAR) {
            byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
            assertThat(CustomerTotals.fromFlat(bytes)).as(text).isNotNull().isEqualTo(CustomerTotals.fromTree(bytes));
        }
    }

    @Test
    void everythingElseGoesToTheTreeReadersAndGetsTheirOutcome() {
        for (String text : IRREGULAR) {
            byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
            assertThat(CustomerTotals.fromFlat(bytes)).as(text).isNull();
            assertThat(outcome(bytes, true)).as(text).isEqualTo(outcome(bytes, false));
        }
    }

    /** @return the totals, or the error's class and message */
    private static Object outcome(byte[] bytes, boolean viaFromJson) {
        try {
            return viaFromJson ? CustomerTotals.fromJson(bytes) : CustomerTotals.fromTree(bytes);
        } catch (RuntimeException e) {
            return e.getClass().getSimpleName() + ": " + e.getMessage();
        }
    }
}
