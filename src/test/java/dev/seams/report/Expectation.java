package dev.seams.report;

import java.math.BigDecimal;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one rule that decides whether a measured figure meets its expected value (docs/claims.md
 * "Figures decide too"), used both when a test states an expectation ({@link Check}) and when the
 * verdict is derived ({@link Verdicts}).
 *
 * <p>An expected value is either a value — equal when both sides read as numbers and are
 * numerically equal ({@code 1.50} equals {@code 1.5}, {@code 60L} equals {@code 60}), otherwise
 * when their texts are equal ({@code true}, {@code "1112.08"}) — or a bound written as text,
 * an operator and a number: {@code "> 0"}, {@code ">= 3"}, {@code "<= 10"}, {@code "< 1.5"},
 * {@code "!= 0"}, {@code "== 7"}.
 */
public final class Expectation {

    private static final Pattern BOUND = Pattern.compile("^\\s*(>=|<=|!=|==|>|<)\\s*(-?[0-9][0-9_]*(\\.[0-9]+)?)\\s*$");

    private Expectation() {
    }

    /**
     * @param measured the figure as recorded (number, string, boolean, or null when not measured)
     * @param expected the expected value or bound
     * @return whether the figure meets the expectation; a null measured value never does
     */
    public static boolean met(Object measured, Object expected) {
        if (measured == null) {
            return false;
        }
        if (expected instanceof String text) {
            Matcher m = BOUND.matcher(text);
            if (m.matches()) {
                BigDecimal x = number(measured);
                if (x == null) {
                    return false;
                }
                int c = x.compareTo(new BigDecimal(m.group(2).replace("_", "")));
                return switch (m.group(1)) {
                    case ">" -> c > 0;
                    case ">=" -> c >= 0;
                    case "<" -> c < 0;
                    case "<=" -> c <= 0;
                    case "==" -> c == 0;
                    default -> c != 0;
                };
            }
        }
        BigDecimal x = number(measured);
        BigDecimal y = number(expected);
        if (x != null && y != null) {
            return x.compareTo(y) == 0;
        }
        return String.valueOf(measured).equals(String.valueOf(expected));
    }

    /** @return a bound {@code "> n"} for {@link #met} */
    public static String greaterThan(Number n) {
        return "> " + n;
    }

    /** @return a bound {@code ">= n"} */
    public static String atLeast(Number n) {
        return ">= " + n;
    }

    /** @return a bound {@code "<= n"} */
    public static String atMost(Number n) {
        return "<= " + n;
    }

    /** @return a bound {@code "< n"} */
    public static String lessThan(Number n) {
        return "< " + n;
    }

    private static BigDecimal number(Object value) {
        if (value instanceof Boolean || value == null) {
            return null;
        }
        if (value instanceof BigDecimal d) {
            return d;
        }
        try {
            return new BigDecimal(String.valueOf(value).strip());
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
