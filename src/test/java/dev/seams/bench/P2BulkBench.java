package dev.seams.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seams.fixture.StandContext;
import dev.seams.sink.Batching;
import dev.seams.stand.Stand;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * P2 (issue 13 §3): the sink against the physical limit of this ClickHouse, one bulk insert of
 * the same N rows per table ({@link DirectInsert} with one batch). The sink runs twice per
 * repetition: per poll (as in P1) and gathering polls ({@code --batch-rows N --batch-wait 5s}: one
 * insert per table for the whole drain, offsets committed after it). Goal: batched sink ≥ 0.5 × bulk. A
 * contender's repetition is several runs of the same records, each on emptied tables, until their timed spans add
 * up to {@link Benchmarks#minSpanNanos()} ({@link BenchRun#repeated}; issue 26: spans of several seconds).
 * Then what batching costs in freshness ({@link Freshness}): the latency of a steady stream per
 * batching setting.
 */
@ExtendWith(StandContext.Resolver.class)
class P2BulkBench {

    private static final Duration FRESHNESS_LOAD = Duration.ofSeconds(6);

    @Test
    void p2SinkVsBulkInsert(StandContext s) throws Exception {
        Stand stand = s.stand();
        BenchRun.facts(stand);
        BenchTables tables = BenchTables.create(stand);
        ScratchTotals data = ScratchTotals.shared(stand);
        int n = data.rows().size();
        Batching batched = new Batching(n, Duration.ofSeconds(5));
        Map<String, List<Double>> rates = new LinkedHashMap<>();
        for (String name : List.of("sink batched", "sink per poll", "bulk insert")) {
            rates.put(name, new ArrayList<>());
        }
        Map<String, List<Integer>> runs = new LinkedHashMap<>();
        for (int rep = 0; rep <= Benchmarks.repetitions(); rep++) {   // rep 0 warms up, not counted
            for (int i = 0; i < 3; i++) {
                int contender = (rep + i) % 3;
                String group = "bench-p2-" + contender + "-" + rep + "-";
                int[] run = {0};
                BenchRun.TimedRun once = () -> {
                    tables.truncate();
                    long nanos = switch (contender) {
                        case 0 -> sink(stand, tables, data, group + run[0]++, batched);
                        case 1 -> sink(stand, tables, data, group + run[0]++, Batching.PER_POLL);
                        default -> DirectInsert.run(tables, data.rows(), n);
                    };
                    assertThat(tables.rawRows()).as("raw_totals rows").isEqualTo(n);
                    return nanos;
                };
                BenchRun.Repetition r = BenchRun.repeated(n, once.nanos(), once);
                if (rep > 0) {
                    String name = List.copyOf(rates.keySet()).get(contender);
                    rates.get(name).add(r.rowsPerSec());
                    runs.computeIfAbsent(name, c -> new ArrayList<>()).add(r.runs());
                }
            }
        }
        BenchResult r = new BenchResult("P2", "Sink vs bulk insert", "batched sink drain rate ≥ 0.5 × one bulk insert "
                + "per table of the same rows", 0.5);
        List<Double> bulk = rates.get("bulk insert");
        r.ratio("sink_batched_vs_bulk", Spread.of(BenchRun.ratios(rates.get("sink batched"), bulk)));
        r.ratio("sink_per_poll_vs_bulk", Spread.of(BenchRun.ratios(rates.get("sink per poll"), bulk)));
        r.figure("records", n);
        r.figure("batching", "--batch-rows " + batched.rows() + " --batch-wait " + batched.maxWait().toSeconds() + "s");
        r.figure("runs_per_repetition", runs);
        r.figure("least_timed_seconds_per_repetition", Benchmarks.minSpanNanos() / 1_000_000_000L);
        rates.forEach((name, values) -> r.figure(name.replace(' ', '_') + "_rows_per_s", Spread.of(values), 0));
        r.chart(BenchRun.perRepetitionChart("p2-throughput.svg", "P2: rows/s per repetition, " + n + " records",
                "rows/s", rates, Map.of()), "P2: rows/s per repetition");
        freshness(stand, tables, r);
        Benchmarks.record(r);
    }

    /** @return the sink's drain time over the scratch topic, nanoseconds ({@link SinkDrain#drainNanos()}) */
    private static long sink(Stand stand, BenchTables tables, ScratchTotals data, String group, Batching batching) {
        SinkDrain drain = SinkDrain.run(stand, tables, data.topic(), group, batching);
        assertThat(drain.summary().inserted()).as("records the sink inserted").isEqualTo(data.rows().size());
        return drain.drainNanos();
    }

    private static void freshness(Stand stand, BenchTables tables, BenchResult r) throws Exception {
        Map<String, Batching> settings = new LinkedHashMap<>();
        settings.put("per poll", Batching.PER_POLL);
        settings.put("rows 10000, wait 250ms", new Batching(10_000, Duration.ofMillis(250)));
        settings.put("rows 10000, wait 1s", new Batching(10_000, Duration.ofSeconds(1)));
        List<List<Object>> rows = new ArrayList<>();
        Map<String, Map<String, ? extends Number>> bars = new LinkedHashMap<>();
        int i = 0;
        for (Map.Entry<String, Batching> setting : settings.entrySet()) {
            Percentiles p = Percentiles.of(Freshness.measure(stand, tables, setting.getValue(), FRESHNESS_LOAD, "s" + i++));
            rows.add(List.of(setting.getKey(), p.n(), Math.round(p.p50()), Math.round(p.p99()), Math.round(p.max())));
            bars.put(setting.getKey(), p.marks());
        }
        r.table("Freshness: broker ack → row in raw_totals at " + Freshness.PER_TICK * 1000 / Freshness.TICK_MS
                        + " records/s for " + FRESHNESS_LOAD.toSeconds() + " s (ms; probe every " + Freshness.PROBE_MS + " ms)",
                List.of("batching", "records", "p50 ms", "p99 ms", "max ms"), rows);
        r.note("Batching gathers polls into one insert per table (--batch-rows, --batch-wait): fewer, larger inserts are what "
                + "ClickHouse is fast at (and fewer parts to merge), and the offsets are still committed only after the insert "
                + "was acknowledged. The price is freshness: below --batch-rows records per --batch-wait, every record waits for "
                + "the wait to run out, as the table shows; per poll, a record waits only for its poll's insert.");
        r.chart(BenchRun.barChart("p2-freshness.svg", "P2: what batching costs in freshness", "latency (ms)", bars),
                "P2: latency per batching setting");
    }
}
