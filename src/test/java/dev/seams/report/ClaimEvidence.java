package dev.seams.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What one claim test measured: figures, the values it expected, anomaly counts by class, tables
 * (like the source's before/after tables) and notes. The verdict and duration are set by
 * {@link EvidenceExtension} from the test's outcome, never by the test itself.
 *
 * <p>Anomaly classes (CLAIMS.md "Name the anomaly"): duplicate, lost, aborted_read, stale, wrong_value.
 */
public final class ClaimEvidence {

    /** The anomaly classes every claim reports, zero unless counted. */
    public static final List<String> ANOMALY_CLASSES = List.of("duplicate", "lost", "aborted_read", "stale", "wrong_value");

    /** A small table for the report: a title, column names and rows of cells. */
    public record Table(String title, List<String> columns, List<List<Object>> rows) {
    }

    private final String id;
    private final String title;
    private final long startedNanos = System.nanoTime();
    private final Map<String, Object> figures = new LinkedHashMap<>();
    private final Map<String, Object> expected = new LinkedHashMap<>();
    private final Map<String, Long> anomalies = new LinkedHashMap<>();
    private final List<Table> tables = new ArrayList<>();
    private final List<String> notes = new ArrayList<>();
    private final Map<String, String> charts = new LinkedHashMap<>();
    private Verdict verdict;
    private String failure;
    private double seconds;

    ClaimEvidence(String id, String title) {
        this.id = id;
        this.title = title;
        ANOMALY_CLASSES.forEach(c -> anomalies.put(c, 0L));
    }

    /** Records a measured figure (a number, string or boolean); @return the value, for inline use */
    public synchronized <T> T figure(String name, T value) {
        figures.put(name, value);
        return value;
    }

    /** Records the value a figure must have for the claim to hold; @return the value */
    public synchronized <T> T expected(String name, T value) {
        expected.put(name, value);
        return value;
    }

    /**
     * Records the count of one anomaly class.
     *
     * @throws IllegalArgumentException for a class not in {@link #ANOMALY_CLASSES}
     */
    public synchronized ClaimEvidence anomaly(String anomalyClass, long count) {
        if (!ANOMALY_CLASSES.contains(anomalyClass)) {
            throw new IllegalArgumentException("unknown anomaly class " + anomalyClass + ", expected one of " + ANOMALY_CLASSES);
        }
        anomalies.put(anomalyClass, count);
        return this;
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

    synchronized void finish(Verdict outcome, String failureMessage) {
        this.verdict = outcome;
        this.failure = failureMessage;
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

    synchronized Verdict verdict() {
        return verdict;
    }

    synchronized String failure() {
        return failure;
    }

    synchronized double seconds() {
        return seconds;
    }

    synchronized Map<String, Object> figures() {
        return new LinkedHashMap<>(figures);
    }

    synchronized Map<String, Object> expectedValues() {
        return new LinkedHashMap<>(expected);
    }

    synchronized Map<String, Long> anomalies() {
        return new LinkedHashMap<>(anomalies);
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
