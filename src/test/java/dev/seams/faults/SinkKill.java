package dev.seams.faults;

import static org.awaitility.Awaitility.await;

import dev.seams.consumer.Batches;
import dev.seams.sink.SinkCrash;
import dev.seams.stand.SinkContainer;
import dev.seams.truth.ClickHouse;
import dev.seams.truth.RunNames;
import dev.seams.truth.Topics;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
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
        Map<TopicPartition, Long> committed = topics.committed(RunNames.SINK_GROUP, RunNames.CUSTOMER_TOTALS);
        long beyond = rawRowsIn(unread(committed));
        String evidence = "exit code " + exit + "; " + beyond + " raw_totals rows beyond the committed offsets";
        boolean took = exit == Sigkill.EXIT;
        if (point == SinkCrash.Point.AFTER_INSERT) {
            // the crashed batch itself must be in ClickHouse and not committed: with a commit interval, rows of
            // earlier batches beyond the committed offsets would prove nothing about where this kill landed
            Map<Integer, Batches.OffsetRange> batch = batchRanges(line);
            long crashed = batch.isEmpty() ? 0 : rawRowsIn(uncommittedPartOf(batch, committed));
            evidence += ", " + crashed + " of them the crashed batch's";
            took = took && crashed > 0;
        }
        evidence += "; '" + line + "'";
        return took ? Proof.of(evidence) : Proof.missing(evidence);
    }

    /**
     * @param line the sink's crash line, e.g. {@code … batch customer.totals-0@12..57, customer.totals-2@3..9 inserted …}
     * @return customer.totals partition → the crashed batch's offsets there ({@link Batches#parsePosition}); empty if none named
     */
    static Map<Integer, Batches.OffsetRange> batchRanges(String line) {
        Map<Integer, Batches.OffsetRange> ranges = new TreeMap<>();
        Batches.parsePosition(line).forEach((tp, range) -> {
            if (tp.topic().equals(RunNames.CUSTOMER_TOTALS)) {
                ranges.put(tp.partition(), range);
            }
        });
        return ranges;
    }

    /** @return partition → every offset at or beyond ds-sink's committed one (open upper end) */
    private static Map<Integer, Batches.OffsetRange> unread(Map<TopicPartition, Long> committed) {
        Map<Integer, Batches.OffsetRange> ranges = new TreeMap<>();
        committed.forEach((tp, offset) -> ranges.put(tp.partition(), new Batches.OffsetRange(offset, Long.MAX_VALUE)));
        return ranges;
    }

    /**
     * @return partition → the batch's offsets at or beyond ds-sink's committed one (a partition without a
     *     committed offset counts whole)
     */
    static Map<Integer, Batches.OffsetRange> uncommittedPartOf(Map<Integer, Batches.OffsetRange> batch,
                                                              Map<TopicPartition, Long> committed) {
        Map<Integer, Batches.OffsetRange> ranges = new TreeMap<>();
        batch.forEach((partition, range) -> ranges.put(partition, new Batches.OffsetRange(
                Math.max(range.first(), committed.getOrDefault(new TopicPartition(RunNames.CUSTOMER_TOTALS, partition), 0L)),
                range.last())));
        return ranges;
    }

    /** @return rows of raw_totals whose (kafka_partition, kafka_offset) lies in one of the ranges; all rows if none given */
    private long rawRowsIn(Map<Integer, Batches.OffsetRange> ranges) {
        String where = ranges.entrySet().stream().map(en -> "(kafka_partition = " + en.getKey()
                        + " AND kafka_offset >= " + en.getValue().first()
                        + (en.getValue().last() == Long.MAX_VALUE ? "" : " AND kafka_offset <= " + en.getValue().last()) + ")")
                .collect(Collectors.joining(" OR "));
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
