package dev.seams.bench;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The spread of one figure over a benchmark's repetitions: median, min and max, plus every value
 * in the order measured (issue 13 §3: 5 repetitions, median with min and max).
 *
 * @param median the median (the mean of the middle two for an even count)
 * @param min    the smallest value
 * @param max    the largest value
 * @param values every value, in the order of the repetitions
 */
public record Spread(double median, double min, double max, List<Double> values) {

    /**
     * @param values at least one value
     * @return their spread
     * @throws IllegalArgumentException if there is none
     */
    public static Spread of(List<Double> values) {
        if (values.isEmpty()) {
            throw new IllegalArgumentException("no value to spread");
        }
        List<Double> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        int n = sorted.size();
        double median = n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
        return new Spread(median, sorted.get(0), sorted.get(n - 1), List.copyOf(values));
    }

    /**
     * @param decimals decimal places kept
     * @return {@code median}, {@code min}, {@code max} and {@code values}, rounded, for the JSON report
     */
    public Map<String, Object> toJson(int decimals) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("median", number(median, decimals));
        json.put("min", number(min, decimals));
        json.put("max", number(max, decimals));
        json.put("values", values.stream().map(v -> number(v, decimals)).toList());
        return json;
    }

    /** @return the value rounded: a whole number for 0 decimals, else a double */
    private static Number number(double value, int decimals) {
        return decimals == 0 ? (Number) Math.round(value) : (Number) round(value, decimals);
    }

    /** @return e.g. {@code 0.83 (0.79–0.91)} */
    public String describe(int decimals) {
        String f = "%." + decimals + "f";
        return String.format(f + " (" + f + "–" + f + ")", median, min, max);
    }

    static double round(double value, int decimals) {
        double scale = Math.pow(10, decimals);
        return Math.round(value * scale) / scale;
    }
}
