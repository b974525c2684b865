package dev.seams.it;

import static org.awaitility.Awaitility.await;

import dev.seams.check.Reconciliation;
import dev.seams.check.SnapshotSequence;
import dev.seams.faults.Injection;
import dev.seams.fixture.Pipeline;
import dev.seams.fixture.StandContext;
import dev.seams.load.TopicAdmin;
import dev.seams.report.Anomaly;
import dev.seams.report.Claim;
import dev.seams.report.ClaimEvidence;
import dev.seams.sink.ClickHouseTarget;
import dev.seams.sink.SinkMode;
import dev.seams.sink.SinkSummary;
import dev.seams.sinks.SinkTrait;
import dev.seams.stand.Stand;
import dev.seams.truth.Partitioning;
import dev.seams.truth.Rejection;
import dev.seams.truth.RunNames;
import dev.seams.truth.Topics;
import dev.seams.wire.CustomerTotals;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The version survives the transport (claim B10): {@code customer.totals} gains partitions (3 → 6,
 * Admin API {@code createPartitions}) while the pipeline runs, so a customer's new snapshots may
 * land in another partition, at offsets far below its old ones. The sink's ReplacingMergeTree
 * version is the per-customer sequence ds-streams writes ({@code wire/CustomerTotals}), so FINAL
 * still equals PostgreSQL for every customer; the seed's version, the Kafka offset, keeps the
 * customers that moved partition stale (the twin, {@code withOffsetAsVersion(true)}, reading the
 * same records into scratch tables). A record whose key is not its customer_id goes to the DLQ.
 *
 * <p>The topic keeps its 6 partitions for every later claim (nothing in the suite assumes 3 for
 * {@code customer.totals}); ds-streams is restarted if its producer had not seen them yet.
 */
@ExtendWith(StandContext.Resolver.class)
class TransportIT {

    /** The partition count {@code customer.totals} is given. */
    static final int PARTITIONS_AFTER = 2 * Stand.PARTITIONS;
    /** This claim's own customers, 1001..1024, three orders each before the change. */
    private static final int FIRST_CUSTOMER = 1001;
    private static final int CUSTOMERS = 24;
    private static final String TWIN = RunNames.of("seams_b10_offset_as_version");
    private static final String TWIN_DLQ = TWIN + ".dlq";
    /** The mis-keyed record: customer 1002's snapshot, keyed by customer 1001, with a version far ahead. */
    private static final int KEY_CUSTOMER = FIRST_CUSTOMER;
    private static final long VALUE_CUSTOMER = FIRST_CUSTOMER + 1;

    /**
     * One round of new orders after the change: one 1.00 order for every customer PostgreSQL has.
     *
     * @param customers  customers that got an order
     * @param written    where their snapshots landed
     */
    private record Round(int customers, Partitioning written) {
    }

    @AfterEach
    void streamsRunsAgain() {
        if (!StandContext.running().streams().isAlive()) {
            StandContext.running().streams().start();
        }
    }

    @Test
    @Claim(id = "B10", title = "The version survives the transport: customer.totals 3 -> 6 partitions",
            exercises = {"sink/TotalsMapper", "sink/TotalsValidator", "wire/CustomerTotals", "streams/TotalsTopology",
                    "containers/clickhouse/001-tables.sql"})
    void b10VersionSurvivesMorePartitions(ClaimEvidence e, StandContext s) {
        s.requireSink(SinkTrait.DEAD_LETTER_QUEUE, "B10 also sends a record keyed by another customer, which the sink must reject");
        Stand stand = s.stand();
        Topics topics = s.topics();
        s.settle();
        s.pg().execute("INSERT INTO orders (customer_id, amount) SELECT " + FIRST_CUSTOMER + " + g % " + CUSTOMERS
                + ", 1.00 + g FROM generate_series(0, " + (3 * CUSTOMERS - 1) + ") g");
        s.settle();
        s.sink(SinkMode.TOTALS, o -> o.withUntilCaughtUp());
        Map<TopicPartition, Long> start = topics.endOffsets(RunNames.CUSTOMER_TOTALS);
        Partitioning before = Partitioning.of(topics, Map.of());

        int partitionsBefore = e.figure("partitions_before", TopicAdmin.of(stand).increasePartitions(RunNames.CUSTOMER_TOTALS, PARTITIONS_AFTER));
        await("customer.totals has " + PARTITIONS_AFTER + " partitions").atMost(Duration.ofSeconds(30))
                .until(() -> topics.partitionCount(RunNames.CUSTOMER_TOTALS) == PARTITIONS_AFTER);
        e.check("partitions_after", topics.partitionCount(RunNames.CUSTOMER_TOTALS)).isEqualTo(PARTITIONS_AFTER,
                "customer.totals partitions after createPartitions");
        Round first = round(s);
        Map<Long, String> movedFirst = first.written().movedFrom(before);
        boolean stale = movedFirst.isEmpty();
        e.figure("customers_moved_by_the_running_streams", movedFirst.size());
        e.figure("streams_restarted", stale);
        if (stale) {
            e.figure("streams_restart_seconds", Pipeline.restartStreams(stand));
        }
        Round second = stale ? round(s) : first;
        Map<Long, String> moved = second.written().movedFrom(before);

        SinkSummary run = s.sink(SinkMode.TOTALS, o -> o.withUntilCaughtUp());
        Reconciliation twin = offsetAsVersionTwin(e, s);
        SnapshotSequence versions = SnapshotSequence.read(topics, start, steps(s, stale ? 2 : 1), "read_committed");

        e.figure("partitions_in_use_after_the_change", second.written().partitionsByCustomer().values().stream()
                .flatMap(Set::stream).distinct().sorted().toList().toString());
        e.check("customers_moved_to_another_partition", moved.size()).isPositive(
                "customers whose new snapshots lie in no partition their old ones used (the fault took effect)");
        if (moved.isEmpty()) {
            e.unverified("no customer's new snapshots moved partition: the change did not reach ds-streams' producer");
        }
        e.table("Customers whose snapshots moved partition (old -> new)", List.of("customer_id", "partitions"),
                moved.entrySet().stream().map(en -> List.<Object>of(en.getKey(), en.getValue())).toList());
        e.check("records_keyed_other_than_customer_id", first.written().misKeyed() + second.written().misKeyed())
                .isZero("ds-streams' snapshots after the change whose key is not their customer_id");
        e.figure("summary", run.line());
        e.check("sink_bad_records", run.bad()).isZero("records the sink rejected after the change");
        e.anomaly(Anomaly.DUPLICATE, e.figure("version_pairs_written_twice", versions.duplicate()));
        e.anomaly(Anomaly.LOST, e.figure("version_steps_missing", versions.lost()));
        e.anomaly(Anomaly.WRONG_VALUE, e.figure("version_steps_extra", versions.extra()));
        Reconciliation.customerTotalsFinal(stand).record(e, "PostgreSQL vs customer_totals FINAL after the change and "
                + (stale ? "two rounds" : "one round") + " of orders");
        e.negativeControl("offset_as_version_stale_customers", twin.stale(), Anomaly.STALE,
                "customers the twin (version = Kafka offset) leaves behind PG in its FINAL, over the same records");
        e.figure("offset_as_version_twin_differing_keys", twin.describe());
        misKeyedRecordGoesToTheDlq(e, s);
        e.note("customer.totals went from " + partitionsBefore + " to " + PARTITIONS_AFTER + " partitions. "
                + (stale ? "The running ds-streams kept writing the old layout (its producer refreshes topic metadata only "
                + "every metadata.max.age.ms, 5 min): none of the " + first.customers() + " customers' snapshots of the first "
                + "round moved, so ds-streams was restarted (graceful stop, departed member removed, start) and a second round "
                + "of orders followed." : "The running ds-streams already wrote the new layout in the first round.")
                + " Every snapshot carries the next version of its customer's aggregate whatever its partition; the offset of "
                + "a moved customer's new snapshot restarts near 0 in its new partition, which the twin takes for old.");
    }

    /** Inserts one 1.00 order for every customer PostgreSQL has and waits until ds-streams wrote their snapshots. */
    private static Round round(StandContext s) {
        Map<TopicPartition, Long> mark = s.topics().endOffsets(RunNames.CUSTOMER_TOTALS);
        int customers = s.pg().execute("INSERT INTO orders (customer_id, amount) SELECT DISTINCT customer_id, 1.00 FROM orders");
        s.settle();
        return new Round(customers, Partitioning.of(s.topics(), mark));
    }

    /** @return every PG customer → the version steps the rounds added (one order each round: +1) */
    private static Map<Long, Long> steps(StandContext s, long rounds) {
        Map<Long, Long> steps = new TreeMap<>();
        s.pg().truth().keySet().forEach(id -> steps.put(id, rounds));
        return steps;
    }

    /**
     * The negative control: the sink writing the Kafka offset as the version reads the whole topic
     * from the start into scratch tables (own group and DLQ).
     *
     * @return its FINAL vs PG, every customer
     */
    private static Reconciliation offsetAsVersionTwin(ClaimEvidence e, StandContext s) {
        ClickHouseTarget tables = s.ch().scratch(TWIN, "raw_totals", "customer_totals");
        TopicAdmin.of(s.stand()).ensureTopic(TWIN_DLQ, 1);
        SinkSummary run = s.twinSink(SinkMode.TOTALS, o -> o.withGroupId(TWIN).withClickhouse(tables).withDlqTopic(TWIN_DLQ)
                .withFromStart(true).withOffsetAsVersion(true).withUntilCaughtUp());
        e.figure("offset_as_version_twin_summary", run.line());
        Reconciliation twin = Reconciliation.customers(s.pg().truth(),
                Reconciliation.customerRows(s.ch(), Reconciliation.customerFinal(TWIN + ".customer_totals")));
        e.table("Offset-as-version twin: differing keys (first " + Reconciliation.MAX_REPORTED_KEYS + ")",
                Reconciliation.DIFFERENCE_COLUMNS, twin.differences().stream().limit(Reconciliation.MAX_REPORTED_KEYS)
                        .map(Reconciliation.Difference::cells).toList());
        return twin;
    }

    /**
     * A snapshot of customer {@value #VALUE_CUSTOMER} keyed by customer {@value #KEY_CUSTOMER}, with a
     * version far ahead: accepted, it would win FINAL. It goes to the DLQ with its reason, FINAL is unchanged.
     */
    private static void misKeyedRecordGoesToTheDlq(ClaimEvidence e, StandContext s) {
        Topics topics = s.topics();
        try (Injection injection = Injection.open(s.stand())) {
            Map<TopicPartition, Long> dlqMark = topics.endOffsets(RunNames.CUSTOMER_TOTALS_DLQ);
            byte[] value = new CustomerTotals(VALUE_CUSTOMER, 999, new BigDecimal("999999.99"), 1_000_000).toJsonBytes();
            RecordMetadata sent = injection.send(RunNames.CUSTOMER_TOTALS, Integer.toString(KEY_CUSTOMER), value, null);
            SinkSummary run = s.sink(SinkMode.TOTALS, o -> o.withUntilCaughtUp());
            List<Rejection> letters = Rejection.since(topics, RunNames.CUSTOMER_TOTALS_DLQ, dlqMark);
            e.figure("mis_keyed_summary", run.line());
            e.check("mis_keyed_dead_letters", letters.size()).isEqualTo(1, "dead letters of the sink run that read the mis-keyed record");
            e.check("mis_keyed_dlq_origin", letters.isEmpty() ? "-" : letters.get(0).originPartition() + "@" + letters.get(0).originOffset())
                    .isEqualTo(sent.partition() + "@" + sent.offset(), "the dead letter names the record's partition and offset");
            e.check("mis_keyed_dlq_reason", letters.isEmpty() ? "-" : letters.get(0).reason()).isEqualTo("record key \""
                    + KEY_CUSTOMER + "\" does not match customer_id " + VALUE_CUSTOMER, "the dead letter's dlq-reason");
            e.check("mis_keyed_customer_final", String.valueOf(s.ch().finalTotals().get(VALUE_CUSTOMER)))
                    .isEqualTo(String.valueOf(s.pg().truth().get(VALUE_CUSTOMER)),
                            "customer_totals FINAL of customer " + VALUE_CUSTOMER + " after the run vs PG: the record changed nothing");
        }
    }
}
