package dev.seams.bench;

import dev.seams.sink.Batching;
import dev.seams.sink.Sink;
import dev.seams.sink.SinkMode;
import dev.seams.sink.SinkOptions;
import dev.seams.sink.SinkSummary;
import dev.seams.stand.Stand;
import java.time.Duration;

/**
 * One run of the real sink ({@link Sink}, mode totals, in this JVM) over a scratch topic from its
 * start until caught up with its end offsets, into the benchmarks' tables (issue 13 P1, P2).
 *
 * @param drainNanos the sink's own drain time ({@link Sink#drainTime()}: first assignment → the end of the
 *                   closing offset commits, i.e. without the consumer's start and group join)
 * @param totalNanos the whole {@link Sink#run()}: consumer and producer start, group join, drain, close
 * @param inserts    INSERT queries the server ran meanwhile ({@link BenchTables#insertQueries()})
 * @param summary    the sink's summary
 */
public record SinkDrain(long drainNanos, long totalNanos, long inserts, SinkSummary summary) {

    /**
     * {@link #run(Stand, BenchTables, String, String, Batching, Duration)} with the sink's default commit
     * interval ({@link SinkOptions#DEFAULT_COMMIT_INTERVAL}).
     */
    public static SinkDrain run(Stand stand, BenchTables tables, String topic, String group, Batching batching) {
        return run(stand, tables, topic, group, batching, SinkOptions.DEFAULT_COMMIT_INTERVAL);
    }

    /**
     * @param group          the consumer group (its offsets are ignored: {@code --from-start})
     * @param batching       how polls are gathered into inserts
     * @param commitInterval the sink's {@code --commit-interval} ({@link Duration#ZERO}: every batch's offsets at once)
     * @return what the run measured
     */
    public static SinkDrain run(Stand stand, BenchTables tables, String topic, String group, Batching batching,
                                Duration commitInterval) {
        SinkOptions options = SinkOptions.defaults(stand.bootstrapServers(), tables.target(), SinkMode.TOTALS)
                .withTopic(topic).withGroupId(group).withFromStart(true).withUntilCaughtUp().withBatching(batching)
                .withDlqTopic(topic + ".dlq").withCommitInterval(commitInterval);
        long insertsBefore = tables.insertQueries();
        Sink sink = new Sink(options);
        long t0 = System.nanoTime();
        SinkSummary summary = sink.run();
        long total = System.nanoTime() - t0;
        return new SinkDrain(sink.drainTime().toNanos(), total, tables.insertQueries() - insertsBefore, summary);
    }
}
