package dev.seams.wire;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.math.BigDecimal;
import java.util.List;

/**
 * The regular case of a flat record value read token by token, without building a tree (issue 26: the
 * sink's decode was its largest cost per record after the insert itself). Only the good path lives
 * here: a JSON object of exactly the named fields, each once with a value of its kind, nothing after
 * the object. Anything else — not an object, a field missing, null or of another kind, a number
 * beyond 64 bits or beyond what PostgreSQL's {@code numeric} holds, a duplicate or an unknown field
 * (G10: accepted, by the tree path), trailing tokens, broken JSON — makes {@link #read} return null, and the caller
 * parses the same bytes with the tree readers of {@link Json}, whose errors are the contract
 * ({@code CustomerTotalsTest} holds both paths to the same results). Thread-safe.
 */
final class FlatJson {

    /** No duplicate detection of its own: only known fields are read here, and a second one is caught by {@code seen}. */
    private static final JsonFactory PARSERS = JsonFactory.builder().disable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build();

    private final List<String> integerFields;
    private final String moneyField;

    /**
     * @param integerFields names of the fields read as 64-bit integers, in the order {@link Values#integers()} gives them
     * @param moneyField    name of the one field read as money (a decimal string or a JSON number, exact)
     */
    FlatJson(List<String> integerFields, String moneyField) {
        this.integerFields = List.copyOf(integerFields);
        this.moneyField = moneyField;
    }

    /**
     * The fields' values.
     *
     * @param integers one per integer field, in the order given
     * @param money    the money field in money's canonical form ({@link Json#money})
     */
    record Values(long[] integers, BigDecimal money) {
    }

    /**
     * @param bytes a record value, UTF-8
     * @return the values, or null for anything but the regular case (see the class comment)
     */
    Values read(byte[] bytes) {
        long[] integers = new long[integerFields.size()];
        int seen = 0;   // one bit per integer field, the money field's bit after them
        int all = (1 << (integerFields.size() + 1)) - 1;
        BigDecimal money = null;
        try (JsonParser p = PARSERS.createParser(bytes)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return null;
            }
            for (JsonToken t = p.nextToken(); t != JsonToken.END_OBJECT; t = p.nextToken()) {
                String name = p.currentName();
                JsonToken value = p.nextToken();
                int i = integerFields.indexOf(name);
                if (i >= 0) {
                    if (value != JsonToken.VALUE_NUMBER_INT || p.getNumberType() == JsonParser.NumberType.BIG_INTEGER
                            || (seen & 1 << i) != 0) {
                        return null;
                    }
                    integers[i] = p.getLongValue();
                    seen |= 1 << i;
                } else if (name.equals(moneyField)) {
                    BigDecimal decimal = switch (value) {
                        case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> p.getDecimalValue();
                        case VALUE_STRING -> new BigDecimal(p.getText());
                        default -> null;
                    };
                    money = decimal == null ? null : Json.moneyOrNull(decimal);
                    if (money == null || (seen & 1 << integers.length) != 0) {
                        return null;
                    }
                    seen |= 1 << integers.length;
                } else {
                    return null;   // an unknown field: the tree path reads it, duplicates and all
                }
            }
            return seen == all && p.nextToken() == null ? new Values(integers, money) : null;
        } catch (IOException | NumberFormatException | ArithmeticException e) {
            return null;   // the tree path reads it again and names what is wrong
        }
    }
}
