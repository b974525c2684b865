package dev.seams.stand;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.seams.check.Reconciliation;
import dev.seams.sink.Sink;
import dev.seams.sink.SinkMode;
import dev.seams.sink.SinkOptions;
import dev.seams.sink.SinkSummary;
import dev.seams.truth.Groups;
import dev.seams.wire.TopicNames;
import java.time.Duration;
import java.util.function.UnaryOperator;

/** Waiting for the pipeline to settle, and running the sink, the way every claim test does. */
public final class Pipeline {

    /** Kafka Streams' consumer group (its application.id). */
    public static final String STREAMS_GROUP = "ds-streams";
    /** The repartition topic of ds-streams' regrouping by customer (TotalsTopology.ORDERS_BY_CUSTOMER). */
    public static final String REPARTITION_TOPIC = STREAMS_GROUP + "-" + dev.seams.streams.TotalsTopology.ORDERS_BY_CUSTOMER + "-repartition";
    /** The changelog topics of ds-streams' state stores (TotalsTopology.ORDERS_STORE, TOTALS_STORE): what its restore reads. */
    public static final java.util.List<String> CHANGELOG_TOPICS = java.util.List.of(
            STREAMS_GROUP + "-" + dev.seams.streams.TotalsTopology.ORDERS_STORE + "-changelog",
            STREAMS_GROUP + "-" + dev.seams.streams.TotalsTopology.TOTALS_STORE + "-changelog");
    /** How often {@link #awaitStreamsMatchesPg} compares ds-streams' latest snapshots with PG, ms. */
    public static final long SETTLE_POLL_MS = 250;
    /**
     * The system property bounding {@link #awaitStreamsMatchesPg}, seconds (default 300). The mutation tier lowers it
     * (a mutant whose pipeline settles wrong fails its claims in two minutes, not five per claim); a healthy stand
     * settles in seconds.
     */
    public static final String SETTLE_TIMEOUT_PROPERTY = "seams.settle.seconds";
    /**
     * The system property (seconds; unset or 0: off) after which a settle that stopped moving fails at once: ds-streams
     * has consumed all of {@code orders.events}, which has not grown for that long, and its snapshots still differ from
     * PG. The mutation tier sets it (a mutant that makes the pipeline settle wrong fails in seconds); a claim run leaves
     * it off, since Debezium may pause that long after a fault.
     */
    public static final String SETTLE_STUCK_PROPERTY = "seams.settle.stuck.seconds";

    /** How long a drain waits on a still pipeline that differs from PG before the claim judges it, seconds. */
    public static final long DRAIN_STILL_SECONDS = 30;

    /** The settle's Awaitility alias: a settle that timed out names itself with it. */
    public static final String SETTLE_CHECK = "customer.totals matches PG per customer";
    /** How a settle that can no longer succeed names itself ({@link SettledWrongException}). */
    public static final String SETTLED_WRONG = "the pipeline settled wrong";

    /**
     * Whether a claim's FAIL reason is this shared settle's, not the claim's own check: the mutation tier credits such
     * a kill to the settle precondition named as itself (docs/mutants.md; issue 36 §1).
     *
     * @param reason a FAIL reason or a gate line
     * @return whether it names the settle's check
     */
    public static boolean isSettleFailure(String reason) {
        return reason != null && (reason.contains(SETTLE_CHECK) || reason.contains(SETTLED_WRONG));
    }

    /** A settle that can no longer succeed: nothing moves and PG still differs ({@value #SETTLE_STUCK_PROPERTY}). */
    static final class SettledWrongException extends IllegalStateException {
        SettledWrongException(String message) {
            super(message);
        }
    }

    private Pipeline() {
    }

    /**
     * Waits (up to 5 min, or {@value #SETTLE_TIMEOUT_PROPERTY}; checking at once and then every {@value #SETTLE_POLL_MS} ms) until ds-streams has consumed all of
     * {@code orders.events} and the last snapshot of every customer in {@code customer.totals}
     * (read_committed) equals PostgreSQL's count and sum for that customer, by {@link Reconciliation}:
     * a customer PG no longer has (all its orders deleted or moved) must read 0/0.00, never an old
     * non-zero snapshot.
     */
    public static void awaitStreamsMatchesPg(Stand stand) {
        Settle settle = awaitSettle(stand, Long.getLong(SETTLE_STUCK_PROPERTY, 0));
        if (!settle.matched()) {
            throw new SettledWrongException(SETTLED_WRONG + ": " + settle.detail());
        }
    }

    /**
     * What a drain found ({@link #awaitStreamsDrained}).
     *
     * @param matched whether ds-streams' latest snapshot of every customer equals PostgreSQL's
     * @param detail  how they differ, or that they match
     */
    public record Settle(boolean matched, String detail) {
        @Override
        public String toString() {
            return matched ? "matched PostgreSQL" : "did not match PostgreSQL: " + detail;
        }
    }

    /**
     * Waits as {@link #awaitStreamsMatchesPg} does, but a pipeline that cannot match PostgreSQL is not this wait's
     * failure: once ds-streams consumed all of {@code orders.events} and the topic has not grown for {@code
     * DRAIN_STILL_SECONDS} ({@value #DRAIN_STILL_SECONDS} s, or {@value #SETTLE_STUCK_PROPERTY} when set) with the
     * snapshots still differing, it returns, and the claim's own parity checks judge what arrived. For the claims whose
     * check is parity itself (G1, G2, G9): a regression that breaks parity is then caught by the claim's check, with its
     * evidence, not by the shared settle precondition (docs/mutants.md, "credited to the check that fired").
     *
     * @return whether ds-streams matched PostgreSQL, and how not
     * @throws org.awaitility.core.ConditionTimeoutException if the pipeline still moved after {@value
     *     #SETTLE_TIMEOUT_PROPERTY} (default 300 s)
     */
    public static Settle awaitStreamsDrained(Stand stand) {
        long stuck = Long.getLong(SETTLE_STUCK_PROPERTY, 0);
        return awaitSettle(stand, stuck > 0 ? stuck : DRAIN_STILL_SECONDS);
    }

    private static Settle awaitSettle(Stand stand, long stuckSeconds) {
        Pg pg = Pg.of(stand);
        Topics topics = Topics.of(stand);
        long stuckNanos = Duration.ofSeconds(stuckSeconds).toNanos();
        long[] still = {-1, System.nanoTime()};   // orders.events' end offsets summed, and since when they are unchanged
        Settle[] last = {null};
        await(SETTLE_CHECK).atMost(Duration.ofSeconds(Long.getLong(SETTLE_TIMEOUT_PROPERTY, 300)))
                .pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(SETTLE_POLL_MS))
                .ignoreExceptions()
                .untilAsserted(() -> {
                    long end = topics.totalEndOffset(TopicNames.ORDERS_EVENTS);
                    Reconciliation rec = Reconciliation.customers(pg.truth(), topics.latestTotals());
                    long lag = topics.lag(STREAMS_GROUP, TopicNames.ORDERS_EVENTS);
                    if (end != still[0] || lag != 0 || rec.matches()) {
                        still[0] = end;
                        still[1] = System.nanoTime();
                    } else if (stuckNanos > 0 && System.nanoTime() - still[1] > stuckNanos) {
                        last[0] = new Settle(false, "ds-streams consumed all of orders.events, unchanged for "
                                + stuckSeconds + " s, and its latest snapshot per customer differs from PG: " + rec.describe());
                        return;
                    }
                    assertThat(rec.matches()).as("ds-streams' latest snapshot per customer vs PG: %s", rec.describe()).isTrue();
                    assertThat(lag).as("ds-streams lag").isZero();
                    last[0] = new Settle(true, rec.describe());
                });
        return last[0];
    }

    /**
     * Restarts ds-streams gracefully through {@link Stand#streams()}: SIGTERM (Kafka Streams closes,
     * committing its work), then its departed member is removed from the group
     * ({@link Groups#removeAllMembers}) so that the new process is assigned at once, then a new
     * process on the same state directory, waited for until {@code RUNNING}. A new process is what
     * makes ds-streams' producer read the topics' metadata afresh: a running producer learns that
     * {@code customer.totals} gained partitions only at its next metadata refresh
     * ({@code metadata.max.age.ms}, 5 min by default; B10).
     *
     * @return seconds from the stop to {@code RUNNING}
     */
    public static double restartStreams(Stand stand) {
        long t0 = System.nanoTime();
        stand.streams().stop();
        Groups.of(stand.admin()).removeAllMembers(STREAMS_GROUP);
        stand.streams().start();
        return Math.round((System.nanoTime() - t0) / 1e8) / 10.0;
    }

    /**
     * Waits until {@code orders.events} holds at least {@code expected} records in total (end offsets summed).
     */
    public static void awaitOrdersEvents(Stand stand, long expected) {
        Topics topics = Topics.of(stand);
        await("orders.events reaches " + expected + " records").atMost(Duration.ofMinutes(3))
                .pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(100))
                .until(() -> topics.totalEndOffset(TopicNames.ORDERS_EVENTS), n -> n >= expected);
    }

    /**
     * Runs the sink in this JVM until it has caught up with the end offsets of its topic as read when it
     * started ({@link SinkOptions#withUntilCaughtUp()}; read_committed: the last stable offsets), instead of
     * idling 5 s after the last record: every claim runs its sink after what it must read is in the topic
     * (the pipeline settled, the records injected and acknowledged). A run that must also take records
     * written while it runs chooses its own window in {@code tweak} ({@code withUntilIdle}, {@code withRunFor}).
     *
     * @param tweak adjusts the default options ({@link SinkOptions#defaults}: group ds-sink, read_committed, no
     *              customer range; here until caught up)
     * @return its summary
     */
    public static SinkSummary sink(Stand stand, SinkMode mode, UnaryOperator<SinkOptions> tweak) {
        return new Sink(sinkOptions(stand, mode, tweak)).run();
    }

    /**
     * @param tweak adjusts the default options
     * @return the options of a sink run against the stand ({@link SinkOptions#defaults}: group ds-sink,
     *     read_committed, no customer range, until caught up with the end offsets read at its start), for a test that runs the {@link Sink} itself
     */
    public static SinkOptions sinkOptions(Stand stand, SinkMode mode, UnaryOperator<SinkOptions> tweak) {
        return tweak.apply(SinkOptions.defaults(stand.bootstrapServers(), stand.clickhouseTarget(), mode)
                .withUntilCaughtUp());
    }
}
