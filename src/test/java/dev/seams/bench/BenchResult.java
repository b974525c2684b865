package dev.seams.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What one benchmark (P1…P4, issue 13 §3) measured: its goal, its headline ratio over the
 * repetitions, further ratios (peers, variants), raw figures, tables, charts and notes. Filled by
 * the benchmark, then handed to {@link Benchmarks#record}. Not thread-safe.
 */
public final class BenchResult {

    private final String id;
    private final String title;
    private final String goal;
    private final Double goalRatio;
    private final Map<String, Spread> ratios = new LinkedHashMap<>();
    private final Map<String, Object> figures = new LinkedHashMap<>();
    private final List<Map<String, Object>> tables = new ArrayList<>();
    private final List<Map<String, String>> charts = new ArrayList<>();
    private final List<String> notes = new ArrayList<>();
    private String headline;

    /**
     * @param id        e.g. {@code P1}
     * @param title     e.g. {@code Sink vs direct insert}
     * @param goal      the goal in words, e.g. {@code sink ≥ 0.8 × direct (rows/s)}
     * @param goalRatio the least median of the headline ratio that meets the goal; null for a
     *                  benchmark without a ratio goal (P4 explains, it does not compare)
     */
    public BenchResult(String id, String title, String goal, Double goalRatio) {
        this.id = id;
        this.title = title;
        this.goal = goal;
        this.goalRatio = goalRatio;
    }

    /** @return the benchmark's id */
    public String id() {
        return id;
    }

    /**
     * Records a ratio; the first one recorded is the headline the goal is judged on, unless
     * {@link #headline(String)} names another.
     *
     * @param name   e.g. {@code sink_vs_direct}
     * @param spread the ratio per repetition (higher is better for the first contender)
     * @return this
     */
    public BenchResult ratio(String name, Spread spread) {
        ratios.put(name, spread);
        if (headline == null) {
            headline = name;
        }
        return this;
    }

    /** Names the ratio the goal is judged on. */
    public BenchResult headline(String name) {
        this.headline = name;
        return this;
    }

    /** @return the value, recorded under the name (units in the name: {@code _ms}, {@code _rows_per_s}) */
    public <T> T figure(String name, T value) {
        figures.put(name, value);
        return value;
    }

    /** Records a spread of raw figures (e.g. a contender's rows/s per repetition). */
    public void figure(String name, Spread spread, int decimals) {
        figures.put(name, spread.toJson(decimals));
    }

    /** Adds a table: a title, its column names and its rows. */
    public void table(String tableTitle, List<String> columns, List<List<Object>> rows) {
        Map<String, Object> t = new LinkedHashMap<>();
        t.put("title", tableTitle);
        t.put("columns", columns);
        t.put("rows", rows);
        tables.add(t);
    }

    /** Adds a chart written beside the report ({@code reports/<file>}). */
    public void chart(String file, String caption) {
        charts.add(Map.of("file", file, "caption", caption));
    }

    /** Adds a sentence or paragraph for the reader. */
    public void note(String text) {
        notes.add(text);
    }

    /** @return whether the headline ratio's median meets the goal; null without a ratio goal or ratio */
    public Boolean goalMet() {
        if (goalRatio == null || headline == null) {
            return null;
        }
        return ratios.get(headline).median() >= goalRatio;
    }

    /** @return the result as the report's JSON object */
    public Map<String, Object> toJson() {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("id", id);
        json.put("title", title);
        json.put("goal", goal);
        json.put("goal_ratio", goalRatio);
        json.put("headline", headline);
        json.put("goal_met", goalMet());
        Map<String, Object> r = new LinkedHashMap<>();
        ratios.forEach((name, spread) -> r.put(name, spread.toJson(3)));
        json.put("ratios", r);
        json.put("figures", figures);
        json.put("tables", tables);
        json.put("charts", charts);
        json.put("notes", notes);
        return json;
    }
}
