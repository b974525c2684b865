package dev.seams.check;

import dev.seams.report.LagChart;
import dev.seams.truth.ReplicationSlots;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * WAL held back by replication slots over time (claim B14 "wal retention"): on a fixed period, each slot's retained
 * MiB ({@link ReplicationSlots.Slot#retainedMib()}), as samples and marks of the lag charts' shape
 * ({@link dev.seams.report.LagChart}). A slot that cannot be read at a moment is absent from that sample.
 */
public final class SlotRetentionSampler implements AutoCloseable {

    private final ReplicationSlots slots;
    private final Map<String, String> series;
    private final long startNanos = System.nanoTime();
    private final List<LagChart.Sample> samples = new ArrayList<>();
    private final List<LagChart.Mark> marks = new ArrayList<>();
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "slot-retention-sampler");
        t.setDaemon(true);
        return t;
    });

    /**
     * Starts sampling.
     *
     * @param slots  the source's slots
     * @param series series label → slot name, in chart order
     * @param every  the period
     */
    public SlotRetentionSampler(ReplicationSlots slots, Map<String, String> series, Duration every) {
        this.slots = slots;
        this.series = new LinkedHashMap<>(series);
        timer.scheduleAtFixedRate(this::sample, 0, every.toMillis(), TimeUnit.MILLISECONDS);
    }

    private void sample() {
        Map<String, Long> retained = new LinkedHashMap<>();
        series.forEach((label, slot) -> {
            try {
                slots.find(slot).filter(sl -> sl.retained() >= 0).ifPresent(sl -> retained.put(label, sl.retainedMib()));
            } catch (RuntimeException unreadable) {
                // absent from this sample
            }
        });
        synchronized (this) {
            samples.add(new LagChart.Sample(seconds(), retained));
        }
    }

    /** @return seconds since the sampler started */
    public double seconds() {
        return (System.nanoTime() - startNanos) / 1e9;
    }

    /** Records an event at the current time, e.g. "writes end". */
    public synchronized void mark(String label) {
        marks.add(new LagChart.Mark(seconds(), label));
    }

    /** @return the series labels, in chart order */
    public List<String> labels() {
        return List.copyOf(series.keySet());
    }

    /** @return the samples so far */
    public synchronized List<LagChart.Sample> samples() {
        return List.copyOf(samples);
    }

    /** @return the marks so far */
    public synchronized List<LagChart.Mark> marks() {
        return List.copyOf(marks);
    }

    /** Stops sampling. */
    @Override
    public void close() {
        timer.shutdownNow();
    }
}
