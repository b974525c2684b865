package dev.seams.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class RowsBodyTest {

    private static final RowsBody.Field A = RowsBody.Field.of("a");
    private static final RowsBody.Field B = RowsBody.Field.of("b_2");
    private static final RowsBody.Field C = RowsBody.Field.of("c");

    @Test
    void rowsAreJsonEachRowWithPlainExactNumbers() throws Exception {
        RowsBody body = new RowsBody(1);
        body.startRow().field(A, -7).field(B, new BigDecimal("1E+3").setScale(2)).endRow();
        body.startRow().field(A, Long.MAX_VALUE).field(B, new BigDecimal("-0.05")).endRow();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        body.writeTo(out);

        assertThat(out.toString(StandardCharsets.US_ASCII))
                .isEqualTo("{\"a\":-7,\"b_2\":1000.00}\n{\"a\":9223372036854775807,\"b_2\":-0.05}\n");
        assertThat(body.rows()).isEqualTo(2);
        assertThat(body.bytes()).isEqualTo(out.size());
    }

    @Test
    void wholeNumbersAreWrittenAsLongToStringWritesThem() {
        long[] values = {0, 1, 9, 10, 99, 100, -1, -9, -10, 1234567890123L, Long.MAX_VALUE, Long.MIN_VALUE, Long.MIN_VALUE + 1};
        RowsBody body = new RowsBody(1);   // 64 bytes at first: the digits also land across a growth
        StringBuilder expected = new StringBuilder();
        for (long v : values) {
            body.startRow().field(A, v).field(C, v).endRow();
            expected.append("{\"a\":").append(v).append(",\"c\":").append(v).append("}\n");
        }
        assertThat(String.join("\n", body.lines()) + "\n").isEqualTo(expected.toString());
    }

    @Test
    void fieldsSerialisedOnceAreCopiedIntoAnotherTablesRow() {
        RowsBody raw = new RowsBody(1);
        RowsBody other = new RowsBody(1);
        for (int i = 1; i <= 100; i++) {   // past the first allocation: the buffers grow
            int from = raw.startRow().mark();
            raw.field(A, i).field(B, BigDecimal.valueOf(i, 2));
            other.startRow().copyFields(raw, from, raw.mark()).endRow();
            raw.field(C, i * 10L).endRow();
        }

        assertThat(other.lines()).hasSize(100).startsWith("{\"a\":1,\"b_2\":0.01}").endsWith("{\"a\":100,\"b_2\":1.00}");
        assertThat(raw.lines()).hasSize(100).startsWith("{\"a\":1,\"b_2\":0.01,\"c\":10}");
        assertThat(new RowsBody(1).startRow().copyFields(raw, 3, 3).field(C, 1).endRow().lines()).containsExactly("{\"c\":1}");
    }

    @Test
    void onlyPlainColumnNamesAreFields() {
        assertThatThrownBy(() -> RowsBody.Field.of("a\",\"b")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> RowsBody.Field.of("Total")).isInstanceOf(IllegalArgumentException.class);
        assertThat(new RowsBody(0).isEmpty()).isTrue();
    }
}
