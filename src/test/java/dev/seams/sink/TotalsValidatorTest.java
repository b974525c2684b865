package dev.seams.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.seams.wire.CustomerTotals;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Every rule of {@link TotalsValidator} with its exact reason (claims G10, G11, B10, B11; seed
 * section "DLQ: битое событие не роняет пайплайн"): missing versus explicit zero, what ds-streams
 * legitimately writes (emptied customers, refunds), the opt-in range, decimals, size, encoding,
 * version, key, unknown fields.
 */
class TotalsValidatorTest {

    private static final Pattern CUSTOMER_ID = Pattern.compile("\"customer_id\":(-?\\d+)");

    /** The validator as the sink runs by default: no customer range. */
    private final TotalsValidator validator = new TotalsValidator(null, 65_536);
    /** The seed's opt-in rule, {@code --customers 1..5}. */
    private final TotalsValidator seedRange = new TotalsValidator(new CustomerRange(1, 5), 65_536);

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /** The key ds-streams would write for this value: its customer_id, or "1" if it has none. */
    private static byte[] keyOf(String json) {
        Matcher m = CUSTOMER_ID.matcher(json);
        return utf8(m.find() ? m.group(1) : "1");
    }

    private static String reason(TotalsValidator v, byte[] key, byte[] value) {
        BadRecordException e = catchThrowableOfType(BadRecordException.class, () -> v.validate(key, value));
        assertThat(e).as("the record must be rejected").isNotNull();
        return e.getMessage();
    }

    private String reason(String json) {
        return reason(validator, keyOf(json), utf8(json));
    }

    private CustomerTotals valid(String json) throws BadRecordException {
        return validator.validate(keyOf(json), utf8(json));
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
            "`{}`                                                 | customer totals: field \"customer_id\" is missing",
            "`{\"orders\":1,\"total\":\"1.00\",\"version\":1}`    | customer totals: field \"customer_id\" is missing",
            "`{\"customer_id\":null,\"orders\":1,\"total\":\"1.00\"}` | customer totals: field \"customer_id\" is null",
            "`{\"customer_id\":\"1\",\"orders\":1,\"total\":\"1.00\"}` | customer totals: field \"customer_id\" is not a 64-bit integer: \"1\"",
            "`{\"customer_id\":1.5,\"orders\":1,\"total\":\"1.00\"}` | customer totals: field \"customer_id\" is not a 64-bit integer: 1.5",
            "`{\"customer_id\":99999999999999999999,\"orders\":1,\"total\":\"1.00\"}` | customer totals: field \"customer_id\" is not a 64-bit integer: 99999999999999999999",
            "`{\"customer_id\":1}`                                | customer totals: field \"orders\" is missing",
            "`{\"customer_id\":1,\"total\":\"1.00\"}`             | customer totals: field \"orders\" is missing",
            "`{\"customer_id\":1,\"orders\":0,\"total\":\"1.00\",\"version\":3}`  | orders is 0 but total is 1.00",
            "`{\"customer_id\":1,\"orders\":0,\"total\":\"-1.00\",\"version\":3}` | orders is 0 but total is -1.00",
            "`{\"customer_id\":1,\"orders\":-2,\"total\":\"1.00\",\"version\":3}` | orders must be >= 0, got -2",
            "`{\"customer_id\":1,\"orders\":\"1\",\"total\":\"1.00\"}` | customer totals: field \"orders\" is not a 64-bit integer: \"1\"",
            "`{\"customer_id\":1,\"orders\":1}`                   | customer totals: field \"total\" is missing",
            "`{\"customer_id\":1,\"orders\":1,\"total\":null}`    | customer totals: field \"total\" is null",
            "`{\"customer_id\":1,\"orders\":1,\"total\":\"12,34\"}` | customer totals: field \"total\" is not a decimal: \"12,34\"",
            "`{\"customer_id\":1,\"orders\":1,\"total\":\"NaN\"}`   | customer totals: field \"total\" is not a decimal: \"NaN\"",
            "`{\"customer_id\":1,\"orders\":1,\"total\":\"abc\"}` | customer totals: field \"total\" is not a decimal: \"abc\"",
            "`{\"customer_id\":1,\"orders\":1,\"total\":true}`    | customer totals: field \"total\" is not a decimal: true",
            "`{\"customer_id\":1,\"orders\":1,\"total\":1e200000}` | customer totals: field \"total\" is beyond what PostgreSQL's numeric can hold: 1E+200000",
            "`{\"customer_id\":1,\"orders\":1,\"total\":\"1.00\"}` | customer totals: field \"version\" is missing",
            "`{\"customer_id\":1,\"orders\":1,\"total\":\"1.00\",\"version\":null}` | customer totals: field \"version\" is null",
            "`{\"customer_id\":1,\"orders\":1,\"total\":\"1.00\",\"version\":\"7\"}` | customer totals: field \"version\" is not a 64-bit integer: \"7\"",
            "`{\"customer_id\":1,\"orders\":1,\"total\":\"1.00\",\"version\":0}`  | version must be >= 1, got 0",
            "`{\"customer_id\":1,\"orders\":1,\"total\":\"1.00\",\"version\":-4}` | version must be >= 1, got -4",
            "`[1,2]`                                              | customer totals: not a JSON object: [1,2]",
            "`\"text\"`                                           | customer totals: not a JSON object: \"text\"",
            "`42`                                                 | customer totals: not a JSON object: 42",
            "`null`                                               | customer totals: not a JSON object: null",
    })
    void rejectsWithThePreciseReason(String json, String expected) {
        assertThat(reason(json)).isEqualTo(expected);
    }

    @Test
    void notJsonNamesTheParserError() {
        assertThat(reason("not-a-json{{{")).isEqualTo("customer totals: not valid JSON: Unrecognized token 'not': "
                + "was expecting (JSON String, Number, Array, Object or token 'null', 'true' or 'false')");
        assertThat(reason("{\"customer_id\":1,\"orders\":1,\"total\":\"1.00\",\"version\":1} trailing"))
                .startsWith("customer totals: not valid JSON: ");
        assertThat(reason("{\"customer_id\":1,\"customer_id\":2,\"orders\":1,\"total\":\"1.00\",\"version\":1}"))
                .isEqualTo("customer totals: not valid JSON: Duplicate field 'customer_id'");
        assertThat(reason(validator, utf8("1"), new byte[0])).isEqualTo("customer totals: not a JSON object: ");
    }

    @Test
    void invalidUtf8IsRejectedEvenInAnIgnoredField() {
        byte[] prefix = utf8("{\"customer_id\":1,\"orders\":1,\"total\":\"1.00\",\"version\":1,\"note\":\"");
        byte[] value = new byte[prefix.length + 4];
        System.arraycopy(prefix, 0, value, 0, prefix.length);
        value[prefix.length] = (byte) 0xC3;      // a 2-byte lead ...
        value[prefix.length + 1] = 0x28;         // ... followed by '(' instead of a continuation byte
        value[prefix.length + 2] = '"';
        value[prefix.length + 3] = '}';

        assertThat(reason(validator, utf8("1"), value)).isEqualTo("customer totals: not valid JSON: Invalid UTF-8 middle byte 0x28");
    }

    @Test
    void tombstoneIsRejected() {
        assertThat(reason(validator, utf8("1"), null)).isEqualTo("null value (tombstone) where a totals snapshot was expected");
    }

    @Test
    void oversizedValueIsRejectedBeforeParsing() {
        String big = "{\"customer_id\":1,\"orders\":1,\"total\":\"1.00\",\"version\":1,\"note\":\"" + "x".repeat(1_000_000) + "\"}";

        assertThat(reason(big)).isEqualTo("value too large: " + big.length() + " bytes > limit 65536");
        TotalsValidator small = new TotalsValidator(null, 40);
        assertThat(reason(small, utf8("1"), utf8("{\"customer_id\":1,\"orders\":1,\"total\":\"1.00\",\"version\":1}")))
                .isEqualTo("value too large: 55 bytes > limit 40");
    }

    @Test
    void missingAndExplicitZeroAreToldApart() {
        assertThat(reason("{\"customer_id\":1,\"total\":\"1.00\",\"version\":1}")).isEqualTo("customer totals: field \"orders\" is missing");
        assertThat(reason("{\"customer_id\":1,\"orders\":0,\"total\":\"1.00\",\"version\":1}")).isEqualTo("orders is 0 but total is 1.00");
        assertThat(reason("{\"orders\":1,\"total\":\"1.00\",\"version\":1}")).isEqualTo("customer totals: field \"customer_id\" is missing");
        assertThat(reason("{\"customer_id\":1,\"orders\":1,\"version\":1}")).isEqualTo("customer totals: field \"total\" is missing");
        assertThat(reason("{\"customer_id\":1,\"orders\":1,\"total\":\"1.00\"}")).isEqualTo("customer totals: field \"version\" is missing");
        assertThat(reason("{\"customer_id\":1,\"orders\":1,\"total\":\"1.00\",\"version\":0}")).isEqualTo("version must be >= 1, got 0");
    }

    @Test
    void explicitZeroTotalIsValid() throws BadRecordException {
        assertThat(valid("{\"customer_id\":1,\"orders\":1,\"total\":\"0.00\",\"version\":1}"))
                .isEqualTo(new CustomerTotals(1, 1, new BigDecimal("0.00"), 1));
    }

    @Test
    void aCustomerEmptiedByDeletesOrMovesIsValid() throws BadRecordException {
        // B11: ds-streams writes this when a customer's last order is deleted or moved to another customer
        assertThat(valid("{\"customer_id\":4,\"orders\":0,\"total\":\"0.00\",\"version\":2}"))
                .isEqualTo(new CustomerTotals(4, 0, new BigDecimal("0.00"), 2));
        assertThat(valid("{\"customer_id\":4,\"orders\":0,\"total\":0,\"version\":2}").total()).isEqualByComparingTo("0");
    }

    @Test
    void aRefundIsValid() throws BadRecordException {
        // B11: PostgreSQL's numeric(12,2) accepts -5.00; a customer with only that order totals -5.00
        assertThat(valid("{\"customer_id\":6,\"orders\":1,\"total\":\"-5.00\",\"version\":1}"))
                .isEqualTo(new CustomerTotals(6, 1, new BigDecimal("-5.00"), 1));
    }

    @Test
    void threeDecimalsAreValid() throws BadRecordException {
        // B15: after ALTER COLUMN amount TYPE numeric(14,3) ds-streams writes them; whether ClickHouse holds them is TargetColumns' check
        assertThat(valid("{\"customer_id\":6,\"orders\":2,\"total\":\"3.255\",\"version\":2}").total()).hasToString("3.255");
    }

    @Test
    void aCustomerIdBeyond32BitsIsValid() throws BadRecordException {
        // B15: after ALTER COLUMN customer_id TYPE bigint, ds-streams keys it by its text
        assertThat(valid("{\"customer_id\":4294967296,\"orders\":1,\"total\":\"1.00\",\"version\":1}").customerId())
                .isEqualTo(4_294_967_296L);
    }

    @Test
    void anyCustomerIdIsValidWithoutTheOptInRange() throws BadRecordException {
        assertThat(valid("{\"customer_id\":0,\"orders\":1,\"total\":\"1.00\",\"version\":1}").customerId()).isZero();
        assertThat(valid("{\"customer_id\":-3,\"orders\":1,\"total\":\"1.00\",\"version\":1}").customerId()).isEqualTo(-3);
        assertThat(valid("{\"customer_id\":9000,\"orders\":1,\"total\":\"1.00\",\"version\":1}").customerId()).isEqualTo(9000);
    }

    @Test
    void theOptInRangeRejectsOtherCustomers() throws BadRecordException {
        String zero = "{\"customer_id\":0,\"orders\":1,\"total\":\"1.00\",\"version\":1}";
        String six = "{\"customer_id\":6,\"orders\":1,\"total\":\"1.00\",\"version\":1}";
        String minus = "{\"customer_id\":-3,\"orders\":1,\"total\":\"1.00\",\"version\":1}";

        assertThat(reason(seedRange, keyOf(zero), utf8(zero))).isEqualTo("customer_id 0 outside the configured range 1..5");
        assertThat(reason(seedRange, keyOf(six), utf8(six))).isEqualTo("customer_id 6 outside the configured range 1..5");
        assertThat(reason(seedRange, keyOf(minus), utf8(minus))).isEqualTo("customer_id -3 outside the configured range 1..5");
        byte[] nine = utf8("{\"customer_id\":9,\"orders\":1,\"total\":\"1.00\",\"version\":1}");
        assertThat(new TotalsValidator(CustomerRange.parse("7..9"), 65_536).validate(utf8("9"), nine).customerId()).isEqualTo(9);
        assertThat(reason(new TotalsValidator(CustomerRange.parse("7..9"), 65_536), utf8("1"),
                utf8("{\"customer_id\":1,\"orders\":1,\"total\":\"1.00\",\"version\":1}")))
                .isEqualTo("customer_id 1 outside the configured range 7..9");
    }

    @Test
    void theKeyMustBeTheCustomerId() {
        byte[] three = utf8("{\"customer_id\":3,\"orders\":1,\"total\":\"1.00\",\"version\":1}");

        assertThat(reason(validator, utf8("7"), three)).isEqualTo("record key \"7\" does not match customer_id 3");
        assertThat(reason(validator, null, three)).isEqualTo("record key null does not match customer_id 3");
        assertThat(reason(validator, utf8("\"3\""), three)).isEqualTo("record key \"\"3\"\" does not match customer_id 3");
        assertThat(reason(validator, utf8(" 3"), three)).isEqualTo("record key \" 3\" does not match customer_id 3");
    }

    @Test
    void whatStreamsWritesIsValidAndUnknownFieldsAreIgnored() throws BadRecordException {
        CustomerTotals streams = new CustomerTotals(3, 27, new BigDecimal("1112.08"), 42);

        assertThat(validator.validate(utf8("3"), streams.toJsonBytes())).isEqualTo(streams);
        assertThat(valid("{\"customer_id\":3,\"orders\":27,\"total\":1112.08,\"version\":42,\"currency\":\"RUB\"}"))
                .isEqualTo(streams);
        assertThat(valid("{\"currency\":{\"code\":\"RUB\"},\"version\":42,\"total\":\"1112.080\",\"orders\":27,\"customer_id\":3}"))
                .isEqualTo(streams);
    }
}
