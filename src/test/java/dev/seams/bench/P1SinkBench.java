package dev.seams.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seams.fixture.StandContext;
import dev.seams.project.Project;
import dev.seams.sink.Batching;
import dev.seams.sink.SinkOptions;
import dev.seams.stand.Stand;
import dev.seams.truth.ClickHouse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * P1 (issue 13 §3): the sink draining N {@code customer.totals} records into ClickHouse vs a
 * direct JSONEachRow insert of the identical rows in identical batches of {@value #POLL_RECORDS}
 * (the sink's records per poll) from this JVM ({@link DirectInsert}), and ClickHouse's own Kafka
 * engine on the same records ({@link KafkaEnginePeer}). Goal: sink ≥ 0.8 × direct.
 *
 * <p>Each repetition runs the measured contenders one after the other on emptied tables — the sink as
 * shipped (while behind, offsets committed at most every {@link SinkOptions#DEFAULT_COMMIT_INTERVAL}), the
 * sink with {@code --commit-interval 0s} (every batch's offsets committed: one {@code OffsetCommit} per
 * 1,000 records), the direct insert — in an order rotated per repetition and reversed every
 * other one (so no contender always follows the same one), then the Kafka engine, then an idle span that
 * also lets the engine's teardown settle before the next repetition. A contender's repetition is several
 * runs of the same records, each on emptied tables, until their timed spans add up to
 * {@link Benchmarks#minSpanNanos()} ({@link BenchRun#repeated}; issue 26: spans of several seconds);
 * {@value #WARM_UP_ROUNDS} uncounted rounds first warm the JIT and the connections, and each repetition reports the
 * JIT's milliseconds per run over each contender's runs, the set-up between them included ({@link BenchRun#jitMillis()}). Every contender but the engine runs under
 * {@link CpuAccount} (its first run of each repetition): CPU seconds per party (this JVM, each stand
 * container), the evidence of where the sink's extra time goes on this 2-core machine. The sink's
 * figure is its drain time ({@link dev.seams.sink.Sink#drainTime()}: first assignment → the end of the
 * closing offset commits, the same end for both commit intervals); its whole run (consumer start and group join included) is reported beside it, and is the
 * basis of the comparison with the Kafka engine, whose timed span includes its consumer's start too.
 * Then one more sink run under JDK Flight Recorder ({@link JfrProfile}), not counted.
 */
@ExtendWith(StandContext.Resolver.class)
class P1SinkBench {

    /** The sink's records per poll ({@code max.poll.records} of {@link dev.seams.consumer.SinkConsumer}). */
    static final int POLL_RECORDS = 1_000;
    private static final Duration ENGINE_TIMEOUT = Duration.ofSeconds(90);
    /**
     * Uncounted rounds of the measured contenders before the repetitions. Two: a bench run of 2026-12-06 went on to
     * four and the sink's runs still compiled 270–680 ms each (each run builds its consumer, client and threads anew,
     * code a deployed sink runs once), so more rounds buy time, not a settled JIT (docs/findings.md 2026-12-06).
     */
    private static final int WARM_UP_ROUNDS = 2;
    private static final String CPU_SINK = "sink (whole run)";
    private static final String CPU_SINK_0S = "sink, --commit-interval 0s (whole run)";
    private static final String CPU_DIRECT = "direct insert";
    private static final String CPU_IDLE = "idle span";
    /** The contenders of the CPU accounting, in the order of its table's columns. */
    private static final List<String> CONTENDERS = List.of(CPU_SINK, CPU_SINK_0S, CPU_DIRECT, CPU_IDLE);

    @Test
    void p1SinkVsDirectInsert(StandContext s) throws Exception {
        Stand stand = s.stand();
        BenchRun.facts(stand);
        int n = Benchmarks.records();
        BenchTables tables = BenchTables.create(stand);
        ScratchTotals data = ScratchTotals.shared(stand);
        Rounds rounds = new Rounds(new CpuAccount(stand));
        List<Double> warmUpJit = new ArrayList<>();
        for (int round = 0; round < WARM_UP_ROUNDS; round++) {   // not counted
            rounds.run(stand, tables, data, 0, false);
            warmUpJit.add(rounds.jitMsPerRun.values().stream().mapToDouble(l -> l.get(l.size() - 1)).max().orElse(0));
            rounds.clear();
        }
        rounds.warmUpJit = warmUpJit;
        for (int rep = 0; rep < Benchmarks.repetitions(); rep++) {
            rounds.run(stand, tables, data, rep + 1, true);
        }
        tables.truncate();
        JfrProfile.Summary profile = JfrProfile.profile(Project.root().resolve("target/bench/p1-sink.jfr"),
                Thread.currentThread().getName() + ",sink-insert", 12,
                () -> SinkDrain.run(stand, tables, data.topic(), "bench-p1-profile", Batching.PER_POLL));
        Benchmarks.record(rounds.result(n, profile));
    }

    /** The repetitions' figures. */
    private static final class Rounds {
        final CpuAccount cpu;
        /** contender (sink, direct insert, idle span) → party → CPU seconds per repetition */
        final Map<String, Map<String, List<Double>>> cpuSeconds = new LinkedHashMap<>();
        /** contender → wall seconds of its measured span per repetition */
        final Map<String, List<Double>> spanSeconds = new LinkedHashMap<>();
        final List<Double> sinkDrain = new ArrayList<>();
        final List<Double> sinkEveryBatchDrain = new ArrayList<>();
        /** contender → JIT compiling per run over its repetition's runs, set-up included, ms ({@link BenchRun#jitMillis()}) */
        final Map<String, List<Double>> jitMsPerRun = new LinkedHashMap<>();
        /** the warm-up rounds' largest JIT milliseconds per run of a contender, one per round */
        List<Double> warmUpJit = List.of();
        /** contender → runs of the records per repetition ({@link BenchRun#repeated}) */
        final Map<String, List<Integer>> runs = new LinkedHashMap<>();
        final List<Double> sinkWhole = new ArrayList<>();
        final List<Double> direct = new ArrayList<>();
        final List<Double> engine = new ArrayList<>();
        final List<Double> engineFirst = new ArrayList<>();
        final List<Long> sinkInserts = new ArrayList<>();
        final List<Long> engineFinalCustomers = new ArrayList<>();
        String engineError;

        Rounds(CpuAccount cpu) {
            this.cpu = cpu;
        }

        void run(Stand stand, BenchTables tables, ScratchTotals data, int rep, boolean withEngine) throws Exception {
            for (int i = 0; i < 3; i++) {
                int k = rep % 2 == 0 ? i : 2 - i;
                switch ((rep + k) % 3) {
                    case 0 -> sinkDrain.add(sink(stand, tables, data, CPU_SINK, "bench-p1-" + rep, SinkOptions.DEFAULT_COMMIT_INTERVAL));
                    case 1 -> direct.add(direct(tables, data));
                    default -> sinkEveryBatchDrain.add(sink(stand, tables, data, CPU_SINK_0S, "bench-p1-0s-" + rep, Duration.ZERO));
                }
            }
            if (withEngine && engineError == null) {
                engine(stand, data, rep);
            }
            measured(CPU_IDLE, () -> null);
        }

        /**
         * The sink with this commit interval, run on emptied tables until its drains add up to the span (the first
         * under {@link CpuAccount}); returns its drain rate, rows/s.
         */
        private double sink(Stand stand, BenchTables tables, ScratchTotals data, String contender, String group,
                            Duration commitInterval) throws Exception {
            int n = data.rows().size();
            tables.truncate();
            long jit0 = BenchRun.jitMillis();
            SinkDrain first = measured(contender, () -> drain(stand, tables, data, group, commitInterval));
            long[] whole = {first.totalNanos()};
            int[] more = {0};
            BenchRun.Repetition r = BenchRun.repeated(n, first.drainNanos(), () -> {
                tables.truncate();
                SinkDrain next = drain(stand, tables, data, group + "-" + ++more[0], commitInterval);
                whole[0] += next.totalNanos();
                return next.drainNanos();
            });
            repeated(contender, r, jit0);
            if (contender.equals(CPU_SINK)) {
                sinkWhole.add(BenchRun.rate((long) n * r.runs(), whole[0]));
                sinkInserts.add(first.inserts());
            }
            return r.rowsPerSec();
        }

        /** One sink drain of the scratch topic into the (emptied) tables, checked: every record inserted once. */
        private static SinkDrain drain(Stand stand, BenchTables tables, ScratchTotals data, String group, Duration commitInterval) {
            int n = data.rows().size();
            SinkDrain drain = SinkDrain.run(stand, tables, data.topic(), group, Batching.PER_POLL, commitInterval);
            assertThat(drain.summary().inserted()).as("records the sink inserted: %s", drain.summary().line()).isEqualTo(n);
            assertThat(tables.rawRows()).as("raw_totals rows after the sink").isEqualTo(n);
            return drain;
        }

        /** The direct insert, run on emptied tables until its inserts add up to the span (the first under {@link CpuAccount}); rows/s. */
        private double direct(BenchTables tables, ScratchTotals data) throws Exception {
            int n = data.rows().size();
            BenchRun.TimedRun insert = () -> {
                long nanos = DirectInsert.run(tables, data.rows(), POLL_RECORDS);
                assertThat(tables.rawRows()).as("raw_totals rows after the direct insert").isEqualTo(n);
                return nanos;
            };
            tables.truncate();
            long jit0 = BenchRun.jitMillis();
            long first = measured(CPU_DIRECT, insert::nanos);
            BenchRun.Repetition r = BenchRun.repeated(n, first, () -> {
                tables.truncate();
                return insert.nanos();
            });
            repeated(CPU_DIRECT, r, jit0);
            return r.rowsPerSec();
        }

        /** Keeps a contender's repetition: its runs, and the JIT's milliseconds per run since {@code jit0}. */
        private void repeated(String contender, BenchRun.Repetition r, long jit0) {
            runs.computeIfAbsent(contender, c -> new ArrayList<>()).add(r.runs());
            jitMsPerRun.computeIfAbsent(contender, c -> new ArrayList<>()).add((double) (BenchRun.jitMillis() - jit0) / r.runs());
        }

        /** Runs one contender's span under {@link CpuAccount}, keeping its CPU seconds per party and its wall seconds. */
        private <T> T measured(String contender, java.util.concurrent.Callable<T> span) throws Exception {
            CpuAccount.Measured<T> m = cpu.measure(() -> {
                long s0 = System.nanoTime();
                T value = span.call();
                spanSeconds.computeIfAbsent(contender, c -> new ArrayList<>()).add((System.nanoTime() - s0) / 1e9);
                return value;
            });
            Map<String, List<Double>> byParty = cpuSeconds.computeIfAbsent(contender, c -> new LinkedHashMap<>());
            m.seconds().forEach((party, seconds) -> byParty.computeIfAbsent(party, p -> new ArrayList<>()).add(seconds));
            return m.value();
        }

        /** The Kafka engine's round; a failure is recorded and ends the engine's part of the benchmark, not the benchmark. */
        private void engine(Stand stand, ScratchTotals data, int rep) {
            int n = data.rows().size();
            try {
                KafkaEnginePeer peer = KafkaEnginePeer.run(stand, data.topic(), "bench-p1-engine-" + rep + "-" + System.nanoTime(),
                        n, ENGINE_TIMEOUT);
                assertThat(peer.rawRows()).as("rows the Kafka engine wrote").isEqualTo(n);
                engineFinalCustomers.add(peer.finalCustomers());
                engine.add(BenchRun.rate(n, peer.totalNanos()));
                engineFirst.add(peer.firstVisibleNanos() / 1e6);
            } catch (Exception | AssertionError e) {
                engineError = e.toString();
            } finally {
                restartClickHouseIfItDied(stand, rep);
            }
        }

        /**
         * ClickHouse 18.16's Kafka engine can take the whole server down when its table is dropped
         * ({@link KafkaEnginePeer}): then the engine's part ends with that as its error, the server is
         * started again (same container, same data, fixed ports) and the benchmark goes on.
         */
        private void restartClickHouseIfItDied(Stand stand, int rep) {
            try {
                OptionalInt exited = stand.restartClickHouseIfExited();
                if (exited.isEmpty()) {
                    return;
                }
                engineError = "ClickHouse exited (status " + exited.getAsInt() + ") during the Kafka engine's round "
                        + rep + " (see target/stand-logs/clickhouse.log)" + (engineError == null ? "" : "; " + engineError);
                KafkaEnginePeer.drop(ClickHouse.of(stand.clickhouseTarget()));   // a half-dropped engine table would consume again
            } catch (RuntimeException e) {
                engineError = (engineError == null ? "" : engineError + "; ") + "ClickHouse not answering after the Kafka engine's round "
                        + rep + ": " + e;
                throw e;   // the measured contenders need ClickHouse: the benchmark cannot go on
            }
        }

        /** @return a contender's or party's label as part of a figure's name: {@code direct insert} → {@code direct_insert} */
        private static String figureName(String label) {
            return label.replaceAll("[^a-z0-9]+", "_").replaceAll("_+$", "");
        }

        void clear() {
            for (List<?> l : List.of(sinkDrain, sinkEveryBatchDrain, sinkWhole, direct, engine, engineFirst, sinkInserts, engineFinalCustomers)) {
                l.clear();
            }
            cpuSeconds.clear();
            spanSeconds.clear();
            runs.clear();
            jitMsPerRun.clear();
        }

        BenchResult result(int n, JfrProfile.Summary profile) {
            BenchResult r = new BenchResult("P1", "Sink vs direct insert", "sink drain rate ≥ 0.8 × direct insert rate "
                    + "(same rows, batches of " + POLL_RECORDS + ", both tables)", 0.8);
            r.ratio("sink_vs_direct", Spread.of(BenchRun.ratios(sinkDrain, direct)));
            r.ratio("sink_whole_run_vs_direct", Spread.of(BenchRun.ratios(sinkWhole, direct)));
            r.ratio("sink_commit_interval_0s_vs_direct", Spread.of(BenchRun.ratios(sinkEveryBatchDrain, direct)));
            if (engineError == null) {
                r.ratio("sink_whole_run_vs_kafka_engine", Spread.of(BenchRun.ratios(sinkWhole, engine)));
                r.ratio("kafka_engine_vs_direct", Spread.of(BenchRun.ratios(engine, direct)));
                r.figure("kafka_engine_rows_per_s", Spread.of(engine), 0);
                r.figure("kafka_engine_first_rows_visible_ms", Spread.of(engineFirst), 0);
                r.figure("kafka_engine_customers_in_final_copy", engineFinalCustomers);
                r.note("ClickHouse's Kafka engine as shipped for -Dseams.sink=kafka-engine (containers/clickhouse/kafka-engine/"
                        + "totals.sql: an engine table and its view per target table; 18.16, server defaults) showed its first rows "
                        + "after a median " + Math.round(Spread.of(engineFirst).median()) + " ms: its librdkafka consumers' start and group join, "
                        + "then blocks of kafka_max_block_size (= max_block_size, 65,536 rows) or whatever arrived within "
                        + "stream_flush_interval_ms (7.5 s). It keeps no record position (kafka_partition/kafka_offset are -1) "
                        + "and has no dead-letter path; the comparison with it is on whole runs, start and join included.");
            } else {
                r.figure("kafka_engine_error", engineError);
            }
            r.figure("records", n);
            r.figure("sink_drain_rows_per_s", Spread.of(sinkDrain), 0);
            r.figure("sink_commit_interval_0s_drain_rows_per_s", Spread.of(sinkEveryBatchDrain), 0);
            r.figure("sink_whole_run_rows_per_s", Spread.of(sinkWhole), 0);
            r.figure("direct_rows_per_s", Spread.of(direct), 0);
            r.figure("sink_insert_queries_per_run", sinkInserts);
            r.figure("runs_per_repetition", runs.entrySet().stream().collect(java.util.stream.Collectors.toMap(
                    e -> e.getKey().replace(" (whole run)", ""), Map.Entry::getValue, (a, b) -> a, LinkedHashMap::new)));
            r.figure("least_timed_seconds_per_repetition", Benchmarks.minSpanNanos() / 1_000_000_000L);
            jitMsPerRun.forEach((contender, ms) -> r.figure("jit_ms_per_run_" + figureName(contender.replace(" (whole run)", "")),
                    Spread.of(ms), 0));
            r.figure("warm_up_rounds_jit_ms_per_run", warmUpJit.stream().map(Math::round).toList());
            r.note("JIT compiling over each contender's runs (jit_ms_per_run_*, this JVM's compiler threads, ms per run of the records, the set-up between runs included): "
                    + "after " + WARM_UP_ROUNDS + " uncounted rounds (warm_up_rounds_jit_ms_per_run: the most a contender "
                    + "compiled per run in each). Each sink run builds its consumer, ClickHouse client and threads anew, code a "
                    + "deployed sink runs once, so the sink's runs keep compiling where the direct insert's have settled; that "
                    + "compiling shares the two cores with the servers and is part of the sink's figure.");
            r.figure("direct_insert_queries_per_run", 2 * ((n + POLL_RECORDS - 1) / POLL_RECORDS));
            Map<String, List<Double>> series = new LinkedHashMap<>();
            series.put("sink (drain)", sinkDrain);
            series.put("sink, --commit-interval 0s (drain)", sinkEveryBatchDrain);
            series.put("sink (whole run)", sinkWhole);
            series.put("direct insert", direct);
            series.put("Kafka engine", engine);
            r.chart(BenchRun.perRepetitionChart("p1-throughput.svg", "P1: rows/s per repetition, " + n + " records",
                    "rows/s", series, Map.of()), "P1: rows/s per repetition");
            cpuTable(r);
            r.figure("profile_file", Project.root().toAbsolutePath().relativize(profile.file().toAbsolutePath()).toString());
            r.figure("profile_cpu_samples", profile.cpuSamples());
            r.figure("profile_native_samples", profile.nativeSamples());
            r.note("The history of this figure (the write path before and after the profile-driven changes, each run's "
                    + "sink_vs_direct) is in docs/performance.md: a report shows only what its own run measured.");
            r.table("JFR profile of one more sink run (the sink's polling thread and its insert threads; " + JfrProfile.PERIOD_MS + " ms sampling)",
                    List.of("list", "method", "samples", "% of the thread's samples"), JfrProfile.rows(profile));
            return r;
        }

        /**
         * The CPU accounting: per party, the median CPU seconds of each contender's span and the sink's extra
         * over the direct insert; the JVM's figure is exact, a container's window runs ~2 s past the span
         * (the idle span's column is that background).
         */
        private void cpuTable(BenchResult r) {
            List<List<Object>> rows = new ArrayList<>();
            List<Object> wall = new ArrayList<>(List.of("wall seconds of the span"));
            for (String contender : CONTENDERS) {
                wall.add(Spread.round(Spread.of(spanSeconds.get(contender)).median(), 3));
            }
            wall.add(Spread.round(Spread.of(spanSeconds.get(CPU_SINK)).median() - Spread.of(spanSeconds.get(CPU_DIRECT)).median(), 3));
            rows.add(wall);
            double[] sums = new double[CONTENDERS.size()];
            for (String party : cpuSeconds.get(CPU_SINK).keySet()) {
                List<Object> row = new ArrayList<>(List.of(party));
                double[] medians = new double[CONTENDERS.size()];
                int i = 0;
                for (String contender : CONTENDERS) {
                    medians[i] = Spread.of(cpuSeconds.get(contender).get(party)).median();
                    sums[i] += medians[i];
                    row.add(Spread.round(medians[i++], 3));
                }
                row.add(Spread.round(medians[0] - medians[2], 3));
                rows.add(row);
                r.figure("cpu_seconds_" + figureName(party),
                        Map.of("sink", Spread.round(medians[0], 3), "sink_commit_interval_0s", Spread.round(medians[1], 3),
                                "direct", Spread.round(medians[2], 3), "idle", Spread.round(medians[3], 3)));
            }
            rows.add(List.of("sum of the parties' medians", Spread.round(sums[0], 3), Spread.round(sums[1], 3), Spread.round(sums[2], 3),
                    Spread.round(sums[3], 3), Spread.round(sums[0] - sums[2], 3)));
            r.note("CPU accounting (the table below): what each party spent during a contender's span. The sink's whole run "
                    + "against the direct insert shows what reading from Kafka costs beside writing the same rows: this JVM "
                    + "(fetch, decode, validation, mapping, commits), the broker (fetches, the group's offset commits) and "
                    + "ClickHouse (the same inserts). The sink as shipped, draining a backlog, commits its offsets at most "
                    + "every " + SinkOptions.DEFAULT_COMMIT_INTERVAL.toMillis() + " ms (--commit-interval; once caught up, each "
                    + "batch's at once); the --commit-interval 0s column commits every 1,000-record batch's offsets (one "
                    + "OffsetCommit each, paid for in broker CPU on the same two cores). Each column is the first run of "
                    + "each repetition, one run of the records.");
            r.table("CPU seconds per party (median of the repetitions; this JVM exact over the span, a container from just before "
                            + "the span to ~2 s after it: the idle span's column is that window's background)",
                    List.of("party", CPU_SINK, CPU_SINK_0S, CPU_DIRECT, CPU_IDLE, "sink − direct"), rows);
        }
    }
}
