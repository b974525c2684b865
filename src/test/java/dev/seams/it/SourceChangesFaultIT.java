package dev.seams.it;

import static org.awaitility.Awaitility.await;

import dev.seams.check.KeyCounts;
import dev.seams.check.Reconciliation;
import dev.seams.faults.ConnectorStop;
import dev.seams.faults.Fault;
import dev.seams.fixture.Pipeline;
import dev.seams.fixture.StandContext;
import dev.seams.load.SavedOrders;
import dev.seams.report.Anomaly;
import dev.seams.report.Claim;
import dev.seams.report.ClaimEvidence;
import dev.seams.report.FaultNotObservedException;
import dev.seams.stand.ConnectWorker;
import dev.seams.truth.OrderEvents;
import dev.seams.truth.Pg;
import dev.seams.truth.RunNames;
import dev.seams.truth.Topics;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * What the source does in production beyond INSERT, UPDATE and DELETE (issue 22), in the fault tier. B13: a
 * {@code TRUNCATE orders} while everything runs is carried — the shipped DDL's trigger ({@code containers/postgres/
 * 001-orders.sql}) deletes every row first, in the same transaction, and the deletions flow as delete events — and it
 * stays carried after ds-streams and the connector restart. Its twin, in the same run: the same TRUNCATE with the trigger
 * disabled, which is what Debezium does by itself (the truncate skipped by the connector, or dropped without an error
 * by ExtractNewRecordState), leaves every truncated customer with its old totals.
 *
 * <p>A TRUNCATE empties the whole table, every claim's orders with it: the class runs first in its tier
 * ({@link Order}, {@code junit-platform.properties}), when the table holds least, and puts every order back with its
 * id afterwards ({@link SavedOrders}: the pipeline carries them as inserts).
 */
@ExtendWith(StandContext.Resolver.class)
@Order(1)
class SourceChangesFaultIT {

    /** This claim's customers, 7201..7204, with {@value #ORDERS_EACH} orders each before the TRUNCATE. */
    private static final int FIRST_CUSTOMER = 7201;
    private static final int CUSTOMERS = 4;
    private static final int ORDERS_EACH = 10;
    /** A customer that first orders after the TRUNCATE; the customers of the orders written after the restarts and after the twin's TRUNCATE. */
    private static final int NEW_CUSTOMER = FIRST_CUSTOMER + CUSTOMERS;
    private static final int MARKER_CUSTOMER = NEW_CUSTOMER + 1;
    private static final int TWIN_MARKER_CUSTOMER = MARKER_CUSTOMER + 1;
    private static final String TRIGGER = "orders_truncate_as_deletes";

    @Test
    @Claim(id = "B13", title = "TRUNCATE is carried or stopped, never silent", exercises = {"containers/postgres/001-orders.sql",
        "containers/debezium/orders-connector.json", "streams/TotalsTopology", "sink/Sink"})
    void b13TruncateIsCarried(ClaimEvidence e, StandContext s) {
        // given: the pipeline settled, this claim's customers among every order PostgreSQL holds
        Pg pg = s.pg();
        for (int i = 0; i < CUSTOMERS * ORDERS_EACH; i++) {
            pg.insertOrder(FIRST_CUSTOMER + i % CUSTOMERS, BigDecimal.valueOf(1000 + i * 37L, 2));
        }
        s.settle();
        e.check("shipped_truncate_trigger", pg.longs("SELECT count(*) FROM pg_trigger WHERE tgname = '" + TRIGGER
                        + "' AND tgrelid = 'orders'::regclass AND tgenabled = 'O'").get(0))
                .isEqualTo(1L, "the shipped DDL turns a TRUNCATE of orders into the deletion of every row (" + TRIGGER
                        + " on orders, enabled)");
        try (SavedOrders before = SavedOrders.save(pg, "orders_before_b13")) {
            Map<TopicPartition, Long> start = s.topics().endOffsets(RunNames.ORDERS_EVENTS);
            e.figure("orders_truncated", before.orderIds().size());
            // when: TRUNCATE orders, then new orders for two of the customers and for a new one
            pg.execute("TRUNCATE orders");
            List<Long> after = List.of(pg.insertOrder(FIRST_CUSTOMER, new BigDecimal("12.34")),
                    pg.insertOrder(FIRST_CUSTOMER + 1, new BigDecimal("0.01")), pg.insertOrder(NEW_CUSTOMER, new BigDecimal("99.99")));
            // then: a delete event for every truncated order, ds-streams' totals and FINAL equal PostgreSQL (the truncated
            // customers 0/0.00)
            awaitStreamsProcessed(s, NEW_CUSTOMER);
            e.check("customers_differing_from_pg_in_customer_totals", Reconciliation.customers(pg.truth(), s.topics().latestTotals())
                    .differences().size()).isZero("customers whose latest totals in customer.totals differ from PostgreSQL once "
                    + "ds-streams processed the orders written after the TRUNCATE");
            List<OrderEvents.Event> events = OrderEvents.read(s.topics(), start);
            KeyCounts<Long> deletes = KeyCounts.of(before.orderIds(), OrderEvents.deletedOrderIds(events));
            e.check("truncated_orders_without_a_delete_event", deletes.missing())
                    .isZero("every order the TRUNCATE removed has its deletion event in orders.events (__deleted true, the old row)");
            e.figure("events_after_the_truncate", events.size());
            e.figure("orders_after_the_truncate", after.size());
            FinalFromStart.record(e, s, "PostgreSQL vs customer_totals FINAL after the TRUNCATE");
            restarted(e.part("after restarts"), s, before.orderIds());
            twin(e, s);
        }
        s.settle();
    }

    /**
     * B13[after restarts]: ds-streams restarted (graceful, the same state directory) and the connector stopped and
     * resumed; no truncated order comes back, and FINAL still equals PostgreSQL.
     */
    private static void restarted(ClaimEvidence part, StandContext s, List<Long> truncated) {
        Map<TopicPartition, Long> start = s.topics().endOffsets(RunNames.ORDERS_EVENTS);
        part.figure("seconds_to_ds_streams_running", Pipeline.restartStreams(s.stand()));
        Fault stop = new ConnectorStop(new ConnectWorker(s.stand().connect()), RunNames.CONNECTOR);
        Fault.Proof proof = stop.inject();
        try {
            part.figure("connector_stop_proof", proof.evidence());
            if (!proof.tookEffect()) {
                throw new FaultNotObservedException(proof.evidence());
            }
        } finally {
            stop.heal();
        }
        long marker = s.pg().insertOrder(MARKER_CUSTOMER, new BigDecimal("1.00"));   // the connector streams again
        await("the order written after the restarts in orders.events").atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(500))
                .until(() -> OrderEvents.orderIds(OrderEvents.read(s.topics(), start)).contains(marker));
        s.settle();
        List<OrderEvents.Event> events = OrderEvents.read(s.topics(), start);
        Set<Long> gone = Set.copyOf(truncated);
        part.check("truncated_orders_back_after_the_restarts", OrderEvents.orderIds(events, Set.of("r", "c", "u")).stream().filter(gone::contains).count())
                .isZero("events after the restarts that bring a truncated order back (a snapshot read, an insert or an update)");
        FinalFromStart.record(part, s, "PostgreSQL vs customer_totals FINAL after the restarts");
    }

    /**
     * The twin: the same TRUNCATE with the shipped trigger disabled — what Debezium does by itself. Once ds-streams has
     * processed an order written after it, its latest totals per customer are compared with PostgreSQL: the customers
     * it leaves with their old totals are the negative control {@code twin_customers_stale_after_truncate}. Then the
     * trigger is enabled again and the twin's truncated orders put back with their ids: the pipeline, which never saw
     * them go, matches PostgreSQL again.
     */
    private static void twin(ClaimEvidence e, StandContext s) {
        Pg pg = s.pg();
        Topics topics = s.topics();
        try (SavedOrders truncated = SavedOrders.save(pg, "orders_before_b13_twin")) {
            Map<TopicPartition, Long> start = topics.endOffsets(RunNames.ORDERS_EVENTS);
            pg.execute("ALTER TABLE orders DISABLE TRIGGER " + TRIGGER);
            try {
                pg.execute("TRUNCATE orders");
            } finally {
                pg.execute("ALTER TABLE orders ENABLE TRIGGER " + TRIGGER);
            }
            pg.insertOrder(TWIN_MARKER_CUSTOMER, new BigDecimal("2.00"));
            awaitStreamsProcessed(s, TWIN_MARKER_CUSTOMER);
            List<OrderEvents.Event> events = OrderEvents.read(topics, start);
            e.figure("twin_orders_truncated", truncated.orderIds().size());
            e.figure("twin_events_after_its_truncate", events.size());
            Reconciliation stale = Reconciliation.customers(pg.truth(), topics.latestTotals());
            e.negativeControl("twin_customers_stale_after_truncate", stale.differences().size(), Anomaly.STALE,
                    "the same TRUNCATE with " + TRIGGER + " disabled (what Debezium does by itself: no event): customers whose "
                            + "latest totals in customer.totals differ from PostgreSQL once ds-streams processed a later order");
        }
    }

    /**
     * Waits until ds-streams processed everything written so far: the last order written is the first of a customer
     * of its own, whose totals appear in customer.totals once processed, and ds-streams has no lag left then.
     */
    private static void awaitStreamsProcessed(StandContext s, long lastOrdersCustomer) {
        Topics topics = s.topics();
        await("ds-streams processed the orders written after the TRUNCATE").atMost(Duration.ofMinutes(2))
                .pollInterval(Duration.ofMillis(250)).ignoreExceptions()
                .until(() -> topics.latestTotals().containsKey(lastOrdersCustomer)
                        && topics.lag(Pipeline.STREAMS_GROUP, RunNames.ORDERS_EVENTS) == 0
                        && topics.lag(Pipeline.STREAMS_GROUP, Pipeline.REPARTITION_TOPIC) == 0);
    }

}
