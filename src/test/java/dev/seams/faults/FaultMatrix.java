package dev.seams.faults;

import static org.awaitility.Awaitility.await;

import dev.seams.check.HangingTransactions;
import dev.seams.check.LagSampler;
import dev.seams.check.RawTwin;
import dev.seams.check.Reconciliation;
import dev.seams.check.ResentChanges;
import dev.seams.faults.FaultSchedule.Shot;
import dev.seams.fixture.Pipeline;
import dev.seams.fixture.StandContext;
import dev.seams.load.OrderLoad;
import dev.seams.report.Anomaly;
import dev.seams.report.ClaimCatalog;
import dev.seams.report.ClaimEvidence;
import dev.seams.report.ReportWriter;
import dev.seams.sink.Sink;
import dev.seams.sink.SinkMode;
import dev.seams.sink.SinkSummary;
import dev.seams.sinks.RunningSink;
import dev.seams.sinks.SinkTrait;
import dev.seams.sinks.SinkUnderTest;
import dev.seams.stand.Stand;
import dev.seams.truth.ClickHouse;
import dev.seams.truth.Pg;
import dev.seams.truth.RunNames;
import dev.seams.truth.Topics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongSupplier;
import java.util.stream.Collectors;
import org.apache.kafka.common.TopicPartition;
import org.awaitility.core.ConditionTimeoutException;

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
 * <p>The totals sink is the sink under test, running for the whole run ({@link RunningSink}, {@code faults/FaultSink}:
 * ds-sink's JVM in a container, an image's container, or the Kafka engine's tables; the fault target); the orders
 * ({@code dedup-demo}) sink, ds-sink whatever the sink under test, runs in this JVM beside it for the whole run, group
 * {@code ds-sink-orders}, so it suffers the ClickHouse and broker faults too. Where the sink under test keeps no record
 * position in {@code raw_totals} ({@link SinkTrait#RECORD_POSITION}: the Kafka engine), the two checks that need one,
 * the offset sampler and the raw twin, are not judged, and the entry says so.
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
    public static final String ORDERS_GROUP = RunNames.of("ds-sink-orders");

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
     * @param nothingAtStake      the fault's own word, after its heal, on why nothing was at stake while it held
     *                            ({@link Fault#nothingAtStake()}), or empty
     */
    public record Injected(Fault.Proof proof, double heldSeconds, double sinkRecoverySeconds, double streamsRecoverySeconds,
                           long retries, long lagAtInjection, long lagBeforeHeal, java.util.Optional<String> nothingAtStake) {
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
     * @param sink               the totals sink, the sink under test running
     * @param changes            the load's changes
     * @param points             where the fault is injected, shares of the load
     */
    public record Plan(String name, Fault fault, long seed, boolean redeliveryExpected, boolean retriesExpected,
                       String stalledGroup, String stalledTopic, double changesPerSecond,
                       RunningSink sink, int changes, double[] points) {

        /**
         * @return a plan with no stall and no retries expected, paced at {@value #CHANGES_PER_SECOND} changes/s, a load of
         *     {@value #LOAD_CHANGES} changes and the fault at 10/50/90 %
         */
        public static Plan of(String name, Fault fault, long seed, RunningSink sink) {
            return new Plan(name, fault, seed, false, false, null, null, CHANGES_PER_SECOND, sink, LOAD_CHANGES, POINTS);
        }

        /** @return this plan, requiring the redelivery the fault causes in the raw twin */
        public Plan redelivering() {
            return new Plan(name, fault, seed, true, retriesExpected, stalledGroup, stalledTopic, changesPerSecond, sink, changes, points);
        }

        /**
         * @return this plan, requiring the sink's failed writes while the fault is on: its retry lines where it logs
         *     them ({@link RunningSink#logsRetries()}), else its first group's lag growing on {@code customer.totals}
         */
        public Plan retrying() {
            if (!sink.logsRetries()) {
                return stalling(sink.groups().get(0), RunNames.CUSTOMER_TOTALS);
            }
            return new Plan(name, fault, seed, redeliveryExpected, true, stalledGroup, stalledTopic, changesPerSecond, sink, changes, points);
        }

        /** @return this plan, requiring that the group's lag on the topic grows while the fault is on */
        public Plan stalling(String group, String topic) {
            return new Plan(name, fault, seed, redeliveryExpected, retriesExpected, group, topic, changesPerSecond, sink, changes, points);
        }

        /**
         * @param rate changes per second: a fault held for 30 s needs a slower load ({@link #HELD_CHANGES_PER_SECOND}),
         *             so that each injection is healed and recovered before the next point
         * @return this plan at that pace
         */
        public Plan paced(double rate) {
            return new Plan(name, fault, seed, redeliveryExpected, retriesExpected, stalledGroup, stalledTopic, rate, sink, changes, points);
        }

        /**
         * @return this plan as the default tier's cheap version of the fault (issue 21): a load of
         *     {@value #QUICK_CHANGES} changes, one injection at 50 %, the same checks
         */
        public Plan quick() {
            return new Plan(name, fault, seed, redeliveryExpected, retriesExpected, stalledGroup, stalledTopic, changesPerSecond, sink,
                    QUICK_CHANGES, QUICK_POINTS);
        }
    }

    /** How long a transaction must have been open to count as hanging (ds-streams' transaction.timeout.ms is 10 s). */
    static final Duration HANGING_AFTER = Duration.ofSeconds(60);

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
        Map<TopicPartition, Long> windowStart = topics.endOffsets(RunNames.CUSTOMER_TOTALS);
        Map<TopicPartition, Long> eventsStart = topics.endOffsets(RunNames.ORDERS_EVENTS);
        Sink orders = new Sink(Pipeline.dsSinkOptions(stand, SinkMode.DEDUP_DEMO, o -> o.withGroupId(ORDERS_GROUP)
                .withRunFor(Duration.ofMinutes(30)).withClickhouse(stand.clickhouseTarget().withTimeout(Duration.ofSeconds(5)))));
        CompletableFuture<SinkSummary> ordersRun = CompletableFuture.supplyAsync(orders::run, runnable -> {
            Thread t = new Thread(runnable, "orders-sink");
            t.setDaemon(true);
            t.start();
        });
        boolean positions = SinkUnderTest.configured().traits().contains(SinkTrait.RECORD_POSITION);
        OffsetSampler sampler = positions ? new OffsetSampler(topics, ch, RunNames.SINK_GROUP) : null;
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
            awaitSinksWroteEverything(topics, plan.sink(), ordersRun);
            settledSeconds = seconds(t0);
            offsets = positions ? sampler.result() : null;
        } catch (ConditionTimeoutException stuck) {   // a heal that did not recover, or a pipeline that did not settle
            throw nameHangingTransactions(e, stand, stuck);
        } finally {
            if (sampler != null) {
                sampler.close();
            }
            lags.close();
            orders.stop();
        }
        String claim = ClaimCatalog.claimId(e.id());
        String chart = claim.toLowerCase(java.util.Locale.ROOT) + "-" + plan.name() + "-lag.svg";
        lags.writeChart(ReportWriter.runDir().resolve(chart), claim + " " + plan.name() + ": lag and rows in raw_totals, "
                + "the fault injected and healed at " + java.util.Arrays.stream(plan.points()).mapToObj(FaultSchedule::percent)
                .collect(Collectors.joining("/")) + " of the load");
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
        FaultPoints.record(e, plan, shots);

        e.figure("sink_under_test", plan.sink().name());
        if (positions) {
            e.figure("offset_samples", offsets.samples());
            e.figure("offset_samples_judged", offsets.judged());
            e.figure("positions_committed_ahead_of_clickhouse", offsets.positionsAhead());
            e.check("offsets_ahead_of_clickhouse", offsets.violations()).isZero("samples (every " + OffsetSampler.PERIOD_MS
                    + " ms, per partition) where the sink's committed offset passed a data record raw_totals did not hold"
                    + (offsets.examples().isEmpty() ? "" : ": " + offsets.examples()));
            RawTwin.record(e, topics, ch, windowStart, plan.redeliveryExpected());
        } else {
            e.figure("not_judged", "the offset sampler and the raw twin: " + SinkTrait.RECORD_POSITION.lacking());
        }
        List<String> unstored = ledger.missing(topics, windowStart);
        long ledgerRows = e.figure("snapshot_ledger_rows", ledger.rows());
        long stored = ch.scalar("SELECT count() FROM customer_totals");
        if (ledgerRows == 0 && stored > 0) {   // rows the ledger's view never saw: written where no view on the table fires
            e.figure("not_judged_snapshot_ledger", "customer_totals holds " + stored + " rows, the ledger none: the sink's "
                    + "inserts do not reach a materialized view on customer_totals (a view's own inserts into its target "
                    + "table fire no view on it in ClickHouse " + ch.version() + "); judged by FINAL = PG alone");
        } else {
            e.anomaly(Anomaly.LOST, e.figure("snapshots_never_stored_in_customer_totals", (long) unstored.size()));
            if (!unstored.isEmpty()) {
                e.figure("snapshots_never_stored_examples", String.join(", ", unstored.subList(0, Math.min(5, unstored.size()))));
            }
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
        int mark = plan.sink().output().length();
        long t0 = System.nanoTime();
        LongSupplier lag = () -> plan.stalledGroup() == null ? -1 : topics.lag(plan.stalledGroup(), plan.stalledTopic());
        lags.mark(fault.name() + " injected @" + point);
        Fault.Proof proof = fault.inject();
        long lagAtInjection = lag.getAsLong();
        fault.holdOn();   // held from the moment it took effect (a stop may take seconds)
        long retries = count(plan.sink().output(), mark, "nothing committed");
        long lagBeforeHeal = lag.getAsLong();
        fault.heal();
        lags.mark("healed @" + point);
        double held = seconds(t0);
        long healed = System.nanoTime();
        Map<TopicPartition, Long> totalsEnd = topics.endOffsets(RunNames.CUSTOMER_TOTALS);
        Map<TopicPartition, Long> eventsEnd = topics.endOffsets(RunNames.ORDERS_EVENTS);
        double[] t = {Double.NaN, Double.NaN};
        await(fault.name() + ": the sink and ds-streams caught up with what was there at the heal").atMost(RECOVERY_WAIT)
                .pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(200)).ignoreExceptions().until(() -> {
                    if (Double.isNaN(t[0]) && plan.sink().groups().stream()
                            .allMatch(g -> reached(topics.committed(g, RunNames.CUSTOMER_TOTALS), totalsEnd))) {
                        t[0] = seconds(healed);
                    }
                    if (Double.isNaN(t[1]) && reached(topics.committed(Pipeline.STREAMS_GROUP, RunNames.ORDERS_EVENTS), eventsEnd)) {
                        t[1] = seconds(healed);
                    }
                    return !Double.isNaN(t[0]) && !Double.isNaN(t[1]);
                });
        return new Injected(proof, round(held), round(t[0]), round(t[1]), retries, lagAtInjection, lagBeforeHeal,
                fault.nothingAtStake());
    }

    /**
     * After the pipeline did not recover or settle in time: whether a hanging transaction holds it (ds-streams' output, its
     * repartition topic or a changelog it restores from; docs/findings.md 2026-12-05), recorded as the entry's check
     * {@code hanging_transactions} with each one and the command that aborts it, so the entry fails by that name and not
     * by a bare timeout.
     *
     * @return the exception to throw: the timeout, with the hanging transactions in its message when there are any
     */
    private static RuntimeException nameHangingTransactions(ClaimEvidence e, Stand stand, ConditionTimeoutException stuck) {
        List<String> searched = new ArrayList<>(List.of(RunNames.CUSTOMER_TOTALS, Pipeline.REPARTITION_TOPIC));
        searched.addAll(Pipeline.CHANGELOG_TOPICS);
        List<HangingTransactions.Hanging> hanging;
        try {
            hanging = HangingTransactions.find(stand.admin(), searched, HANGING_AFTER);
        } catch (RuntimeException unanswered) {
            stuck.addSuppressed(unanswered);
            return stuck;
        }
        e.table("Hanging transactions (open longer than " + HANGING_AFTER.toSeconds() + " s, no longer listed by their "
                + "coordinator), each with the command that aborts it", List.of("transaction", "abort"), hanging.stream()
                .map(h -> List.<Object>of(h.toString(), h.abortCommand(stand.bootstrapServers()))).toList());
        e.check("hanging_transactions", hanging.size()).isZero("transactions left open on " + searched + " that no "
                + "coordinator will complete: the last stable offset stays below them and every read_committed reader stops there");
        return hanging.isEmpty() ? stuck : new IllegalStateException("the pipeline did not settle: " + hanging.size()
                + " hanging transaction(s) hold it: " + hanging, stuck);
    }

    /**
     * Waits until the sink under test (every group of it) and the orders sink read every data record of their topics;
     * fails at once if either ended first, as it cannot catch up any more: with the orders sink's (this thread's {@code
     * ordersRun}) stop or summary, or with how the sink under test's process exited ({@link RunningSink#exited}).
     *
     * @throws IllegalStateException if a sink ended before it caught up
     * @throws org.awaitility.core.ConditionTimeoutException if they did not catch up within {@link #RECOVERY_WAIT}
     */
    private static void awaitSinksWroteEverything(Topics topics, RunningSink sink, CompletableFuture<SinkSummary> ordersRun) {
        try {
            await("the sinks wrote everything").atMost(RECOVERY_WAIT).pollInterval(Duration.ofMillis(250)).ignoreExceptions()
                    .failFast("a sink ended", () -> ordersRun.isDone() || sink.exited().isPresent())
                    .until(() -> sink.groups().stream().allMatch(g -> topics.caughtUp(g, RunNames.CUSTOMER_TOTALS))
                            && topics.caughtUp(ORDERS_GROUP, RunNames.ORDERS_EVENTS));
        } catch (org.awaitility.core.TerminalFailureException ended) {
            java.util.Optional<String> exited = sink.exited();
            if (exited.isPresent()) {
                throw new IllegalStateException("the sink under test (" + sink.name() + ") " + exited.get()
                        + " before it caught up with " + RunNames.CUSTOMER_TOTALS, ended);
            }
            String outcome = ordersRun.handle((summary, error) -> error == null ? "summary " + summary.line()
                    : String.valueOf(error instanceof java.util.concurrent.CompletionException && error.getCause() != null
                            ? error.getCause() : error)).join();
            throw new IllegalStateException("the orders sink (group " + ORDERS_GROUP + ") ended before it caught up with "
                    + RunNames.ORDERS_EVENTS + ": " + outcome, ended);
        }
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
