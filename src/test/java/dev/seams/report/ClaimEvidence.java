package dev.seams.report;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What one claim test measured (docs/claims.md "Evidence and the report"): figures, each expectation
 * with its expected value and outcome ({@link #check}), anomaly counts by class, negative controls,
 * tables, charts and notes. {@link ClaimExtension} opens it before the test can throw and closes it
 * with the verdict {@link Verdicts} derives — the test never sets a verdict itself, it can only
 * declare that its fault or feature did not happen ({@link #unverified}).
 *
 * <p>A test that proves one claim several times in one run (a kill at 10/50/90 % of a load) gives
 * each repetition its own entry with {@link #part(String)}. Thread-safe.
 */
public final class ClaimEvidence {

    /** A small table for the report: a title, column names and rows of cells. */
    public record Table(String title, List<String> columns, List<List<Object>> rows) {
    }

    /** One stated expectation: the figure, what it had to be, why, and whether it was. */
    public record Expected(String figure, Object measured, Object expected, String why, boolean met) {
    }

    private final String id;
    private final String title;
    private final String test;
    private final List<String> exercises;
    private final long startedNanos = System.nanoTime();
    private final Map<String, Object> figures = new LinkedHashMap<>();
    private final Map<String, Expected> expectations = new LinkedHashMap<>();
    private final Map<String, Anomaly> controls = new LinkedHashMap<>();
    private final Map<Anomaly, Long> anomalies = new EnumMap<>(Anomaly.class);
    private final List<Table> tables = new ArrayList<>();
    private final List<String> notes = new ArrayList<>();
    private final Map<String, String> charts = new LinkedHashMap<>();
    private final List<String> unverified = new ArrayList<>();
    private final List<ClaimEvidence> parts = new ArrayList<>();
    private String partOf;
    private Verdicts.Outcome outcome;
    private double seconds;

    /**
     * @param id        the claim id from docs/claims.md, suffixed for a parameter set ({@code G3[n=51]})
     * @param title     the claim's title
     * @param test      the test that proves it, {@code ChangelogIT#g1BaselineParity}
     * @param exercises the classes or files it exercises, as declared on {@link Claim}
     */
    public ClaimEvidence(String id, String title, String test, List<String> exercises) {
        this.id = id;
        this.title = title;
        this.test = test;
        this.exercises = List.copyOf(exercises);
        for (Anomaly a : Anomaly.values()) {
            anomalies.put(a, 0L);
        }
    }

    /**
     * Records a measured figure with no expectation (context: sizes, timings, summary lines).
     *
     * @return the value, for inline use
     */
    public synchronized <T> T figure(String name, T value) {
        figures.put(name, value);
        return value;
    }

    /**
     * Records a measured figure and returns the statement that states its expected value.
     *
     * @param name     the figure's name in the report, snake_case
     * @param measured the value read from the system (never a literal)
     * @return the expectation to state
     */
    public Check check(String name, Object measured) {
        figure(name, measured);
        return new Check(this, name, measured);
    }

    synchronized boolean expect(String name, Object measured, Object expected, String why) {
        boolean met = Expectation.met(measured, expected);
        expectations.put(name, new Expected(name, measured, expected, why, met));
        return met;
    }

    /**
     * Records the unprotected twin's anomaly count, which MUST be above 0 (docs/claims.md "Negative
     * control": a detector that never fires proves nothing). If it is 0 the claim is UNVERIFIED
     * (the fault or duplicate the claim protects against did not happen), never PASS.
     *
     * @param name  the figure, e.g. {@code raw_twin_duplicate_rows}
     * @param count the anomalies the twin shows
     * @param shows the class of anomaly the twin shows
     * @param why   what the twin is
     * @return whether the twin showed the anomaly
     */
    public synchronized boolean negativeControl(String name, long count, Anomaly shows, String why) {
        figures.put(name, count);
        controls.put(name, shows);
        return expect(name, count, Expectation.greaterThan(0), why);
    }

    /**
     * Adds to the count of one anomaly class of the protected system (each checker of the claim
     * adds what it found); a total above 0 fails the claim.
     */
    public synchronized ClaimEvidence anomaly(Anomaly anomaly, long count) {
        anomalies.merge(anomaly, count, Long::sum);
        return this;
    }

    /**
     * {@link #anomaly(Anomaly, long)} by report name ({@code duplicate}, {@code lost}, …).
     *
     * @throws IllegalArgumentException for a name that is not an anomaly class
     */
    public ClaimEvidence anomaly(String anomaly, long count) {
        return anomaly(Anomaly.of(anomaly), count);
    }

    /**
     * Declares that the claim could not be tested as stated: the fault did not take effect, or the
     * server lacks the feature. The verdict is then UNVERIFIED with this reason (unless something
     * measured failed: FAIL wins).
     */
    public synchronized ClaimEvidence unverified(String reason) {
        unverified.add(reason);
        return this;
    }

    /**
     * A repetition of this claim that gets its own entry and verdict, e.g. one kill of three.
     *
     * @param variant the repetition's name, e.g. {@code kill -9 @10%}
     * @return its evidence, id {@code <claim>[<variant>]}, closed together with this one
     */
    public synchronized ClaimEvidence part(String variant) {
        int bracket = id.indexOf('[');
        String base = bracket < 0 ? id : id.substring(0, bracket);
        ClaimEvidence part = new ClaimEvidence(base + "[" + variant + "]", title, test, exercises);
        part.partOf = id;
        parts.add(part);
        return part;
    }

    /** @return the id of the claim entry this is a part of ({@link #part}), or null for a claim entry */
    public String partOf() {
        return partOf;
    }

    /** Adds a table to the report (e.g. PG vs ClickHouse per customer). */
    public synchronized ClaimEvidence table(String tableTitle, List<String> columns, List<List<Object>> rows) {
        tables.add(new Table(tableTitle, List.copyOf(columns), rows.stream().map(List::copyOf).toList()));
        return this;
    }

    /** Links a chart file (relative to reports/, e.g. {@code g13-lag.svg}) from the report. */
    public synchronized ClaimEvidence chart(String fileName, String caption) {
        charts.put(fileName, caption);
        return this;
    }

    /** Adds a sentence of explanation to the report. */
    public synchronized ClaimEvidence note(String text) {
        notes.add(text);
        return this;
    }

    synchronized void finish(Verdicts.Outcome decided) {
        this.outcome = decided;
        this.seconds = (System.nanoTime() - startedNanos) / 1e9;
    }

    /** @return the claim id, e.g. {@code G3[n=51]} */
    public String id() {
        return id;
    }

    /** @return the claim's title */
    public String title() {
        return title;
    }

    /** @return the test that proves it, {@code ChangelogIT#g1BaselineParity} */
    public String test() {
        return test;
    }

    /** @return the classes or files it exercises */
    public List<String> exercises() {
        return exercises;
    }

    synchronized Verdicts.Outcome outcome() {
        return outcome;
    }

    synchronized double seconds() {
        return seconds;
    }

    synchronized Map<String, Object> figures() {
        return new LinkedHashMap<>(figures);
    }

    synchronized Map<String, Expected> expectations() {
        return new LinkedHashMap<>(expectations);
    }

    synchronized Map<String, Anomaly> controls() {
        return new LinkedHashMap<>(controls);
    }

    synchronized Map<Anomaly, Long> anomalies() {
        return new EnumMap<>(anomalies);
    }

    synchronized List<String> unverifiedReasons() {
        return List.copyOf(unverified);
    }

    synchronized List<ClaimEvidence> parts() {
        return List.copyOf(parts);
    }

    synchronized List<Table> tables() {
        return List.copyOf(tables);
    }

    synchronized Map<String, String> charts() {
        return new LinkedHashMap<>(charts);
    }

    synchronized List<String> notes() {
        return List.copyOf(notes);
    }
}
