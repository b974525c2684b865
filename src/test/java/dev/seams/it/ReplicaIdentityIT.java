package dev.seams.it;

import dev.seams.check.Reconciliation;
import dev.seams.fixture.StandContext;
import dev.seams.inbox.InboxMode;
import dev.seams.inbox.LedgerDb;
import dev.seams.load.OrderChanges;
import dev.seams.load.OrderLoad;
import dev.seams.report.Anomaly;
import dev.seams.report.Claim;
import dev.seams.report.ClaimEvidence;
import dev.seams.seed.OrderSeeder;
import dev.seams.sink.SinkMode;
import dev.seams.sinks.SinkTrait;
import dev.seams.stand.InboxProcess;
import dev.seams.truth.Endpoints;
import dev.seams.truth.Pg;
import dev.seams.truth.Rejection;
import dev.seams.truth.RunNames;
import dev.seams.truth.Topics;
import dev.seams.wire.OrderEvent;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Claim B16, replica identity (docs/source.md "Replica identity"): the shipped DDL gives {@code orders}
 * {@code REPLICA IDENTITY FULL}, but a table an operator recreates, or one of a user's own, has PostgreSQL's default,
 * under which a DELETE's old image carries the key only. Every consumer of {@code orders.events} must stay right then:
 * none may read a deletion's row beyond its key.
 */
@ExtendWith(StandContext.Resolver.class)
class ReplicaIdentityIT {

    private static final int LOAD_CHANGES = 400;
    private static final int CUSTOMERS = 20;
    private static final long LOAD_SEED = 16_016;
    /** More moves and deletions than ordinary traffic: the changes whose old row the default identity leaves out. */
    private static final OrderLoad.Mix MIX = new OrderLoad.Mix(0.15, 0.10, 0.15);
    private static final int LOAD_BATCH = 10;
    private static final int INBOX_COMMIT_SIZE = 100;
    private static final int INBOX_KEEP_FACTOR = 3;

    @Test
    @Claim(id = "B16", variant = "replica identity default", title = "Replica identity and transaction shape: REPLICA IDENTITY DEFAULT",
            exercises = {"streams/JsonSerdes", "streams/TotalsTopology", "sink/DedupDemoMapper", "inbox/InboxStore"})
    void b16ReplicaIdentityDefault(ClaimEvidence e, StandContext s) {
        s.requireSink(SinkTrait.DEDUP_DEMO, "B16 reads the deletes into order_dedup");
        s.stand();   // the inbox runs as a process of the suite's own stand: NOT_RUN on an external one, before anything changes
        // given: the pipeline settled; orders with PostgreSQL's default replica identity (a DELETE's old image: the key)
        Endpoints stand = s.endpoints();
        Topics topics = s.topics();
        Pg pg = s.pg();
        s.settle();
        Map<TopicPartition, Long> start = topics.endOffsets(RunNames.ORDERS_EVENTS);
        Map<TopicPartition, Long> streamsDlq = topics.endOffsets(RunNames.ORDERS_EVENTS_DLQ);
        long watermark = OrderChanges.orderIdWatermark(stand);
        OrderLoad.Applied applied;
        pg.execute("ALTER TABLE orders REPLICA IDENTITY DEFAULT");
        try {
            e.figure("replica_identity_during_the_load", pg.replicaIdentity("orders"));
            // when: real traffic — inserts, amount updates, moves to another customer, deletions
            applied = OrderLoad.plan(LOAD_CHANGES, CUSTOMERS, LOAD_SEED, MIX).apply(stand, LOAD_BATCH, done -> { });
        } finally {
            pg.execute("ALTER TABLE orders REPLICA IDENTITY FULL");
        }
        e.check("replica_identity_after", pg.replicaIdentity("orders")).isEqualTo("FULL", "the shipped identity, back for later claims");
        OrderChanges load = OrderChanges.awaitLoad(stand, start, watermark, applied.changes());
        e.figure("load", applied.inserted() + " inserts, " + applied.updatedAmount() + " amount updates, " + applied.moved()
                + " moves, " + applied.deleted() + " deletes in PG transactions of " + LOAD_BATCH);

        // then: the deletions carry no row of their own (a consumer reading it would keep each deleted order) ...
        Deletions deletions = Deletions.of(load);
        e.figure("deletion_record_example", deletions.example());
        e.check("deletion_records", deletions.count()).isEqualTo(applied.deleted(), "one orders.events record per DELETE of the load");
        e.check("deletions_before_their_order", deletions.withoutEarlierRecord())
                .isZero("deletion records of an order the load's records had not carried before (the load deletes only its own orders)");
        e.check("deletions_with_their_row", deletions.count() - deletions.withoutRow())
                .isZero("deletion records that carry the deleted order's customer_id and amount (the default identity logs the key only)");
        e.negativeControl("deletions_without_their_row", deletions.withoutRow(), Anomaly.WRONG_VALUE,
                "deletion records whose customer_id and amount are not the deleted order's: a consumer that subtracts a "
                        + "deletion's own row would leave each of these orders on its customer");
        // ... ds-streams carries them: nothing dead-lettered, customer_totals FINAL = PG
        e.figure("ds_streams", s.drain().toString());
        e.check("streams_dlq_records", Rejection.since(topics, RunNames.ORDERS_EVENTS_DLQ, streamsDlq).size())
                .isZero("records ds-streams dead-lettered during the load");
        e.figure("sink_summary", s.sink(SinkMode.TOTALS, o -> o).line());
        Reconciliation.customerTotalsFinal(stand).record(e, "PostgreSQL vs customer_totals FINAL (ds-streams, ds-sink)");
        // ... the dedup view carries them: order_dedup FINAL = PG, the load's orders
        e.figure("dedup_demo_summary", s.sink(SinkMode.DEDUP_DEMO, o -> o).line());
        Map<Long, OrderSeeder.Order> truth = pg.orders().tailMap(watermark, false);
        List<OrderSeeder.Order> dedup = Reconciliation.orderRows(s.ch(), Reconciliation.ORDER_DEDUP_FINAL).stream()
                .filter(o -> o.orderId() > watermark).toList();
        Reconciliation.orders(truth, dedup).record(e, "PostgreSQL vs order_dedup FINAL (dedup-demo), the load's orders");
        // ... and the inbox carries them: its ledger's state = PG, the load's orders and their customers
        LedgerDb db = LedgerDb.fresh(stand, "b16_default_identity", load.topic());
        InboxProcess inbox = InboxCrashes.process(s, db, load.topic(), "ds-inbox-b16", InboxMode.INBOX, INBOX_COMMIT_SIZE,
                INBOX_KEEP_FACTOR, false);
        topics.resetGroup(inbox.group(), load.start());
        e.figure("inbox_run", inbox.run("inbox-b16").summary());
        Reconciliation.orders(load.truthOrders(stand), db.latestOrders(load.orderIds()))
                .and(Reconciliation.customers(load.truthCustomers(stand), db.customerTotals(load.orderIds())))
                .record(e, "PostgreSQL vs the inbox's order_ledger, the load's orders");
        e.note("ALTER TABLE orders REPLICA IDENTITY DEFAULT for the load, FULL again after it. Under the default identity "
                + "PostgreSQL logs a DELETE's key only, and Debezium fills the row's other NOT NULL columns with their type's "
                + "zero (the example above). The three consumers of orders.events take a deletion by its key alone: "
                + "ds-streams as a tombstone of the order (its state store holds the last version, which it subtracts), "
                + "dedup-demo as is_deleted = 1 (FINAL keeps the last version), the inbox as a deleted change (its view "
                + "keeps the latest change of each order). UPDATEs carry the whole new row under either identity.");
    }

    /**
     * The load's deletion records against the row each order had before.
     *
     * @param count                deletion records
     * @param withoutEarlierRecord deletions of an order no earlier record of the load carried (not judged)
     * @param withoutRow           deletions whose customer_id or amount is not the order's last
     * @param example              one of those, as the topic holds it
     */
    private record Deletions(long count, long withoutEarlierRecord, long withoutRow, String example) {

        static Deletions of(OrderChanges load) {
            Map<Long, OrderEvent> last = new HashMap<>();
            Map<Long, String> wrong = new TreeMap<>();
            long count = 0;
            long unjudged = 0;
            for (ConsumerRecord<byte[], byte[]> r : load.records()) {   // one order's changes stay in one partition, in order
                OrderEvent event = OrderEvent.ofValue(r.value());
                OrderEvent before = last.get(event.orderId());
                if (event.deleted()) {
                    count++;
                    if (before == null) {
                        unjudged++;
                    } else if (before.customerId() != event.customerId() || before.amount().compareTo(event.amount()) != 0) {
                        wrong.put(event.orderId(), new String(r.value(), StandardCharsets.UTF_8));
                    }
                }
                last.put(event.orderId(), event);
            }
            return new Deletions(count, unjudged, wrong.size(), wrong.isEmpty() ? "" : wrong.values().iterator().next());
        }
    }
}
