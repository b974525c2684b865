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
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.TopicPartition;

/**
 * The twin of B5's offset sampler ({@link OffsetSampler}: the sink's committed offsets never pass a record ClickHouse
 * does not hold), run beside the real sink on the same load and the same fault: the sink in this JVM, group
 * {@code ds-sink-offset-twin}, writing into empty copies of the tables in the scratch database {@code offset_twin}, with the
 * TEST-ONLY fault {@link OffsetFault#COMMIT_BEFORE_WRITE} — each batch's offsets committed before its insert. While
 * ClickHouse is down its committed offsets run ahead of what its {@code raw_totals} holds, and its own sampler must
 * say so: a detector shown to fire in the same run (docs/claims.md "Negative control"). What that costs is shown too:
 * the twin is stopped and started again at the end of each outage ({@link #restartedBeforeHeal}, as a deploy or a crash
 * would), so it resumes from the offsets it committed ahead, and the records it never stored are counted.
 *
 * <pre>{@code
 * try (OffsetTwin twin = OffsetTwin.start(s)) {
 *     FaultMatrix.run(e, s, plan.with(twin.restartedBeforeHeal(fault)));
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
    private final ClickHouseTarget tables;
    private final Map<Integer, Long> from;
    private final OffsetSampler sampler;
    private final List<String> stoppedRuns = new ArrayList<>();
    private Sink sink;
    private CompletableFuture<SinkSummary> run;

    private OffsetTwin(StandContext s, ClickHouseTarget tables, Map<Integer, Long> from) {
        this.s = s;
        this.tables = tables;
        this.from = Map.copyOf(from);
        startSink();
        this.sampler = new OffsetSampler(s.topics(), s.ch(), GROUP, DATABASE + ".raw_totals", from);
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
        return new OffsetTwin(s, tables, from);
    }

    private synchronized void startSink() {
        sink = new Sink(Pipeline.dsSinkOptions(s.stand(), SinkMode.TOTALS, o -> o.withGroupId(GROUP).withClickhouse(tables)
                .withRunFor(Duration.ofMinutes(30)).withOffsetFault(OffsetFault.COMMIT_BEFORE_WRITE)));
        Sink current = sink;
        run = CompletableFuture.supplyAsync(current::run, runnable -> {
            Thread t = new Thread(runnable, "offset-twin-sink");
            t.setDaemon(true);
            t.start();
        });
    }

    /**
     * @param fault the outage the real sink meets (ClickHouse stopped)
     * @return the same fault, whose heal first stops the twin and starts it again while the outage still holds: the new
     *     instance resumes from the offsets the old one committed ahead of its inserts
     */
    public Fault restartedBeforeHeal(Fault fault) {
        return new Fault() {
            @Override
            public String name() {
                return fault.name();
            }

            @Override
            public Proof inject() {
                return fault.inject();
            }

            @Override
            public Duration hold() {
                return fault.hold();
            }

            @Override
            public void heal() {
                try {
                    restart();
                } finally {
                    fault.heal();
                }
            }

            @Override
            public Optional<String> nothingAtStake() {
                return fault.nothingAtStake();
            }
        };
    }

    private synchronized void restart() {
        stoppedRuns.add(stop().line());
        startSink();
    }

    /**
     * Once the pipeline settled: waits until the twin wrote everything, stops it and records what its sampler saw as
     * the claim's negative controls: {@code twin_positions_committed_ahead_of_clickhouse} (records whose offsets the
     * twin committed while its raw_totals did not hold them, each counted once; the samples that saw them are the figure
     * {@code twin_offsets_ahead_of_clickhouse}) and {@code twin_records_lost} (data records of the run its raw_totals
     * never held, after its restarts), each above 0.
     *
     * @throws org.awaitility.core.ConditionTimeoutException if the twin did not catch up within 2 minutes
     */
    public void record(ClaimEvidence e) {
        await("the offset twin wrote everything").atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(250))
                .ignoreExceptions().until(() -> s.topics().caughtUp(GROUP, RunNames.CUSTOMER_TOTALS));
        OffsetSampler.Result offsets = sampler.result();
        String last;
        synchronized (this) {
            last = stop().line();
        }
        e.figure("twin_sink", last);
        e.figure("twin_restarts", stoppedRuns.size());
        e.figure("twin_offset_samples_judged", offsets.judged());
        e.figure("twin_offsets_ahead_of_clickhouse", offsets.violations());
        e.negativeControl("twin_positions_committed_ahead_of_clickhouse", offsets.positionsAhead(), Anomaly.LOST,
                "the twin sink (" + GROUP + ", tables in " + DATABASE + "), which commits each batch's offsets before its "
                        + "insert: records whose offsets it committed while its raw_totals did not hold them, each counted "
                        + "once, by the sampler that holds the real sink to 0" + (offsets.examples().isEmpty() ? ""
                        : ": " + offsets.examples()));
        e.negativeControl("twin_records_lost", lost(), Anomaly.LOST, "data records of the run the twin never stored: it "
                + "was stopped and started again at the end of each outage and resumed from the offsets it had committed "
                + "ahead of its inserts, so the records in between were never written (the real sink's "
                + "changelog_records_never_stored_in_raw_totals is 0)");
    }

    /** @return data records of customer.totals at or after the twin's first offsets that its raw_totals does not hold */
    private long lost() {
        Set<String> stored = new HashSet<>();
        s.ch().rows("SELECT kafka_partition, kafka_offset FROM " + DATABASE + ".raw_totals")
                .forEach(r -> stored.add(r.get(0) + "@" + r.get(1)));
        long[] missing = {0};
        s.topics().readAll(RunNames.CUSTOMER_TOTALS, "read_committed", r -> {
            if (r.offset() >= from.getOrDefault(r.partition(), 0L) && !stored.contains(r.partition() + "@" + r.offset())) {
                missing[0]++;
            }
        });
        return missing[0];
    }

    /** Stops the twin and drops its scratch database (its group stays, at its last commit). */
    @Override
    public void close() {
        sampler.close();
        try {
            synchronized (this) {
                if (!run.isDone()) {
                    stop();
                }
            }
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
