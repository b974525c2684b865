package dev.seams.faults;

import dev.seams.truth.ClickHouse;
import dev.seams.truth.RunNames;
import dev.seams.truth.Topics;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The sink's contract under faults, sampled all along (claim B5, "never commits an offset beyond what
 * ClickHouse stored"): every 500 ms it reads the sink group's committed offsets on
 * {@code customer.totals}, THEN the highest record position {@code raw_totals} holds per partition
 * ({@code kafka_offset}, written by the sink with each row). A commit is ahead of storage when the
 * last data record below the committed offset is above what ClickHouse held at that moment — reading
 * storage after the offsets can only make that check lenient by a few ms, never wrong the other way.
 * A storage reading may take at most 2 s; while ClickHouse does not answer (stopped, frozen), a sample
 * keeps its offsets and is judged against the next storage reading: {@code raw_totals} only grows
 * during a run, so a commit ahead of a later reading was ahead at its own moment too.
 */
public final class OffsetSampler implements AutoCloseable {

    /** Sampling period, ms. */
    public static final long PERIOD_MS = 500;
    /** How long one storage reading may take: a frozen ClickHouse must not stop the sampling of the offsets. */
    private static final java.time.Duration STORAGE_TIMEOUT = java.time.Duration.ofSeconds(2);

    /** One reading: committed offset and highest stored offset per partition (null when ClickHouse did not answer). */
    record Sample(Map<Integer, Long> committed, Map<Integer, Long> stored) {
    }

    /**
     * The invariant's verdict.
     *
     * @param samples    readings taken
     * @param judged     readings with a storage reading
     * @param violations (sample, partition) pairs whose commit was ahead of storage
     * @param examples   up to 10 violations, {@code p2: committed 1040 (last data 1038) > stored 1011}
     * @param positionsAhead data records committed while ClickHouse did not hold them, each position counted once however
     *                   many samples saw it: what a crash of the sink at the worst of those moments would have lost
     */
    public record Result(long samples, long judged, long violations, List<String> examples, long positionsAhead) {
    }

    private final Topics topics;
    private final ClickHouse ch;
    private final String group;
    private final String storedQuery;
    private final Map<Integer, Long> from;
    private final List<Sample> samples = new ArrayList<>();
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "offset-sampler");
        t.setDaemon(true);
        return t;
    });

    /**
     * Starts sampling.
     *
     * @param group the sink's consumer group on {@code customer.totals}
     */
    public OffsetSampler(Topics topics, ClickHouse ch, String group) {
        this(topics, ch, group, "raw_totals", Map.of());
    }

    /**
     * Starts sampling a sink that writes another raw table from given offsets on (a twin's, in a scratch database,
     * its group set to the topic's end first: {@link OffsetTwin}). Only data records at or after {@code from} are
     * judged: what lies before was never the sink's to write, and its empty table would otherwise count it.
     *
     * @param group    the sink's consumer group on {@code customer.totals}
     * @param rawTable its raw table, e.g. {@code offset_twin.raw_totals}
     * @param from     partition → the first offset the sink reads (a partition not named: from 0)
     */
    public OffsetSampler(Topics topics, ClickHouse ch, String group, String rawTable, Map<Integer, Long> from) {
        this.topics = topics;
        this.ch = ch.withTimeout(STORAGE_TIMEOUT);
        this.group = group;
        this.from = Map.copyOf(from);
        this.storedQuery = "SELECT kafka_partition, max(kafka_offset) FROM " + rawTable + " GROUP BY kafka_partition";
        timer.scheduleWithFixedDelay(this::sample, 0, PERIOD_MS, TimeUnit.MILLISECONDS);
    }

    private void sample() {
        Map<Integer, Long> committed = new HashMap<>();
        try {
            topics.committed(group, RunNames.CUSTOMER_TOTALS).forEach((tp, o) -> committed.put(tp.partition(), o));
        } catch (RuntimeException e) {
            return;   // the broker did not answer: nothing to judge
        }
        Map<Integer, Long> stored = new HashMap<>();
        boolean answered = true;
        try {
            ch.rows(storedQuery)
                    .forEach(r -> stored.put(Integer.parseInt(r.get(0)), Long.parseLong(r.get(1))));
        } catch (RuntimeException e) {
            answered = false;
        }
        synchronized (samples) {
            samples.add(new Sample(committed, answered ? stored : null));
        }
    }

    /**
     * Stops sampling and judges every reading against the data records of {@code customer.totals}
     * (read_committed, read now) at or after the sampler's first offsets.
     *
     * @return the verdict
     */
    public Result result() {
        close();
        Map<Integer, NavigableSet<Long>> data = new HashMap<>();
        topics.readAll(RunNames.CUSTOMER_TOTALS, "read_committed", r -> {
            if (r.offset() >= from.getOrDefault(r.partition(), 0L)) {
                data.computeIfAbsent(r.partition(), p -> new TreeSet<>()).add(r.offset());
            }
        });
        synchronized (samples) {
            return judge(samples, data);
        }
    }

    /**
     * Judges readings against the data records' positions.
     *
     * @param readings in the order taken
     * @param data     partition → offsets of its data records (read_committed)
     * @return the verdict
     */
    static Result judge(List<Sample> readings, Map<Integer, NavigableSet<Long>> data) {
        long judged = 0;
        long violations = 0;
        List<String> examples = new ArrayList<>();
        Map<Integer, NavigableSet<Long>> ahead = new HashMap<>();
        for (int i = 0; i < readings.size(); i++) {
            Sample s = readings.get(i);
            // no storage reading (ClickHouse down or frozen): judged against the next one; raw_totals only grows
            // during a run, so a commit ahead of a later reading was ahead of storage at its own moment too
            Map<Integer, Long> storedThen = s.stored();
            for (int j = i + 1; storedThen == null && j < readings.size(); j++) {
                storedThen = readings.get(j).stored();
            }
            if (storedThen == null) {
                continue;
            }
            judged++;
            for (Map.Entry<Integer, Long> c : s.committed().entrySet()) {
                NavigableSet<Long> records = data.getOrDefault(c.getKey(), new TreeSet<>());
                Long lastData = records.lower(c.getValue());
                long stored = storedThen.getOrDefault(c.getKey(), -1L);
                if (lastData != null && lastData > stored) {
                    violations++;
                    ahead.computeIfAbsent(c.getKey(), p -> new TreeSet<>()).addAll(records.subSet(stored, false, lastData, true));
                    if (examples.size() < 10) {
                        examples.add("p" + c.getKey() + ": committed " + c.getValue() + " (last data " + lastData
                                + ") > stored " + stored);
                    }
                }
            }
        }
        return new Result(readings.size(), judged, violations, examples, ahead.values().stream().mapToLong(Set::size).sum());
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
