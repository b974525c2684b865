package dev.seams.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.seams.fixture.StandContext;
import dev.seams.sink.SinkMode;
import dev.seams.stand.Stand;
import dev.seams.truth.ClickHouse;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * P4 (issue 13 §3): per-hop latency through the real pipeline at a steady rate, so B6's end-to-end
 * figure ({@code it/FreshnessIT}) is explained hop by hop. A scheduler commits one order every
 * {@value #PERIOD_MS} ms for {@value #LOAD_SECONDS} s, each its own transaction, for customers of
 * their own ({@value #FIRST_CUSTOMER}…), while the sink runs continuously into the stand's tables.
 * Per order (this JVM's wall clock; the containers share the host's clock):
 * <ol>
 *   <li>Debezium: commit returned → its {@code orders.events} record readable ({@link HopObserver});</li>
 *   <li>ds-streams: that → the customer's snapshot of the order's version readable read_committed
 *       (visible only at the Streams transaction's commit);</li>
 *   <li>sink: that → the row in the first of its tables to show it ({@code raw_totals} or
 *       {@code customer_totals}: the sink inserts a batch's two tables concurrently; its poll and insert);</li>
 *   <li>FINAL: that → visible in {@code customer_totals FINAL}.</li>
 * </ol>
 * The tables are probed every {@value #PROBE_MS} ms (the resolution of the last two hops).
 */
@ExtendWith(StandContext.Resolver.class)
class P4HopLatencyBench {

    private static final int FIRST_CUSTOMER = 900_001;
    private static final int CUSTOMERS = 5;
    private static final long PERIOD_MS = 250;
    private static final int LOAD_SECONDS = 30;
    private static final int ORDERS = (int) (LOAD_SECONDS * 1000 / PERIOD_MS);
    private static final long PROBE_MS = 25;
    private static final List<String> HOPS = List.of("1 commit → orders.events (Debezium)",
            "2 orders.events → customer.totals (ds-streams)", "3 customer.totals → first table written (sink)",
            "4 → visible in customer_totals FINAL", "end to end: commit → FINAL");
    private static final List<String> LABELS = List.of("Debezium", "ds-streams", "sink", "FINAL", "end to end");

    /** One committed order: its customer, the version its snapshot will carry, when its commit returned (ms). */
    private record Committed(long orderId, int customerId, long version, long millis) {
    }

    @Test
    void p4PerHopLatency(StandContext s) throws Exception {
        Stand stand = s.stand();
        BenchRun.facts(stand);
        s.settle();
        ClickHouse ch = s.ch();
        List<Committed> committed = new ArrayList<>();
        Versions raw = new Versions();
        Versions fin = new Versions();
        ExecutorService sinkThread = Executors.newSingleThreadExecutor();
        ScheduledExecutorService pace = Executors.newSingleThreadScheduledExecutor();
        AtomicReference<Exception> failed = new AtomicReference<>();
        try (HopObserver kafka = new HopObserver(stand); Connection pg = stand.pg()) {
            Future<?> sink = sinkThread.submit(() -> s.sink(SinkMode.TOTALS,
                    o -> o.withGroupId("bench-p4-sink").withUntilIdle(Duration.ofSeconds(5))));
            await("the P4 sink has its partitions").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
                    .until(() -> stand.admin().describeConsumerGroups(List.of("bench-p4-sink")).all().get().get("bench-p4-sink")
                            .members().stream().anyMatch(m -> !m.assignment().topicPartitions().isEmpty()));
            long[] perCustomer = new long[CUSTOMERS];
            // the steady rate: one order per PERIOD_MS from a scheduler (the only pacing of this benchmark)
            pace.scheduleAtFixedRate(() -> {
                if (committed.size() >= ORDERS || failed.get() != null) {
                    return;
                }
                try {
                    int i = committed.size() % CUSTOMERS;
                    long id = insert(pg, FIRST_CUSTOMER + i);
                    synchronized (committed) {
                        committed.add(new Committed(id, FIRST_CUSTOMER + i, ++perCustomer[i], System.currentTimeMillis()));
                    }
                } catch (Exception e) {
                    failed.set(e);
                }
            }, 0, PERIOD_MS, TimeUnit.MILLISECONDS);
            await("every order visible in customer_totals FINAL").atMost(Duration.ofSeconds(LOAD_SECONDS + 60))
                    .pollInterval(Duration.ofMillis(PROBE_MS)).until(() -> {
                        if (failed.get() != null) {
                            throw new IllegalStateException("committing an order failed", failed.get());
                        }
                        probe(ch, "raw_totals", raw);
                        probe(ch, "customer_totals FINAL", fin);
                        synchronized (committed) {
                            return committed.size() == ORDERS && committed.stream()
                                    .allMatch(c -> fin.firstAtLeast(c.customerId(), c.version()) != null
                                            && raw.firstAtLeast(c.customerId(), c.version()) != null);
                        }
                    });
            pace.shutdownNow();
            sink.get(90, TimeUnit.SECONDS);
            Benchmarks.record(result(committed, kafka, raw, fin));
        } finally {
            pace.shutdownNow();
            sinkThread.shutdownNow();
        }
    }

    private static long insert(Connection pg, int customerId) throws Exception {
        try (PreparedStatement st = pg.prepareStatement(
                "INSERT INTO orders (customer_id, amount) VALUES (?, 12.34) RETURNING order_id")) {
            st.setInt(1, customerId);
            try (ResultSet rs = st.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    private static void probe(ClickHouse ch, String table, Versions versions) {
        long now = System.currentTimeMillis();
        for (List<String> row : ch.rows("SELECT customer_id, max(version) FROM " + table + " WHERE customer_id >= "
                + FIRST_CUSTOMER + " GROUP BY customer_id")) {
            versions.seen(Integer.parseInt(row.get(0)), Long.parseLong(row.get(1)), now);
        }
    }

    private static BenchResult result(List<Committed> committed, HopObserver kafka, Versions raw, Versions fin) {
        List<List<Double>> hops = new ArrayList<>();
        HOPS.forEach(h -> hops.add(new ArrayList<>()));
        List<Double> sourceLag = new ArrayList<>();
        for (Committed c : committed) {
            Long event = kafka.event(c.orderId());
            Long snapshot = kafka.snapshot(c.customerId(), c.version());
            Long inFinal = fin.firstAtLeast(c.customerId(), c.version());
            Long inRaw = raw.firstAtLeast(c.customerId(), c.version());
            Long written = inRaw == null ? null : Math.min(inRaw, inFinal);   // the sink inserts both tables concurrently
            assertThat(List.of(String.valueOf(event), String.valueOf(snapshot), String.valueOf(inRaw)))
                    .as("order %s seen at every hop", c).doesNotContain("null");
            hops.get(0).add((double) (event - c.millis()));
            hops.get(1).add((double) (snapshot - event));
            hops.get(2).add((double) (written - snapshot));
            hops.get(3).add((double) (inFinal - written));
            hops.get(4).add((double) (inFinal - c.millis()));
            sourceLag.add((double) (c.millis() - kafka.sourceTs(c.orderId())));
        }
        BenchResult r = new BenchResult("P4", "Per-hop latency", "explain B6's end-to-end latency hop by hop (p50/p99 per "
                + "hop at " + 1000 / PERIOD_MS + " orders/s); no ratio goal", null);
        List<List<Object>> rows = new ArrayList<>();
        Map<String, Map<String, ? extends Number>> bars = new LinkedHashMap<>();
        Map<String, Long> p50 = new LinkedHashMap<>();
        Map<String, Long> p99 = new LinkedHashMap<>();
        for (int i = 0; i < HOPS.size(); i++) {
            Percentiles p = Percentiles.of(hops.get(i).stream().mapToDouble(Double::doubleValue).toArray());
            rows.add(List.of(HOPS.get(i), Math.round(p.p50()), Math.round(p.p99()), Math.round(p.max())));
            p50.put(LABELS.get(i), Math.round(p.p50()));
            p99.put(LABELS.get(i), Math.round(p.p99()));
            r.figure("hop_" + (i + 1 == HOPS.size() ? "end_to_end" : Integer.toString(i + 1)) + "_p50_ms", Math.round(p.p50()));
            r.figure("hop_" + (i + 1 == HOPS.size() ? "end_to_end" : Integer.toString(i + 1)) + "_p99_ms", Math.round(p.p99()));
        }
        bars.put("p50", p50);
        bars.put("p99", p99);
        r.figure("orders", committed.size());
        r.figure("rate_per_second", 1000 / PERIOD_MS);
        r.figure("commit_return_minus_source_ts_p50_ms", Math.round(Percentiles.of(
                sourceLag.stream().mapToDouble(Double::doubleValue).toArray()).p50()));
        r.figure("debezium_poll_interval_ms", "500 (connector default; containers/debezium/orders-connector.json sets none)");
        r.figure("streams_commit_interval_ms", 100);
        r.table("Latency per hop, ms (one order every " + PERIOD_MS + " ms for " + LOAD_SECONDS + " s; tables probed every "
                + PROBE_MS + " ms)", List.of("hop", "p50 ms", "p99 ms", "max ms"), rows);
        r.note("How to read it: B6 (it/FreshnessIT) measures only the end-to-end figure. Debezium's hop is the largest: the "
                + "connector polls the replication stream every poll.interval.ms (500 ms by default), so a change waits up to "
                + "one interval, half of it on average, before Connect's producer sends it. ds-streams' hop holds the "
                + "records of an exactly_once_v2 transaction back from read_committed readers until its commit, every "
                + "commit.interval.ms (100 ms), plus the repartition topic's round trip. The sink's hop is one poll and one "
                + "insert; FINAL reads a row as soon as its insert is acknowledged (that hop is the probe's resolution). The "
                + "first two hops are configuration: lowering poll.interval.ms and commit.interval.ms buys freshness with more "
                + "requests and more transactions.");
        r.chart(BenchRun.barChart("p4-hops.svg", "P4: latency per hop, p50 and p99", "latency (ms)", bars),
                "P4: latency per hop");
        return r;
    }
}
