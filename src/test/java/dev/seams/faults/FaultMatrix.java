package dev.seams.faults;

import static org.awaitility.Awaitility.await;

import dev.seams.check.ResentChanges;
import dev.seams.lag.LagProbe;
import dev.seams.report.Anomaly;
import dev.seams.report.ClaimCatalog;
import dev.seams.report.ClaimEvidence;
import dev.seams.report.LagChart;
import dev.seams.report.Project;
import dev.seams.sink.Sink;
import dev.seams.sink.SinkMode;
import dev.seams.sink.SinkSummary;
import dev.seams.stand.ClickHouse;
import dev.seams.stand.FaultSchedule;
import dev.seams.stand.FaultSchedule.Shot;
import dev.seams.check.KeyCounts;
import dev.seams.check.LagSampler;
import dev.seams.load.OrderLoad;
import dev.seams.stand.Pg;
import dev.seams.stand.Pipeline;
import dev.seams.check.Reconciliation;
import dev.seams.stand.Stand;
import dev.seams.stand.StandContext;
import dev.seams.stand.Topics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.stream.Collectors;
import org.apache.kafka.common.TopicPartition;

/**
 * One run of the B5 fault matrix for one fault (issue 12; also B17's PostgreSQL cut during streaming): a paced load of real CDC traffic
 * ({@link OrderLoad}, inserts, amount updates, moves, deletes) through the whole pipeline, the fault
 * injected, held and healed at 10, 50 and 90 % of the load ({@link FaultSchedule}), each injection
 * proven ({@link Fault.Proof}); then the pipeline settles and the one checker ({@link Reconciliation})
 * compares {@code customer_totals FINAL} per customer and {@code order_dedup FINAL} per order with PG.
 * All along: the sink's committed offsets are never ahead of what ClickHouse stored
 * ({@link OffsetSampler}, every 500 ms). The raw twin ({@code raw_totals}, MergeTree) is counted per
 * record position of {@code customer.totals} written during the run: a position never stored is
 * {@code lost}; one stored more than once is a redelivery the dedup absorbs (the negative control of
 * the faults that must cause one).
 *
 * <p>The totals sink is the test's {@code SinkContainer} (the fault target); the orders
 * ({@code dedup-demo}) sink runs in this JVM beside it for the whole run, group {@value #ORDERS_GROUP},
 * so it suffers the ClickHouse and broker faults too.
 */
public final class FaultMatrix {

    /** Changes per fault run (≈ 75 % inserts: about 15,000 new orders, 5,000 updates, moves and deletes). */
    public static final int LOAD_CHANGES = 20_000;
    /** Customers of the load. */
    public static final int CUSTOMERS = 100;
    /** Changes per PostgreSQL transaction. */
    public static final int BATCH = 50;
    /** The load's pace, changes per second: about 80 s per run, so that 30 s holds at 10/50/90 % fit in it. */
    public static final double CHANGES_PER_SECOND = 250;
    /** The pace of a load whose fault is held 30 s: about 160 s, so that an injection (hold, restart, recovery) fits between two points. */
    public static final double HELD_CHANGES_PER_SECOND = 125;
    /** Where the fault is injected, share of the load committed in PG. */
    public static final double[] POINTS = {0.1, 0.5, 0.9};
    /** Changes of a quick run ({@link Plan#quick()}): the default tier's cheap version of a fault, one injection. */
    public static final int QUICK_CHANGES = 2_000;
    /** Where a quick run injects its fault. */
    public static final double[] QUICK_POINTS = {0.5};
    /** The orders sink's group (mode dedup-demo into order_dedup). */
    public static final String ORDERS_GROUP = "ds-sink-orders";

    private static final Duration RECOVERY_WAIT = Duration.ofMinutes(4);
    /** How often the chart's lags and the rows in raw_totals are sampled, milliseconds. */
    private static final long LAG_PERIOD_MS = 1000;
    private static final String ROWS_SERIES = "rows in raw_totals";

    /**
     * What one injection did.
     *
     * @param proof               whether and how it took effect
     * @param heldSeconds         from the injection to the end of the heal
     * @param sinkRecoverySeconds from the end of the heal until the sink committed everything {@code customer.totals} held then
     * @param streamsRecoverySeconds from the end of the heal until ds-streams committed everything {@code orders.events} held then
     * @param retries             the sink's retry lines logged while the fault was on ({@code nothing committed})
     */
    public record Injected(Fault.Proof proof, double heldSeconds, double sinkRecoverySeconds, double streamsRecoverySeconds,
                           long retries, long lagAtInjection, long lagBeforeHeal) {
    }

    /**
     * One fault's run.
     *
     * @param name               the entry's name, e.g. {@code clickhouse-stop}
     * @param fault              the fault
     * @param seed               the load's seed
     * @param redeliveryExpected whether the fault must make the sink write records twice (negative control on the raw twin)
     * @param retriesExpected    whether the sink must log failed writes while the fault is on (part of the proof)
     * @param stalledGroup       a group whose lag must grow while the fault is on (part of the proof), or null
     * @param stalledTopic       its topic
     * @param sinkOutput         the totals sink's output so far
     * @param changes            the load's changes
     * @param points             where the fault is injected, shares of the load
     */
    public record Plan(String name, Fault fault, long seed, boolean redeliveryExpected, boolean retriesExpected,
                       String stalledGroup, String stalledTopic, double changesPerSecond,
                       java.util.function.Supplier<String> sinkOutput, int changes, double[] points) {

        /**
         * @return a plan with no stall and no retries expected, paced at {@value #CHANGES_PER_SECOND} changes/s, a load of
         *     {@value #LOAD_CHANGES} changes and the fault at 10/50/90 %
         */
        public static Plan of(String name, Fault fault, long seed, java.util.function.Supplier<String> sinkOutput) {
            return new Plan(name, fault, seed, false, false, null, null, CHANGES_PER_SECOND, sinkOutput, LOAD_CHANGES, POINTS);
        }

        /** @return this plan, requiring the redelivery the fault causes in the raw twin */
        public Plan redelivering() {
            return new Plan(name, fault, seed, true, retriesExpected, stalledGroup, stalledTopic, changesPerSecond, sinkOutput, changes, points);
        }

        /** @return this plan, requiring the sink's failed writes while the fault is on */
        public Plan retrying() {
            return new Plan(name, fault, seed, redeliveryExpected, true, stalledGroup, stalledTopic, changesPerSecond, sinkOutput, changes, points);
        }

        /** @return this plan, requiring that the group's lag on the topic grows while the fault is on */
        public Plan stalling(String group, String topic) {
            return new Plan(name, fault, seed, redeliveryExpected, retriesExpected, group, topic, changesPerSecond, sinkOutput, changes, points);
        }

        /**
         * @param rate changes per second: a fault held for 30 s needs a slower load ({@link #HELD_CHANGES_PER_SECOND}),
         *             so that each injection is healed and recovered before the next point
         * @return this plan at that pace
         */
        public Plan paced(double rate) {
            return new Plan(name, fault, seed, redeliveryExpected, retriesExpected, stalledGroup, stalledTopic, rate, sinkOutput, changes, points);
        }

        /**
         * @return this plan as the default tier's cheap version of the fault (issue 21): a load of
         *     {@value #QUICK_CHANGES} changes, one injection at 50 %, the same checks
         */
        public Plan quick() {
            return new Plan(name, fault, seed, redeliveryExpected, retriesExpected, stalledGroup, stalledTopic, changesPerSecond, sinkOutput,
                    QUICK_CHANGES, QUICK_POINTS);
        }
    }

    private FaultMatrix() {
    }

    /**
     * Runs one fault at the plan's points (10/50/90 %, or 50 % for a quick plan) of one load and records everything into {@code e} (the fault's
     * entry) and its parts {@code <fault>@10%} etc.
     */
    public static void run(ClaimEvidence e, StandContext s, Plan plan) {
        try (SnapshotLedger ledger = SnapshotLedger.start(s.ch())) {
            run(e, s, plan, ledger);
        }
    }

    private static void run(ClaimEvidence e, StandContext s, Plan plan, SnapshotLedger ledger) {
        Stand stand = s.stand();
        Topics topics = s.topics();
        ClickHouse ch = s.ch();
        Map<TopicPartition, Long> windowStart = topics.endOffsets(Stand.CUSTOMER_TOTALS);
        Map<TopicPartition, Long> eventsStart = topics.endOffsets(Stand.ORDERS_EVENTS);
        Sink orders = new Sink(Pipeline.sinkOptions(stand, SinkMode.DEDUP_DEMO, o -> o.withGroupId(ORDERS_GROUP)
                .withRunFor(Duration.ofMinutes(30)).withClickhouse(stand.clickhouseTarget().withTimeout(Duration.ofSeconds(5)))));
        CompletableFuture<SinkSummary> ordersRun = CompletableFuture.supplyAsync(orders::run, runnable -> {
            Thread t = new Thread(runnable, "orders-sink");
            t.setDaemon(true);
            t.start();
        });
        OffsetSampler sampler = new OffsetSampler(topics, ch, dev.seams.sink.SinkOptions.DEFAULT_GROUP);
        LagSampler lags = new LagSampler(stand, LAG_PERIOD_MS, Map.of(ROWS_SERIES, () -> ch.scalar("SELECT count() FROM raw_totals")));
        OrderLoad load = OrderLoad.plan(plan.changes(), CUSTOMERS, plan.seed(), OrderLoad.Mix.REAL);
        long t0 = System.nanoTime();
        List<Shot<Injected>> shots;
        OrderLoad.Applied applied;
        double loadSeconds;
        double settledSeconds;
        OffsetSampler.Result offsets;
        SinkSummary ordersSummary;
        try {
            try (LoadDriver driver = LoadDriver.start(stand, load, BATCH, plan.changesPerSecond())) {
                shots = FaultSchedule.atProgress(driver::progress, plan.points()).within(Duration.ofMinutes(5))
                        .pollEvery(Duration.ofMillis(100)).run(target -> inject(plan, topics, lags, target));
                applied = driver.await(Duration.ofMinutes(10));
            }
            loadSeconds = seconds(t0);
            Pipeline.awaitStreamsMatchesPg(stand);
            LagProbe probe = topics.lagProbe();
            await("the sinks wrote everything").atMost(RECOVERY_WAIT).pollInterval(Duration.ofMillis(250)).ignoreExceptions()
                    .until(() -> caughtUp(probe, dev.seams.sink.SinkOptions.DEFAULT_GROUP, Stand.CUSTOMER_TOTALS)
                            && caughtUp(probe, ORDERS_GROUP, Stand.ORDERS_EVENTS));
            settledSeconds = seconds(t0);
            offsets = sampler.result();
        } finally {
            sampler.close();
            lags.close();
            orders.stop();
        }
        String claim = ClaimCatalog.claimId(e.id());
        String chart = claim.toLowerCase(java.util.Locale.ROOT) + "-" + plan.name() + "-lag.svg";
        LagChart.write(Project.root().resolve("reports").resolve(chart), claim + " " + plan.name() + ": lag and rows in raw_totals, "
                + "the fault injected and healed at " + java.util.Arrays.stream(plan.points()).mapToObj(FaultSchedule::percent)
                .collect(Collectors.joining("/")) + " of the load", lags.samples(), lags.marks());
        e.chart(chart, "Lag over time and rows stored in raw_totals, " + plan.name() + " (red: injected, green: healed)");
        ordersSummary = ordersRun.join();

        e.figure("load", applied.changes() + " changes (" + applied.inserted() + " inserts, " + applied.updatedAmount()
                + " amount updates, " + applied.moved() + " moves, " + applied.deleted() + " deletes) over "
                + CUSTOMERS + " customers, " + BATCH + " per PG transaction, paced at " + (int) plan.changesPerSecond() + "/s");
        e.figure("load_changes_per_second", plan.changesPerSecond());
        e.figure("load_changes", applied.changes());
        e.figure("load_seconds", round(loadSeconds));
        e.figure("seconds_to_settled", round(settledSeconds));
        e.figure("pg_batches_retried", applied.retriedBatches());
        e.figure("orders_sink", ordersSummary.line());
        recordShots(e, plan, shots);

        e.figure("offset_samples", offsets.samples());
        e.figure("offset_samples_judged", offsets.judged());
        e.check("offsets_ahead_of_clickhouse", offsets.violations()).isZero("samples (every " + OffsetSampler.PERIOD_MS
                + " ms, per partition) where ds-sink's committed offset passed a data record raw_totals did not hold"
                + (offsets.examples().isEmpty() ? "" : ": " + offsets.examples()));

        rawTwin(e, plan, topics, ch, windowStart);
        List<String> unstored = ledger.missing(topics, windowStart);
        e.figure("snapshot_ledger_rows", ledger.rows());
        e.anomaly(Anomaly.LOST, e.figure("snapshots_never_stored_in_customer_totals", (long) unstored.size()));
        if (!unstored.isEmpty()) {
            e.figure("snapshots_never_stored_examples", String.join(", ", unstored.subList(0, Math.min(5, unstored.size()))));
        }
        ResentChanges.record(e, topics, eventsStart, applied.changes());
        e.anomaly(Anomaly.LOST, e.figure("acknowledged_changes_missing_in_postgresql",
                applied.acknowledged().differingIn(Pg.of(stand).orders())));   // FINAL = PG says nothing of what PG lost
        Reconciliation.customerTotalsFinal(stand).record(e, "PostgreSQL vs customer_totals FINAL");
        Reconciliation.orders(Pg.of(stand).orders(), Reconciliation.orderRows(ch, Reconciliation.ORDER_DEDUP_FINAL))
                .record(e, "PostgreSQL orders vs order_dedup FINAL");
    }

    private static Injected inject(Plan plan, Topics topics, LagSampler lags, double target) {
        Fault fault = plan.fault();
        String point = FaultSchedule.percent(target);
        int mark = plan.sinkOutput().get().length();
        long t0 = System.nanoTime();
        LongSupplier lag = () -> plan.stalledGroup() == null ? -1 : topics.lag(plan.stalledGroup(), plan.stalledTopic());
        lags.mark(fault.name() + " injected @" + point);
        Fault.Proof proof = fault.inject();
        long lagAtInjection = lag.getAsLong();
        fault.holdOn();   // held from the moment it took effect (a stop may take seconds)
        long retries = count(plan.sinkOutput().get(), mark, "nothing committed");
        long lagBeforeHeal = lag.getAsLong();
        fault.heal();
        lags.mark("healed @" + point);
        double held = seconds(t0);
        long healed = System.nanoTime();
        Map<TopicPartition, Long> totalsEnd = topics.endOffsets(Stand.CUSTOMER_TOTALS);
        Map<TopicPartition, Long> eventsEnd = topics.endOffsets(Stand.ORDERS_EVENTS);
        double[] t = {Double.NaN, Double.NaN};
        await(fault.name() + ": the sink and ds-streams caught up with what was there at the heal").atMost(RECOVERY_WAIT)
                .pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(200)).ignoreExceptions().until(() -> {
                    if (Double.isNaN(t[0]) && reached(topics.committed(dev.seams.sink.SinkOptions.DEFAULT_GROUP, Stand.CUSTOMER_TOTALS), totalsEnd)) {
                        t[0] = seconds(healed);
                    }
                    if (Double.isNaN(t[1]) && reached(topics.committed(Pipeline.STREAMS_GROUP, Stand.ORDERS_EVENTS), eventsEnd)) {
                        t[1] = seconds(healed);
                    }
                    return !Double.isNaN(t[0]) && !Double.isNaN(t[1]);
                });
        return new Injected(proof, round(held), round(t[0]), round(t[1]), retries, lagAtInjection, lagBeforeHeal);
    }

    private static void recordShots(ClaimEvidence e, Plan plan, List<Shot<Injected>> shots) {
        List<List<Object>> rows = new ArrayList<>();
        List<String> unproven = new ArrayList<>();
        for (Shot<Injected> shot : shots) {
            Injected in = shot.result();
            ClaimEvidence p = e.part(plan.name() + shot.label());
            p.figure("load_progress_at_injection", FaultSchedule.percent(shot.progress()));
            p.figure("proof", in.proof().evidence());
            in.proof().measured().forEach(p::figure);
            p.figure("seconds_fault_held", in.heldSeconds());
            p.figure("sink_retries_logged_during_fault", in.retries());
            p.figure("seconds_to_sink_caught_up_after_heal", in.sinkRecoverySeconds());
            p.figure("seconds_to_streams_caught_up_after_heal", in.streamsRecoverySeconds());
            if (plan.stalledGroup() != null) {
                p.figure("lag_" + plan.stalledGroup() + "_at_injection", in.lagAtInjection());
                p.figure("lag_" + plan.stalledGroup() + "_before_heal", in.lagBeforeHeal());
            }
            p.note("Reconciliation with PG runs once the whole load settled: see the entry " + e.id() + ".");
            String missing = null;
            if (!in.proof().tookEffect()) {
                missing = "the fault did not take effect: " + in.proof().evidence();
            } else if (!shot.midLoad()) {
                missing = "the injection landed after the whole load was committed in PG";
            } else if (!shot.onPoint()) {
                missing = "the injection " + shot.offPoint() + " (the previous one was still held)";
            } else if (plan.retriesExpected() && in.retries() == 0) {
                missing = "the sink logged no failed write while the fault was on: the fault did not reach it";
            } else if (plan.stalledGroup() != null && in.lagBeforeHeal() <= in.lagAtInjection()) {
                missing = plan.stalledGroup() + "'s lag did not grow while the fault was on (" + in.lagAtInjection() + " -> "
                        + in.lagBeforeHeal() + "): the fault did not stall it";
            }
            if (missing != null) {
                p.unverified(missing);
                unproven.add(shot.label() + ": " + missing);
            }
            rows.add(List.of(shot.label(), FaultSchedule.percent(shot.progress()), in.proof().evidence(), in.heldSeconds(),
                    in.retries(), in.sinkRecoverySeconds(), in.streamsRecoverySeconds()));
        }
        e.table("Injections of " + plan.name() + " (each its own entry " + ClaimCatalog.claimId(e.id()) + "[" + plan.name() + "@N%])",
                List.of("point",
                "load committed in PG", "proof", "seconds held", "sink retries", "s to sink caught up", "s to ds-streams caught up"), rows);
        if (!unproven.isEmpty()) {
            e.unverified(String.join("; ", unproven));
        }
    }

    /** Raw twin: every data record of customer.totals written during the run, counted in raw_totals by position. */
    private static void rawTwin(ClaimEvidence e, Plan plan, Topics topics, ClickHouse ch, Map<TopicPartition, Long> from) {
        List<String> positions = new ArrayList<>();
        Map<TopicPartition, Long> end = topics.endOffsets(Stand.CUSTOMER_TOTALS);   // both reads below stop here
        java.util.function.Predicate<org.apache.kafka.clients.consumer.ConsumerRecord<byte[], byte[]>> inRun =
                r -> r.offset() < end.getOrDefault(new TopicPartition(r.topic(), r.partition()), Long.MAX_VALUE);
        topics.readFrom(Stand.CUSTOMER_TOTALS, "read_committed", from, r -> {
            if (inRun.test(r)) {
                positions.add(r.partition() + "@" + r.offset());
            }
        });
        String since = from.entrySet().stream().map(en -> "(kafka_partition = " + en.getKey().partition()
                + " AND kafka_offset >= " + en.getValue() + ")").collect(Collectors.joining(" OR "));
        KeyCounts<String> raw = KeyCounts.of(positions, ch.rows("SELECT kafka_partition, kafka_offset FROM raw_totals WHERE "
                + (since.isEmpty() ? "1" : since)).stream().map(r -> r.get(0) + "@" + r.get(1)).toList());
        e.figure("changelog_records_of_the_run", positions.size());
        java.util.Set<String> committed = new java.util.HashSet<>(positions);
        long[] aborted = {0};
        topics.readFrom(Stand.CUSTOMER_TOTALS, "read_uncommitted", from,
                r -> aborted[0] += !inRun.test(r) || committed.contains(r.partition() + "@" + r.offset()) ? 0 : 1);
        e.figure("aborted_records_in_log", aborted[0]);
        e.anomaly(Anomaly.LOST, e.figure("changelog_records_never_stored_in_raw_totals", raw.missing()));
        // a position that holds no committed data record: an aborted transaction's record, or a marker
        e.anomaly(Anomaly.ABORTED_READ, e.figure("raw_rows_at_no_committed_record_position", raw.unexpected()));
        if (plan.redeliveryExpected()) {
            e.negativeControl("raw_twin_redelivered_rows", raw.excess(), Anomaly.DUPLICATE,
                    "raw_totals (MergeTree, no dedup) rows beyond one per record position: the redelivery the fault causes, "
                            + "which customer_totals (ReplacingMergeTree by version) absorbs");
        } else {
            e.figure("raw_twin_redelivered_rows", raw.excess());
        }
    }


    /** @return whether the group has read all data of the topic (lag 0, or only transaction markers behind) */
    private static boolean caughtUp(LagProbe probe, String group, String topic) {
        long lag = probe.totalLag(group, topic);
        return lag == 0 || (lag <= 10 && probe.describe(group, topic).stream().allMatch(l -> l.dataRecordsBehind() == 0));
    }

    private static boolean reached(Map<TopicPartition, Long> committed, Map<TopicPartition, Long> ends) {
        return ends.entrySet().stream().allMatch(en -> committed.getOrDefault(en.getKey(), 0L) >= en.getValue());
    }

    private static long count(String text, int from, String needle) {
        String part = text.length() >= from ? text.substring(from) : text;
        return part.isEmpty() ? 0 : (part.length() - part.replace(needle, "").length()) / needle.length();
    }

    private static double seconds(long since) {
        return (System.nanoTime() - since) / 1e9;
    }

    private static double round(double seconds) {
        return Math.round(seconds * 10) / 10.0;
    }
}
