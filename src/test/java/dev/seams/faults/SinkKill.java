package dev.seams.faults;

import static org.awaitility.Awaitility.await;

import dev.seams.sink.SinkCrash;
import dev.seams.sink.SinkOptions;
import dev.seams.stand.ClickHouse;
import dev.seams.stand.Faults;
import dev.seams.stand.SinkContainer;
import dev.seams.stand.Stand;
import dev.seams.stand.Topics;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.kafka.common.TopicPartition;

/**
 * kill -9 of the sink process at a point of a batch (claim B5, issue 12 fault 1): the test arms the
 * sink's test-only crash point ({@link SinkCrash}) by creating its trigger file, waits for the crash
 * line ({@code sink: crash at after-insert: batch …}), and SIGKILLs the container there. Proof: exit
 * code 137, the crash line, and — after the insert — raw rows beyond the group's committed offsets
 * (written, not committed: they will be redelivered). Heal: a new sink process, same static
 * membership, which takes the partitions back at once.
 */
public final class SinkKill implements Fault {

    private static final Duration CRASH_WAIT = Duration.ofMinutes(1);

    private final String name;
    private final SinkContainer sink;
    private final SinkCrash.Point point;
    private final Topics topics;
    private final ClickHouse ch;

    /**
     * @param sink  a sink container started with {@code --crash-at point}
     * @param point where it stops
     */
    public SinkKill(String name, SinkContainer sink, SinkCrash.Point point, Topics topics, ClickHouse ch) {
        this.name = name;
        this.sink = sink;
        this.point = point;
        this.topics = topics;
        this.ch = ch;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public Proof inject() {
        int mark = sink.output().length();
        try {
            Files.createFile(sink.crashTrigger());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        String prefix = SinkCrash.LINE_PREFIX + point.cliName();
        await("the sink reaches " + point.cliName()).atMost(CRASH_WAIT).pollInterval(Duration.ofMillis(50))
                .until(() -> sink.output().indexOf(prefix, mark) >= 0);
        String out = sink.output();
        int at = out.indexOf(prefix, mark);
        String line = out.substring(at, out.indexOf('\n', at) < 0 ? out.length() : out.indexOf('\n', at));
        int exit = sink.container().kill();
        Map<TopicPartition, Long> committed = topics.committed(SinkOptions.DEFAULT_GROUP, Stand.CUSTOMER_TOTALS);
        long beyond = rawRowsBeyondCommitted(committed, Map.of());
        String evidence = "exit code " + exit + "; " + beyond + " raw_totals rows beyond the committed offsets";
        boolean took = exit == Faults.SIGKILL_EXIT;
        if (point == SinkCrash.Point.AFTER_INSERT) {
            // the crashed batch itself must be in ClickHouse and not committed: with a commit interval, rows of
            // earlier batches beyond the committed offsets would prove nothing about where this kill landed
            Map<Integer, long[]> batch = batchRanges(line);
            long crashed = batch.isEmpty() ? 0 : rawRowsBeyondCommitted(committed, batch);
            evidence += ", " + crashed + " of them the crashed batch's";
            took = took && crashed > 0;
        }
        evidence += "; '" + line + "'";
        return took ? Proof.of(evidence) : Proof.missing(evidence);
    }

    /**
     * @param line the sink's crash line, e.g. {@code … batch customer.totals-0@12..57, customer.totals-2@3..9 inserted …}
     * @return partition → [first, last] offset of the crashed batch ({@link dev.seams.sink.Batches#position}); empty if none named
     */
    static Map<Integer, long[]> batchRanges(String line) {
        Map<Integer, long[]> ranges = new java.util.TreeMap<>();
        java.util.regex.Matcher m = java.util.regex.Pattern.compile(java.util.regex.Pattern.quote(Stand.CUSTOMER_TOTALS)
                + "-(\\d+)@(\\d+)\\.\\.(\\d+)").matcher(line);
        while (m.find()) {
            ranges.put(Integer.parseInt(m.group(1)), new long[] {Long.parseLong(m.group(2)), Long.parseLong(m.group(3))});
        }
        return ranges;
    }

    /**
     * @param committed ds-sink's committed offset per partition (a partition missing has none: all of it counts)
     * @param within    partition → [first, last] offsets to count in, or empty for every partition and offset
     * @return rows of raw_totals at or beyond their partition's committed offset (and within the ranges, if given)
     */
    private long rawRowsBeyondCommitted(Map<TopicPartition, Long> committed, Map<Integer, long[]> within) {
        String where;
        if (within.isEmpty()) {
            where = committed.entrySet().stream().map(en -> "(kafka_partition = " + en.getKey().partition()
                    + " AND kafka_offset >= " + en.getValue() + ")").collect(Collectors.joining(" OR "));
        } else {
            where = within.entrySet().stream().map(en -> {
                long from = committed.getOrDefault(new TopicPartition(Stand.CUSTOMER_TOTALS, en.getKey()), 0L);
                return "(kafka_partition = " + en.getKey() + " AND kafka_offset >= " + Math.max(from, en.getValue()[0])
                        + " AND kafka_offset <= " + en.getValue()[1] + ")";
            }).collect(Collectors.joining(" OR "));
        }
        return ch.scalar("SELECT count() FROM raw_totals WHERE " + (where.isEmpty() ? "1" : where));
    }

    @Override
    public Duration hold() {
        return Duration.ZERO;
    }

    @Override
    public void heal() {
        sink.start();
    }
}
