package dev.seams.it;

import dev.seams.check.ProcessMemory;
import dev.seams.check.Reconciliation.CustomerRow;
import dev.seams.check.Reconciliation;
import dev.seams.fixture.StandContext;
import dev.seams.report.Anomaly;
import dev.seams.report.Claim;
import dev.seams.report.ClaimEvidence;
import dev.seams.stand.ConnectWorker;
import dev.seams.stand.ContainerControl;
import dev.seams.stand.SinkContainer;
import dev.seams.stand.Stand;
import dev.seams.truth.ClickHouse;
import dev.seams.truth.Pg;
import dev.seams.truth.Rejection;
import dev.seams.truth.RunNames;
import dev.seams.truth.Totals;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Predicate;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Claim B16, transaction shape (docs/source.md "One big transaction"), in the fault tier (its 200,000 changes take
 * minutes): one PostgreSQL transaction updates 100,000 orders while every link runs, the sink as its own process.
 * Each JVM of the pipeline keeps within its memory (peak resident memory, read from the kernel, under its heap limit
 * plus an off-heap allowance), no link stops, FINAL = PG at the end — and the claim measures for how long
 * {@code customer_totals FINAL} showed totals of part of the transaction: the source's atomicity is not carried past
 * Debezium, which turns the transaction into 100,000 independent records (a documented non-guarantee).
 *
 * <p>Runs last in its tier ({@link Order}): the 100,000 orders stay, and no later claim of the tier re-reads them.
 */
@ExtendWith(StandContext.Resolver.class)
@Order(Integer.MAX_VALUE)
class TransactionShapeFaultIT {

    /** The claim's customers, 16101..16200, with 1,000 orders each. */
    private static final long FIRST_CUSTOMER = 16_101;
    private static final int CUSTOMERS = 100;
    private static final int ORDERS = 100_000;
    /** The orders are written in transactions of this many rows (the claim's one transaction is the UPDATE). */
    private static final int SEED_TRANSACTION = 10_000;
    private static final BigDecimal RAISE = new BigDecimal("1.00");
    /** What a JVM of the pipeline may hold beyond its heap limit: metaspace, code cache, thread stacks, direct buffers, RocksDB. */
    private static final long OFF_HEAP_ALLOWANCE = 256L << 20;
    private static final Duration SAMPLE_EVERY = Duration.ofMillis(200);
    private static final Duration VISIBLE_WITHIN = Duration.ofMinutes(5);
    private static final String RANGE = "customer_id BETWEEN " + FIRST_CUSTOMER + " AND " + (FIRST_CUSTOMER + CUSTOMERS - 1);

    @Test
    @Claim(id = "B16", variant = "100,000-order transaction", title = "Replica identity and transaction shape: one transaction updating 100,000 orders",
            exercises = {"containers/debezium/orders-connector.json", "streams/TotalsTopology", "sink/Sink"})
    void b16HundredThousandOrderTransaction(ClaimEvidence e, StandContext s) {
        Stand stand = s.stand();
        Pg pg = s.pg();
        try (SinkContainer sink = new SinkContainer(stand, null)) {
            // given: 100,000 orders of 100 customers carried to FINAL, the sink running as its own process
            sink.start();
            for (int from = 0; from < ORDERS; from += SEED_TRANSACTION) {
                pg.execute("INSERT INTO orders (customer_id, amount) SELECT " + FIRST_CUSTOMER + " + g % " + CUSTOMERS
                        + ", (100 + g % 9900) / 100.0 FROM generate_series(" + from + ", " + (from + SEED_TRANSACTION - 1) + ") g");
            }
            s.settle();
            Map<Long, Totals> before = mine(pg.truth());
            Map<Long, Totals> after = new TreeMap<>();
            before.forEach((c, t) -> after.put(c, new Totals(t.orders(), t.total().add(RAISE.multiply(BigDecimal.valueOf(t.orders()))))));
            Sample rest = Sample.await(s.ch(), before, after, VISIBLE_WITHIN, Sample::allBefore);
            e.check("final_before_the_transaction", rest.allBefore()).isTrue("customer_totals FINAL holds the claim's "
                    + "customers as PostgreSQL does before the transaction (" + rest + ")");
            e.figure("orders_of_the_claim", before.values().stream().mapToLong(Totals::orders).sum() + " of " + CUSTOMERS + " customers");
            Map<String, ProcessMemory> atRest = memory(stand, sink);
            String streamsLog = stand.streams().logText();
            Map<TopicPartition, Long> streamsDlq = s.topics().endOffsets(RunNames.ORDERS_EVENTS_DLQ);

            // when: one transaction updates every one of them, FINAL sampled meanwhile
            int updated = pg.execute("UPDATE orders SET amount = amount + " + RAISE + " WHERE " + RANGE);
            long commitNanos = System.nanoTime();
            List<Sample> samples = Sample.until(s.ch(), before, after, commitNanos, VISIBLE_WITHIN);

            // then: the transaction's totals reached FINAL, only part of them for a while ...
            e.check("orders_updated_in_one_transaction", (long) updated).isEqualTo((long) ORDERS, "rows of the UPDATE");
            Map<Long, Totals> truth = mine(pg.truth());
            e.check("pg_customers_not_as_expected", after.keySet().stream().filter(c -> !after.get(c).equals(truth.get(c))).count())
                    .isZero("customers whose total in PostgreSQL is not raised by " + RAISE + " per order");
            Sample last = samples.get(samples.size() - 1);
            e.check("final_shows_the_whole_transaction", last.allAfter()).isTrue(
                    "customer_totals FINAL shows every customer's total after the transaction within " + VISIBLE_WITHIN.toMinutes() + " min");
            Sample firstChange = samples.stream().filter(x -> !x.allBefore()).findFirst().orElse(last);
            List<Sample> partial = samples.stream().filter(x -> !x.allBefore() && !x.allAfter()).toList();
            e.figure("samples_of_final", samples.size() + ", every " + SAMPLE_EVERY.toMillis() + " ms");
            e.figure("commit_to_first_change_in_final_ms", (firstChange.nanos() - commitNanos) / 1_000_000);
            e.figure("commit_to_whole_transaction_in_final_ms", (last.nanos() - commitNanos) / 1_000_000);
            e.figure("partial_transaction_visible_ms", (last.nanos() - firstChange.nanos()) / 1_000_000);
            e.figure("most_customers_midway_in_one_sample", partial.stream().mapToInt(Sample::midway).max().orElse(0));
            e.negativeControl("samples_showing_part_of_the_transaction", partial.size(), Anomaly.WRONG_VALUE,
                    "samples of customer_totals FINAL matching no committed state of PostgreSQL (some customers before the "
                            + "transaction, some after, some midway): its atomicity is not carried");
            e.table("FINAL over time after the commit (every 10th sample)", List.of("ms after commit", "customers before",
                    "customers after", "customers midway"), sampledRows(samples, commitNanos));
            // ... every link kept within its memory and went on ...
            Map<String, ProcessMemory> afterAll = memory(stand, sink);
            List<List<Object>> memoryRows = new ArrayList<>();
            afterAll.forEach((name, m) -> {
                memoryRows.add(List.of(name, atRest.get(name).toString(), m.toString(), ProcessMemory.mib(m.bound(OFF_HEAP_ALLOWANCE))));
                e.figure(name + "_peak_resident_mib", m.peakBytes() >> 20);
                if (m.maxHeapBytes() < 0) {
                    e.unverified(name + " runs without -Xmx on its command line: no heap limit to bound its memory by");
                } else {
                    e.check(name + "_peak_within_bound", m.peakBytes() <= m.bound(OFF_HEAP_ALLOWANCE)).isTrue(
                            name + "'s peak resident memory since it started " + m + " within its heap limit + " + ProcessMemory.mib(OFF_HEAP_ALLOWANCE));
                }
            });
            e.table("Resident memory of each JVM (VmHWM: the peak since it started / VmRSS of /proc/1/status)", List.of("process", "before the transaction",
                    "after it", "bound (-Xmx + " + ProcessMemory.mib(OFF_HEAP_ALLOWANCE) + ")"), memoryRows);
            e.check("streams_same_process", stand.streams().isAlive() && stand.streams().logText().startsWith(streamsLog))
                    .isTrue("ds-streams: the same process, its log continued");
            e.check("connector_task_state", new ConnectWorker(stand.connect()).taskStatus(RunNames.CONNECTOR).state())
                    .isEqualTo("RUNNING", "the connector task after the transaction");
            e.check("sink_same_process", sink.container().isAlive()).isTrue("the sink process runs on");
            e.check("streams_dlq_records", Rejection.since(s.topics(), RunNames.ORDERS_EVENTS_DLQ, streamsDlq).size()).isZero(
                    "records ds-streams dead-lettered during the transaction");
        }
        // ... and FINAL = PG
        s.settle();
        Reconciliation.customerTotalsFinal(stand).record(e, "PostgreSQL vs customer_totals FINAL after the transaction");
        e.note("Debezium reads the transaction from the slot after its commit and writes its 100,000 changes as independent "
                + "records; ds-streams applies them in its own transactions (one per commit interval), the sink writes them "
                + "batch by batch. So customer_totals FINAL goes through states PostgreSQL never had: partial_transaction_"
                + "visible_ms is how long (at the " + SAMPLE_EVERY.toMillis() + " ms sampling's resolution). A reader that "
                + "needs the source's transactions whole must group by the source transaction itself (Debezium's transaction "
                + "metadata topic, provide.transaction.metadata), which this pipeline does not do.");
    }

    /** @return Connect's, ds-streams' and the sink's JVM memory now */
    private static Map<String, ProcessMemory> memory(Stand stand, SinkContainer sink) {
        Map<String, ContainerControl> processes = new LinkedHashMap<>();
        processes.put("connect", stand.control("connect"));
        processes.put("ds_streams", stand.streams().container().control());
        processes.put("sink", sink.container().control());
        Map<String, ProcessMemory> memory = new LinkedHashMap<>();
        processes.forEach((name, c) -> memory.put(name, ProcessMemory.of(c)));
        return memory;
    }

    /** @return the claim's customers of a per-customer map */
    private static Map<Long, Totals> mine(Map<Long, Totals> all) {
        Map<Long, Totals> mine = new TreeMap<>();
        all.forEach((c, t) -> {
            if (c >= FIRST_CUSTOMER && c < FIRST_CUSTOMER + CUSTOMERS) {
                mine.put(c, t);
            }
        });
        return mine;
    }

    private static List<List<Object>> sampledRows(List<Sample> samples, long commitNanos) {
        List<List<Object>> rows = new ArrayList<>();
        for (int i = 0; i < samples.size(); i++) {
            Sample x = samples.get(i);
            if (i % 10 == 0 || i == samples.size() - 1) {
                rows.add(List.of((x.nanos() - commitNanos) / 1_000_000, x.before(), x.after(), x.midway()));
            }
        }
        return rows;
    }

    /**
     * One reading of the claim's customers in customer_totals FINAL.
     *
     * @param nanos  when ({@link System#nanoTime()})
     * @param before customers at their totals before the transaction
     * @param after  customers at their totals after it
     * @param midway customers at neither (part of their orders raised, or absent)
     */
    private record Sample(long nanos, int before, int after, int midway) {

        boolean allBefore() {
            return after == 0 && midway == 0;
        }

        boolean allAfter() {
            return before == 0 && midway == 0;
        }

        static Sample read(ClickHouse ch, Map<Long, Totals> before, Map<Long, Totals> after) {
            List<CustomerRow> rows = Reconciliation.customerRows(ch, "SELECT customer_id, orders, toString(total) FROM customer_totals FINAL WHERE "
                    + RANGE + " ORDER BY customer_id");
            long nanos = System.nanoTime();
            int b = 0;
            int a = 0;
            for (CustomerRow row : rows) {
                if (row.totals().equals(before.get(row.customerId()))) {
                    b++;
                } else if (row.totals().equals(after.get(row.customerId()))) {
                    a++;
                }
            }
            return new Sample(nanos, b, a, before.size() - a - b);
        }

        /** Samples every {@link #SAMPLE_EVERY} until a sample shows every customer after the transaction, or the time is up. */
        static List<Sample> until(ClickHouse ch, Map<Long, Totals> before, Map<Long, Totals> after, long fromNanos, Duration within) {
            List<Sample> samples = new ArrayList<>();
            long deadline = fromNanos + within.toNanos();
            while (true) {
                Sample x = read(ch, before, after);
                samples.add(x);
                if (x.allAfter() || x.nanos() > deadline) {
                    return samples;
                }
                LockSupport.parkNanos(SAMPLE_EVERY.toNanos());
            }
        }

        /** Samples until one satisfies the condition; @return it (the last sample when the time is up) */
        static Sample await(ClickHouse ch, Map<Long, Totals> before, Map<Long, Totals> after, Duration within,
                            Predicate<Sample> condition) {
            long deadline = System.nanoTime() + within.toNanos();
            while (true) {
                Sample x = read(ch, before, after);
                if (condition.test(x) || x.nanos() > deadline) {
                    return x;
                }
                LockSupport.parkNanos(SAMPLE_EVERY.toNanos());
            }
        }

        @Override
        public String toString() {
            return before + " customers before the transaction, " + after + " after, " + midway + " midway";
        }
    }
}
