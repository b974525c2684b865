package dev.seams.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.seams.streams.CustomerTotals;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Every rule of {@link TotalsValidator} with its exact reason (claims G10, G11; seed section
 * "DLQ: битое событие не роняет пайплайн"): missing versus explicit zero, range, decimals, size,
 * encoding, unknown fields.
 */
class TotalsValidatorTest {

    private final TotalsValidator validator = new TotalsValidator(new CustomerRange(1, 5), 65_536);

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private String reason(TotalsValidator v, byte[] value) {
        BadRecordException e = catchThrowableOfType(BadRecordException.class, () -> v.validate(value));
        assertThat(e).as("the record must be rejected").isNotNull();
        return e.getMessage();
    }

    private String reason(String json) {
        return reason(validator, utf8(json));
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
            "`{}`                                                 | customer totals: field \"customer_id\" is missing",
            "`{\"orders\":1,\"total\":\"1.00\"}`                  | customer totals: field \"customer_id\" is missing",
            "`{\"customer_id\":null,\"orders\":1,\"total\":\"1.00\"}` | customer totals: field \"customer_id\" is null",
            "`{\"customer_id\":\"1\",\"orders\":1,\"total\":\"1.00\"}` | customer totals: field \"customer_id\" is not a 32-bit integer: \"1\"",
            "`{\"customer_id\":1.5,\"orders\":1,\"total\":\"1.00\"}` | customer totals: field \"customer_id\" is not a 32-bit integer: 1.5",
            "`{\"customer_id\":4294967296,\"orders\":1,\"total\":\"1.00\"}` | customer totals: field \"customer_id\" is not a 32-bit integer: 4294967296",
            "`{\"customer_id\":0,\"orders\":1,\"total\":\"1.00\"}`  | customer_id 0 outside the configured range 1..5",
            "`{\"customer_id\":-3,\"orders\":1,\"total\":\"1.00\"}` | customer_id -3 outside the configured range 1..5",
            "`{\"customer_id\":6,\"orders\":1,\"total\":\"1.00\"}`  | customer_id 6 outside the configured range 1..5",
            "`{\"customer_id\":1}`                                | customer totals: field \"orders\" is missing",
            "`{\"customer_id\":1,\"total\":\"1.00\"}`             | customer totals: field \"orders\" is missing",
            "`{\"customer_id\":1,\"orders\":0,\"total\":\"1.00\"}`  | orders must be >= 1, got 0",
            "`{\"customer_id\":1,\"orders\":-2,\"total\":\"1.00\"}` | orders must be >= 1, got -2",
            "`{\"customer_id\":1,\"orders\":\"1\",\"total\":\"1.00\"}` | customer totals: field \"orders\" is not a 64-bit integer: \"1\"",
            "`{\"customer_id\":1,\"orders\":1}`                   | customer totals: field \"total\" is missing",
            "`{\"customer_id\":1,\"orders\":1,\"total\":null}`    | customer totals: field \"total\" is null",
            "`{\"customer_id\":1,\"orders\":1,\"total\":\"12.345\"}` | customer totals: field \"total\" has more than 2 decimal places: \"12.345\"",
            "`{\"customer_id\":1,\"orders\":1,\"total\":12.345}`  | customer totals: field \"total\" has more than 2 decimal places: 12.345",
            "`{\"customer_id\":1,\"orders\":1,\"total\":\"abc\"}` | customer totals: field \"total\" is not a decimal: \"abc\"",
            "`{\"customer_id\":1,\"orders\":1,\"total\":true}`    | customer totals: field \"total\" is not a decimal: true",
            "`{\"customer_id\":1,\"orders\":1,\"total\":\"-1.00\"}` | total must not be negative, got -1.00",
            "`{\"customer_id\":1,\"orders\":1,\"total\":1e20}`    | customer totals: field \"total\" is out of range for Decimal(18,2): 1E+20",
            "`[1,2]`                                              | customer totals: not a JSON object: [1,2]",
            "`\"text\"`                                           | customer totals: not a JSON object: \"text\"",
            "`42`                                                 | customer totals: not a JSON object: 42",
    })
    void rejectsWithThePreciseReason(String json, String expected) {
        assertThat(reason(json)).isEqualTo(expected);
    }

    @Test
    void notJsonNamesTheParserError() {
        assertThat(reason("not-a-json{{{")).isEqualTo("customer totals: not valid JSON: Unrecognized token 'not': "
                + "was expecting (JSON String, Number, Array, Object or token 'null', 'true' or 'false')");
        assertThat(reason("{\"customer_id\":1,\"orders\":1,\"total\":\"1.00\"} trailing"))
                .startsWith("customer totals: not valid JSON: ");
        assertThat(reason("{\"customer_id\":1,\"customer_id\":2,\"orders\":1,\"total\":\"1.00\"}"))
                .isEqualTo("customer totals: not valid JSON: Duplicate field 'customer_id'");
        assertThat(reason(validator, new byte[0])).isEqualTo("customer totals: not a JSON object: ");
    }

    @Test
    void invalidUtf8IsRejectedEvenInAnIgnoredField() {
        byte[] prefix = utf8("{\"customer_id\":1,\"orders\":1,\"total\":\"1.00\",\"note\":\"");
        byte[] value = new byte[prefix.length + 4];
        System.arraycopy(prefix, 0, value, 0, prefix.length);
        value[prefix.length] = (byte) 0xC3;      // a 2-byte lead ...
        value[prefix.length + 1] = 0x28;         // ... followed by '(' instead of a continuation byte
        value[prefix.length + 2] = '"';
        value[prefix.length + 3] = '}';

        assertThat(reason(validator, value)).isEqualTo("customer totals: not valid JSON: Invalid UTF-8 middle byte 0x28");
    }

    @Test
    void tombstoneIsRejected() {
        assertThat(reason(validator, null)).isEqualTo("null value (tombstone) where a totals snapshot was expected");
    }

    @Test
    void oversizedValueIsRejectedBeforeParsing() {
        String big = "{\"customer_id\":1,\"orders\":1,\"total\":\"1.00\",\"note\":\"" + "x".repeat(1_000_000) + "\"}";

        assertThat(reason(big)).isEqualTo("value too large: " + big.length() + " bytes > limit 65536");
        TotalsValidator small = new TotalsValidator(new CustomerRange(1, 5), 40);
        assertThat(reason(small, utf8("{\"customer_id\":1,\"orders\":1,\"total\":\"1.00\"}")))
                .isEqualTo("value too large: 43 bytes > limit 40");
    }

    @Test
    void missingAndExplicitZeroAreToldApart() {
        assertThat(reason("{\"customer_id\":1,\"total\":\"1.00\"}")).isEqualTo("customer totals: field \"orders\" is missing");
        assertThat(reason("{\"customer_id\":1,\"orders\":0,\"total\":\"1.00\"}")).isEqualTo("orders must be >= 1, got 0");
        assertThat(reason("{\"orders\":1,\"total\":\"1.00\"}")).isEqualTo("customer totals: field \"customer_id\" is missing");
        assertThat(reason("{\"customer_id\":0,\"orders\":1,\"total\":\"1.00\"}")).isEqualTo("customer_id 0 outside the configured range 1..5");
        assertThat(reason("{\"customer_id\":1,\"orders\":1}")).isEqualTo("customer totals: field \"total\" is missing");
    }

    @Test
    void explicitZeroTotalIsValid() throws BadRecordException {
        assertThat(validator.validate(utf8("{\"customer_id\":1,\"orders\":1,\"total\":\"0.00\"}")))
                .isEqualTo(new CustomerTotals(1, 1, new BigDecimal("0.00")));
    }

    @Test
    void whatStreamsWritesIsValidAndUnknownFieldsAreIgnored() throws BadRecordException {
        CustomerTotals streams = new CustomerTotals(3, 27, new BigDecimal("1112.08"));

        assertThat(validator.validate(streams.toJsonBytes())).isEqualTo(streams);
        assertThat(validator.validate(utf8("{\"customer_id\":3,\"orders\":27,\"total\":1112.08,\"currency\":\"RUB\"}")))
                .isEqualTo(streams);
        assertThat(validator.validate(utf8("{\"currency\":{\"code\":\"RUB\"},\"total\":\"1112.080\",\"orders\":27,\"customer_id\":3}")))
                .isEqualTo(streams);
    }

    @Test
    void theRangeIsTheConfiguredOneNotAConstant() throws BadRecordException {
        byte[] nine = utf8("{\"customer_id\":9,\"orders\":1,\"total\":\"1.00\"}");

        assertThat(reason(validator, nine)).isEqualTo("customer_id 9 outside the configured range 1..5");
        assertThat(new TotalsValidator(CustomerRange.parse("7..9"), 65_536).validate(nine).customerId()).isEqualTo(9);
        assertThat(reason(new TotalsValidator(CustomerRange.parse("7..9"), 65_536), utf8("{\"customer_id\":1,\"orders\":1,\"total\":\"1.00\"}")))
                .isEqualTo("customer_id 1 outside the configured range 7..9");
    }
}
