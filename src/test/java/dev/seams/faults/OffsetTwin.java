package dev.seams.faults;

import static org.awaitility.Awaitility.await;

import dev.seams.consumer.OffsetFault;
import dev.seams.fixture.Pipeline;
import dev.seams.fixture.StandContext;
import dev.seams.report.Anomaly;
import dev.seams.report.ClaimEvidence;
import dev.seams.sink.ClickHouseTarget;
import dev.seams.sink.Sink;
import dev.seams.sink.SinkMode;
import dev.seams.sink.SinkSummary;
import dev.seams.truth.Futures;
import dev.seams.truth.RunNames;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.TopicPartition;

/**
 * The twin of B5's offset sampler ({@link OffsetSampler}: the sink's committed offsets never pass a record ClickHouse
 * does not hold), run beside the real sink on the same load and the same fault: the sink in this JVM, group
 * {@code ds-sink-offset-twin}, writing into empty copies of the tables in the scratch database {@code offset_twin}, with the
 * TEST-ONLY fault {@link OffsetFault#COMMIT_BEFORE_WRITE} — each batch's offsets committed before its insert. While
 * ClickHouse is down its committed offsets run ahead of what its {@code raw_totals} holds, and its own sampler must
 * say so: a detector shown to fire in the same run (docs/claims.md "Negative control").
 *
 * <pre>{@code
 * try (OffsetTwin twin = OffsetTwin.start(s)) {
 *     FaultMatrix.run(e, s, plan);
 *     twin.record(e);
 * }
 * }</pre>
 */
public final class OffsetTwin implements AutoCloseable {

    /** The twin's consumer group on {@code customer.totals}. */
    public static final String GROUP = RunNames.of("ds-sink-offset-twin");
    /** The scratch database of its tables. */
    public static final String DATABASE = RunNames.of("offset_twin");
    /** Its ClickHouse request timeout, the real fault sink's. */
    private static final Duration CLICKHOUSE_TIMEOUT = Duration.ofSeconds(5);

    private final StandContext s;
    private final Sink sink;
    private final CompletableFuture<SinkSummary> run;
    private final OffsetSampler sampler;

    private OffsetTwin(StandContext s, Sink sink, CompletableFuture<SinkSummary> run, OffsetSampler sampler) {
        this.s = s;
        this.sink = sink;
        this.run = run;
        this.sampler = sampler;
    }

    /**
     * Creates the twin's tables (empty), sets its group to the topic's end offsets and starts it and its sampler.
     *
     * @return the running twin
     */
    public static OffsetTwin start(StandContext s) {
        ClickHouseTarget tables = s.ch().scratch(DATABASE, "raw_totals", "customer_totals").withTimeout(CLICKHOUSE_TIMEOUT);
        Map<TopicPartition, Long> end = s.topics().endOffsets(RunNames.CUSTOMER_TOTALS);
        s.topics().resetGroup(GROUP, end);
        Map<Integer, Long> from = new HashMap<>();
        end.forEach((tp, offset) -> from.put(tp.partition(), offset));
        Sink sink = new Sink(Pipeline.dsSinkOptions(s.stand(), SinkMode.TOTALS, o -> o.withGroupId(GROUP).withClickhouse(tables)
                .withRunFor(Duration.ofMinutes(30)).withOffsetFault(OffsetFault.COMMIT_BEFORE_WRITE)));
        CompletableFuture<SinkSummary> run = CompletableFuture.supplyAsync(sink::run, runnable -> {
            Thread t = new Thread(runnable, "offset-twin-sink");
            t.setDaemon(true);
            t.start();
        });
        return new OffsetTwin(s, sink, run, new OffsetSampler(s.topics(), s.ch(), GROUP, DATABASE + ".raw_totals", from));
    }

    /**
     * Once the pipeline settled: waits until the twin wrote everything, stops it and records what its sampler saw as
     * the claim's negative control {@code twin_offsets_ahead_of_clickhouse}, which must be above 0.
     *
     * @throws org.awaitility.core.ConditionTimeoutException if the twin did not catch up within 2 minutes
     */
    public void record(ClaimEvidence e) {
        await("the offset twin wrote everything").atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(250))
                .ignoreExceptions().until(() -> s.topics().caughtUp(GROUP, RunNames.CUSTOMER_TOTALS));
        OffsetSampler.Result offsets = sampler.result();
        e.figure("twin_sink", stop().line());
        e.figure("twin_offset_samples_judged", offsets.judged());
        e.negativeControl("twin_offsets_ahead_of_clickhouse", offsets.violations(), Anomaly.LOST,
                "the twin sink (" + GROUP + ", tables in " + DATABASE + "), which commits each batch's offsets before its "
                        + "insert: samples where its committed offset passed a data record its raw_totals did not hold, "
                        + "the sampler that holds the real sink to 0" + (offsets.examples().isEmpty() ? "" : ": " + offsets.examples()));
    }

    /** Stops the twin and drops its scratch database (its group stays, at its last commit). */
    @Override
    public void close() {
        sampler.close();
        try {
            stop();
        } finally {
            s.ch().execute("DROP DATABASE IF EXISTS " + DATABASE);
        }
    }

    /** @return the twin's summary once its run ended, within a minute of the stop */
    private SinkSummary stop() {
        sink.stop();
        return Futures.get(run, Duration.ofMinutes(1), "the offset twin did not stop");
    }
}
