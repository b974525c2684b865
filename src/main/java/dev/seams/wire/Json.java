package dev.seams.wire;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.JsonNodeFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;

/**
 * The one shared Jackson {@link ObjectMapper} of this package and the strict field readers that
 * {@link OrderEvent} and {@link CustomerTotals} are parsed with. Package-private: the public face
 * is {@code streams.JsonSerdes}.
 *
 * <p>Numbers are read exactly: a JSON number becomes a {@link BigDecimal} built from its text,
 * never through {@code double} (money is exact, docs/claims.md "Matches PG"). Trailing tokens and duplicate field
 * names are errors. Unknown fields are ignored by construction: only the named fields are read
 * (claim G9).
 */
final class Json {

    /**
     * Money has at least this many decimal places (PG numeric(12,2) as shipped); more when the
     * source holds more (claim B15: after {@code ALTER COLUMN amount TYPE numeric(14,3)}).
     */
    static final int MONEY_SCALE = 2;

    /** Digits before the decimal point PostgreSQL's {@code numeric} can hold; beyond, no source wrote the value. */
    private static final int NUMERIC_MAX_INTEGER_DIGITS = 131_072;
    /** Digits after the decimal point PostgreSQL's {@code numeric} can hold. */
    private static final int NUMERIC_MAX_SCALE = 16_383;

    static final ObjectMapper MAPPER = JsonMapper.builder()
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .disable(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES)
            .build();

    private Json() {
    }

    /**
     * Parses UTF-8 JSON bytes that must hold one JSON object.
     *
     * @throws InvalidJsonException if the bytes are not JSON or not an object
     */
    static JsonNode readObject(byte[] bytes, String what) {
        JsonNode node = readObjectOrNull(bytes, what);
        if (node == null) {
            throw invalid(what, "not a JSON object: null");
        }
        return node;
    }

    /**
     * {@link #readObject} that also accepts the JSON literal {@code null} (what Debezium's
     * JsonConverter writes for a record whose value schema is set but whose value is null).
     *
     * @return the object, or null for the literal {@code null}
     * @throws InvalidJsonException if the bytes are not JSON, or JSON that is neither an object nor null
     */
    static JsonNode readObjectOrNull(byte[] bytes, String what) {
        JsonNode node;
        try {
            node = MAPPER.readTree(bytes);
        } catch (IOException e) {
            String reason = e instanceof JsonProcessingException p ? p.getOriginalMessage() : e.getMessage();
            throw new InvalidJsonException(what + ": not valid JSON: " + reason, e);
        }
        if (node != null && node.isNull()) {
            return null;
        }
        if (node == null || !node.isObject()) {
            throw invalid(what, "not a JSON object: " + abbreviate(String.valueOf(node)));
        }
        return node;
    }

    /** Serializes a JSON object to compact UTF-8 bytes, keeping field insertion order. */
    static byte[] write(ObjectNode node) {
        try {
            return MAPPER.writeValueAsBytes(node);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Reads a required integral field that fits a {@code long}.
     *
     * @throws InvalidJsonException if missing, null, not an integral JSON number, or out of range
     */
    static long longField(JsonNode object, String field, String what) {
        return long64(required(object, field, what), field, what);
    }

    /**
     * Reads a required money field, given either as a decimal string ({@code "59.68"}, Debezium's
     * {@code decimal.handling.mode=string}) or as a JSON number, exactly, and returns it in the
     * canonical form of {@link #money(BigDecimal)}: every decimal the source holds is kept, none is
     * rounded (claim B15). Whether a target can hold it is the target's check (the sink stops
     * before writing a value its column would round, docs/source.md "Schema changes").
     *
     * @throws InvalidJsonException if missing, null, not a decimal, or beyond what PostgreSQL's
     *                              {@code numeric} can hold (no source produced it)
     */
    static BigDecimal moneyField(JsonNode object, String field, String what) {
        JsonNode node = required(object, field, what);
        BigDecimal value;
        if (node.isNumber()) {
            value = node.decimalValue(); // exact: floats are read as BigDecimal from their text
        } else if (node.isTextual()) {
            try {
                value = new BigDecimal(node.textValue());
            } catch (NumberFormatException e) {
                throw invalid(what, "field \"" + field + "\" is not a decimal: " + abbreviate(node.toString()));
            }
        } else {
            throw invalid(what, "field \"" + field + "\" is not a decimal: " + abbreviate(node.toString()));
        }
        BigDecimal money = moneyOrNull(value);
        if (money == null) {
            throw invalid(what, "field \"" + field + "\" is beyond what PostgreSQL's numeric can hold: "
                    + abbreviate(node.toString()));
        }
        return money;
    }

    /**
     * @return {@code value} in money's canonical form ({@link #money}), or null if PostgreSQL's {@code numeric}
     *     cannot hold it (more than 131,072 integer digits or 16,383 decimals, or an exponent beyond an int)
     */
    static BigDecimal moneyOrNull(BigDecimal value) {
        try {
            BigDecimal stripped = value.stripTrailingZeros();
            if ((long) stripped.precision() - stripped.scale() > NUMERIC_MAX_INTEGER_DIGITS || stripped.scale() > NUMERIC_MAX_SCALE) {
                return null;
            }
            return money(stripped);
        } catch (ArithmeticException e) {   // an exponent beyond an int: 100e2147483647
            return null;
        }
    }

    /**
     * The canonical form of an amount: exact, trailing zeros beyond the second decimal dropped, at
     * least two decimals — {@code 12.000} (an old row after {@code numeric(14,3)}) is {@code 12.00},
     * {@code 1.005} stays {@code 1.005}, {@code 7} is {@code 7.00}. Never rounds.
     *
     * @param value an exact amount, not null
     * @return the same number, scale {@code max(2, its significant decimals)}
     */
    static BigDecimal money(BigDecimal value) {
        BigDecimal stripped = value.stripTrailingZeros();
        return stripped.scale() < MONEY_SCALE ? stripped.setScale(MONEY_SCALE) : stripped;
    }

    /**
     * Reads an optional integral field that fits a {@code long}.
     *
     * @return the value, or null if the field is missing or JSON null
     * @throws InvalidJsonException if present but not an integral JSON number in range
     */
    static Long optionalLongField(JsonNode object, String field, String what) {
        JsonNode node = present(object, field);
        return node == null ? null : long64(node, field, what);
    }

    /**
     * Reads an optional text field.
     *
     * @return the text, or null if the field is missing or JSON null
     * @throws InvalidJsonException if present but not a JSON string
     */
    static String optionalTextField(JsonNode object, String field, String what) {
        JsonNode node = present(object, field);
        if (node == null) {
            return null;
        }
        if (!node.isTextual()) {
            throw invalid(what, "field \"" + field + "\" is not a string: " + abbreviate(node.toString()));
        }
        return node.textValue();
    }

    /**
     * Reads an optional flag written either as a JSON boolean or as the text {@code "true"} /
     * {@code "false"} (Debezium's {@code __deleted} is a string field).
     *
     * @return the flag; false if the field is missing or JSON null
     * @throws InvalidJsonException if present with any other value
     */
    static boolean optionalFlagField(JsonNode object, String field, String what) {
        JsonNode node = present(object, field);
        if (node == null) {
            return false;
        }
        if (node.isBoolean()) {
            return node.booleanValue();
        }
        if (node.isTextual() && ("true".equals(node.textValue()) || "false".equals(node.textValue()))) {
            return Boolean.parseBoolean(node.textValue());
        }
        throw invalid(what, "field \"" + field + "\" is not true or false: " + abbreviate(node.toString()));
    }

    static InvalidJsonException invalid(String what, String problem) {
        return new InvalidJsonException(what + ": " + problem, null);
    }

    private static long long64(JsonNode node, String field, String what) {
        if (!node.isIntegralNumber() || !node.canConvertToLong()) {
            throw invalid(what, "field \"" + field + "\" is not a 64-bit integer: " + abbreviate(node.toString()));
        }
        return node.longValue();
    }

    /** @return the field's node, or null if it is missing or JSON null */
    private static JsonNode present(JsonNode object, String field) {
        JsonNode node = object.get(field);
        return node == null || node.isNull() ? null : node;
    }

    private static JsonNode required(JsonNode object, String field, String what) {
        JsonNode node = object.get(field);
        if (node == null) {
            throw invalid(what, "field \"" + field + "\" is missing");
        }
        if (node.isNull()) {
            throw invalid(what, "field \"" + field + "\" is null");
        }
        return node;
    }


    private static String abbreviate(String text) {
        return text.length() <= 80 ? text : text.substring(0, 77) + "...";
    }
}
