package dev.seams.check;

import dev.seams.report.LagChart;
import dev.seams.streams.TotalsTopology;
import dev.seams.truth.ClickHouse;
import dev.seams.truth.Endpoints;
import dev.seams.truth.RunNames;
import dev.seams.truth.Topics;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Samples the lag of every boundary of the pipeline on a fixed period while a fault test runs
 * (issue "lag over time"): ds-streams on {@code orders.events} and on its repartition topic, and
 * ds-sink on {@code customer.totals}, in offsets, plus named marks (kill, restart) on the same clock.
 */
public final class LagSampler implements AutoCloseable {

    /** The series this sampler records, in order: series name → (group, topic). */
    public static final Map<String, String[]> SERIES = new LinkedHashMap<>();

    static {
        SERIES.put("ds-streams on orders.events", new String[] {RunNames.STREAMS_GROUP, RunNames.ORDERS_EVENTS});
        SERIES.put("ds-streams on repartition", new String[] {RunNames.STREAMS_GROUP, TotalsTopology.repartitionTopic(RunNames.STREAMS_GROUP)});
        SERIES.put("ds-sink on customer.totals", new String[] {RunNames.SINK_GROUP, RunNames.CUSTOMER_TOTALS});
    }

    private final Topics topics;
    private final Map<String, LongSupplier> counters;
    private final long startNanos = System.nanoTime();
    private final List<LagChart.Sample> samples = new ArrayList<>();
    private final List<LagChart.Mark> marks = new ArrayList<>();
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "lag-sampler");
        t.setDaemon(true);
        return t;
    });

    /**
     * Starts sampling.
     *
     * @param stand    the stand
     * @param periodMs sampling period in milliseconds
     */
    public LagSampler(Endpoints stand, long periodMs) {
        this(stand, periodMs, Map.of());
    }

    /**
     * Starts sampling the lags and, on the same clock, the given counters.
     *
     * @param stand    the stand
     * @param periodMs sampling period in milliseconds
     * @param counters counter name → how to read it (e.g. {@code count()} of a ClickHouse table); a
     *                 counter that throws (its server down under a fault) is left out of that sample
     */
    public LagSampler(Endpoints stand, long periodMs, Map<String, LongSupplier> counters) {
        this.topics = stand.topics();
        this.counters = new LinkedHashMap<>(counters);
        timer.scheduleWithFixedDelay(this::sample, 0, periodMs, TimeUnit.MILLISECONDS);
    }

    private void sample() {
        double at = now();
        Map<String, Long> lags = new LinkedHashMap<>();
        SERIES.forEach((name, gt) -> {
            try {
                lags.put(name, topics.lag(gt[0], gt[1]));
            } catch (RuntimeException e) {
                // a missed reading (broker busy or down) is a gap in the chart, not a failure
            }
        });
        Map<String, Long> counts = new LinkedHashMap<>();
        counters.forEach((name, counter) -> {
            try {
                counts.put(name, counter.getAsLong());
            } catch (RuntimeException e) {
                // the same
            }
        });
        synchronized (this) {
            samples.add(new LagChart.Sample(at, lags, counts));
        }
    }

    private double now() {
        return (System.nanoTime() - startNanos) / 1e9;
    }

    /** Records an event at the current time. */
    public synchronized void mark(String label) {
        marks.add(new LagChart.Mark(now(), label));
    }

    /** @return the samples so far */
    public synchronized List<LagChart.Sample> samples() {
        return List.copyOf(samples);
    }

    /** @return the marks so far */
    public synchronized List<LagChart.Mark> marks() {
        return List.copyOf(marks);
    }

    /**
     * Writes what was sampled as a chart of lag over time ({@link LagChart}): the series of {@link #SERIES}, the marks.
     *
     * @param file  target .svg file (parent directories are created)
     * @param title chart title
     */
    public void writeChart(java.nio.file.Path file, String title) {
        LagChart.write(file, title, "lag (offsets)", SERIES.keySet(), samples(), marks());
    }

    /** Stops sampling. */
    @Override
    public void close() {
        timer.shutdownNow();
        try {
            timer.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
