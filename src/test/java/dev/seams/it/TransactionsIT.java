package dev.seams.it;

import static org.awaitility.Awaitility.await;

import dev.seams.check.Reconciliation;
import dev.seams.faults.RogueTransaction;
import dev.seams.faults.Sigkill;
import dev.seams.fixture.Pipeline;
import dev.seams.fixture.StandContext;
import dev.seams.lag.LagProbe;
import dev.seams.lag.PartitionLag;
import dev.seams.project.Project;
import dev.seams.report.Anomaly;
import dev.seams.report.Claim;
import dev.seams.report.ClaimEvidence;
import dev.seams.report.FaultNotObservedException;
import dev.seams.seed.OrderSeeder;
import dev.seams.sink.SinkMode;
import dev.seams.sink.SinkSummary;
import dev.seams.stand.JvmProcess;
import dev.seams.stand.Stand;
import dev.seams.truth.ClickHouse;
import dev.seams.truth.Endpoints;
import dev.seams.truth.RunNames;
import dev.seams.truth.Topics;
import dev.seams.truth.Totals;
import dev.seams.wire.CustomerTotals;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Where the Kafka transaction ends (source section "Где кончается транзакция Kafka"): aborted and hanging transactions
 * stay invisible to the read_committed sink (B1). The sink's isolation contract (G15) is {@link IsolationIT}, the
 * redelivery of order events (B3) {@link RedeliveryIT}. Each test settles the pipeline and (where it compares
 * ClickHouse with PostgreSQL) empties the sink's tables and reads the topic from the start, so the tests run in any
 * order.
 */
@ExtendWith(StandContext.Resolver.class)
class TransactionsIT {

    private static final Pattern ROGUE_AT = Pattern.compile("record at (\\d+)@(\\d+)");
    /** The orders count of every rogue snapshot: no real customer has it, so its row is recognisable. */
    private static final long ROGUE_ORDERS = 999_999;
    /**
     * transaction.timeout.ms of B1's hanging producer: longer than the test needs to write behind the pinned
     * LSO and run the sink while it is pinned (a few seconds), so the abort comes after; the broker looks
     * for timed-out transactions every second ({@link Stand}).
     */
    private static final int ROGUE_TIMEOUT_MS = 10_000;
    /** raw_totals rows with the record each came from (sink/TotalsMapper keeps kafka_partition, kafka_offset). */
    private static final String RAW_ROWS = "SELECT customer_id, orders, kafka_partition, kafka_offset FROM raw_totals";

    /** Where one rogue record landed, and what each reader and table made of it. */
    private record Rogue(long customer, int partition, long offset) {
        String at() {
            return partition + "@" + offset;
        }
    }

    @Test
    @Claim(id = "B1", title = "Aborted transactions stay invisible", exercises = {"sink/Sink", "consumer/PollSession"})
    void b1AbortedTransactionStaysInvisible(ClaimEvidence e, StandContext s) throws Exception {
        Topics topics = s.topics();
        ClickHouse ch = s.ch();
        e.figure("orders_seeded", s.pg().seed(10, 5, 141).size());   // customers of its own: the stand may be fresh
        s.settle();
        ch.truncate("raw_totals", "customer_totals");
        s.sink(SinkMode.TOTALS, o -> o.withFromStart(true));
        Map<Long, Totals> finalBefore = ch.finalTotals();
        Map<TopicPartition, Long> start = topics.endOffsets(RunNames.CUSTOMER_TOTALS);
        Set<Long> customers = s.pg().truth().keySet();

        List<Rogue> rogues = new ArrayList<>();
        try (KafkaProducer<byte[], byte[]> producer = topics.producer(RunNames.of("seams-b1-abort"))) {
            producer.initTransactions();
            producer.beginTransaction();
            for (long customer : customers) {
                RecordMetadata md = producer.send(new ProducerRecord<>(RunNames.CUSTOMER_TOTALS, bytes(Long.toString(customer)),
                        bytes(rogueSnapshot(customer)))).get();
                rogues.add(new Rogue(customer, md.partition(), md.offset()));
            }
            producer.abortTransaction();
        }
        Set<String> uncommitted = offsetsOf(topics.recordsSince(RunNames.CUSTOMER_TOTALS, "read_uncommitted", start));
        List<ConsumerRecord<byte[], byte[]>> committedSince = topics.recordsSince(RunNames.CUSTOMER_TOTALS, "read_committed", start);
        Set<String> committed = offsetsOf(committedSince);
        SinkSummary run = s.sink(SinkMode.TOTALS, o -> o);
        List<List<String>> raw = ch.rows(RAW_ROWS);
        Map<Long, Totals> finalAfter = ch.finalTotals();

        List<List<Object>> perKey = new ArrayList<>();
        long seenUncommitted = 0;
        long seenCommitted = 0;
        long landed = 0;
        long changed = 0;
        for (Rogue r : rogues) {
            boolean u = uncommitted.contains(r.at());
            boolean c = committed.contains(r.at());
            long rows = rogueRows(raw, r);
            boolean same = String.valueOf(finalBefore.get(r.customer())).equals(String.valueOf(finalAfter.get(r.customer())));
            seenUncommitted += u ? 1 : 0;
            seenCommitted += c ? 1 : 0;
            landed += rows > 0 ? 1 : 0;
            changed += same ? 0 : 1;
            perKey.add(List.of(r.customer(), r.at(), u ? "sees it" : "-", c ? "SEES IT" : "-", rows,
                    String.valueOf(finalBefore.get(r.customer())), String.valueOf(finalAfter.get(r.customer()))));
        }

        e.figure("aborted_records_acknowledged", (long) rogues.size());
        e.negativeControl("read_uncommitted_sees_aborted", seenUncommitted, Anomaly.ABORTED_READ,
                "a read_uncommitted consumer reads the aborted records at their offsets: they are in the log");
        abortedRead(e, "read_committed_sees_aborted", seenCommitted, "aborted records a read_committed consumer reads");
        e.figure("sink_summary", run.line());
        e.check("sink_bad", run.bad()).isZero("the sink received no aborted record, not even to reject it");
        e.check("sink_inserted", run.inserted()).isEqualTo(committedSince.size(),
                "the sink inserts exactly the committed records written since (none but the aborted transaction's)");
        abortedRead(e, "rogue_keys_in_raw_totals", landed, "customers with a row of their aborted record in raw_totals "
                + "(at its offset, or with orders = " + ROGUE_ORDERS + ")");
        e.check("final_rows_changed", changed).isZero("customers whose customer_totals FINAL row changed");
        Reconciliation.customerTotalsFinal(s.endpoints()).record(e, "PostgreSQL vs customer_totals FINAL after the aborted transaction");
        e.table("Per key: the aborted record and where it went", List.of("customer", "record at", "read_uncommitted",
                "read_committed", "raw_totals rows", "FINAL before", "FINAL after"), perKey);
        e.note("A transactional producer wrote one snapshot per PostgreSQL customer (orders=" + ROGUE_ORDERS
                + ") to customer.totals and aborted. The read_uncommitted consumer is the negative control.");
    }

    @Test
    @Claim(id = "B1", variant = "hanging transaction", title = "Aborted transactions stay invisible: a producer killed mid-transaction",
            exercises = {"sink/Sink", "lag/LagProbe"})
    void b1HangingTransaction(ClaimEvidence e, StandContext s) {
        Endpoints stand = s.endpoints();
        Topics topics = s.topics();
        LagProbe probe = topics.lagProbe();
        ClickHouse ch = s.ch();
        s.settle();
        ch.truncate("raw_totals", "customer_totals");
        s.sink(SinkMode.TOTALS, o -> o.withFromStart(true));
        Map<TopicPartition, Long> start = topics.endOffsets(RunNames.CUSTOMER_TOTALS);
        int timeoutMs = ROGUE_TIMEOUT_MS;
        long customer = 1;

        // given: a producer killed with its transaction open on customer 1's partition, the LSO pinned at its record
        Pinned pin = pinByKilledProducer(e, stand, probe, customer, timeoutMs);
        Rogue r = pin.rogue();
        long killedAt = pin.killedAt();
        // when: ds-streams writes behind the pin, the sink runs while pinned and again after the coordinator's abort
        long events = topics.totalEndOffset(RunNames.ORDERS_EVENTS);
        List<OrderSeeder.Order> seeded = s.pg().seed(3, 1, 151);   // orders of customer 1: Streams writes after the rogue record
        Pipeline.awaitOrdersEvents(stand, events + seeded.size());
        Totals target = s.pg().truth().get(customer);
        await("ds-streams wrote customer " + customer + "'s snapshot of PG (" + target + ") behind the pinned LSO")
                .atMost(Duration.ofMinutes(2)).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(200))
                .until(() -> target.equals(lastSnapshot(topics.recordsSince(RunNames.CUSTOMER_TOTALS, "read_uncommitted", start), r)));
        TopicPartition pinnedTp = new TopicPartition(RunNames.CUSTOMER_TOTALS, r.partition());
        long behindLso = topics.recordsSince(RunNames.CUSTOMER_TOTALS, "read_uncommitted", start).stream()
                .filter(x -> x.partition() == r.partition() && x.offset() > r.offset()).count();
        long visibleElsewhere = topics.recordsSince(RunNames.CUSTOMER_TOTALS, "read_committed", start).stream()
                .filter(x -> x.partition() != pinnedTp.partition()).count();
        SinkSummary whilePinned = s.sink(SinkMode.TOTALS, o -> o);
        long stableAfterRun = e.figure("last_stable_offset_after_sink_run_while_pinned",
                partitionOf(probe.describe(RunNames.SINK_GROUP, RunNames.CUSTOMER_TOTALS), r.partition()).lastStable());
        if (stableAfterRun > r.offset()) {
            e.unverified("the coordinator aborted the hanging transaction before the sink run 'while pinned' ended "
                    + "(LSO " + stableAfterRun + " past the rogue record " + r.at() + "): that run may have read past the pin");
        }
        e.figure("records_behind_pinned_lso", behindLso);
        if (behindLso == 0) {
            e.unverified("ds-streams wrote no record behind the pinned LSO of partition " + r.partition()
                    + ", so the pin held nothing back");
        }
        e.figure("sink_while_pinned", whilePinned.line());
        e.check("sink_inserted_while_pinned", whilePinned.inserted()).isEqualTo(visibleElsewhere,
                "while the LSO is pinned the sink receives nothing newer from that partition");

        await("the coordinator aborts the hanging transaction").atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(200))
                .until(() -> {
                    PartitionLag p = partitionOf(probe.describe(RunNames.SINK_GROUP, RunNames.CUSTOMER_TOTALS), r.partition());
                    return p.lastStable() == p.logEnd();
                });
        double pinnedSeconds = e.figure("lso_pinned_seconds_after_kill", Math.round((System.nanoTime() - killedAt) / 1e8) / 10.0);
        List<ConsumerRecord<byte[], byte[]>> committedSince = topics.recordsSince(RunNames.CUSTOMER_TOTALS, "read_committed", start);
        boolean seenUncommitted = offsetsOf(topics.recordsSince(RunNames.CUSTOMER_TOTALS, "read_uncommitted", start)).contains(r.at());
        boolean seenCommitted = offsetsOf(committedSince).contains(r.at());
        SinkSummary after = s.sink(SinkMode.TOTALS, o -> o);
        long rogueRows = rogueRows(ch.rows(RAW_ROWS), r);

        e.figure("sink_after_abort", after.line());
        e.figure("streams_snapshots_since_start", (long) committedSince.size());
        e.check("sink_inserted_after_abort", whilePinned.inserted() + after.inserted()).isEqualTo(committedSince.size(),
                "after the abort the sink has caught up with every committed snapshot written since the rogue record");
        e.negativeControl("read_uncommitted_sees_aborted", seenUncommitted ? 1 : 0, Anomaly.ABORTED_READ,
                "a read_uncommitted consumer reads the killed producer's record, aborted by the coordinator");
        abortedRead(e, "read_committed_sees_aborted", seenCommitted ? 1 : 0, "a read_committed consumer reads the aborted record");
        abortedRead(e, "rogue_rows_in_raw_totals", rogueRows, "raw_totals rows of customer " + customer
                + " from the aborted record (at " + r.at() + ", or with orders = " + ROGUE_ORDERS + ")");
        Reconciliation.customerTotalsFinal(stand).record(e, "PostgreSQL vs customer_totals FINAL after the abort");
        e.note("transaction.timeout.ms of the rogue producer: " + timeoutMs + " ms; the broker aborts timed-out "
                + "transactions on its next check, so the LSO stayed pinned " + pinnedSeconds + " s after the kill, "
                + "and read_committed consumers of that partition saw nothing newer meanwhile.");
    }

    /**
     * The pin a killed transactional producer leaves.
     *
     * @param rogue    where its record landed
     * @param killedAt {@link System#nanoTime()} right after the kill
     */
    private record Pinned(Rogue rogue, long killedAt) {
    }

    /**
     * Starts a rogue transactional producer (faults/RogueTransaction) that writes one record of the customer to
     * customer.totals and keeps its transaction open, kills it with SIGKILL, and checks that the LSO is pinned at its
     * record.
     *
     * @throws FaultNotObservedException if the LSO is not pinned (the claim is UNVERIFIED)
     */
    private static Pinned pinByKilledProducer(ClaimEvidence e, Endpoints stand, LagProbe probe, long customer, int timeoutMs) {
        List<String> args = new ArrayList<>(List.of(stand.bootstrapServers(), RunNames.CUSTOMER_TOTALS, Long.toString(customer),
                rogueSnapshot(customer), Integer.toString(timeoutMs), RunNames.of("seams-rogue-")));
        stand.kafkaClientProperties().ifPresent(file -> args.add(file.toString()));
        JvmProcess rogue = new JvmProcess("rogue-transaction", RogueTransaction.class.getName(), args,
                Project.root().resolve("target/stand-logs"));
        rogue.start();
        rogue.awaitOutput("rogue: transaction open", Duration.ofMinutes(2));
        Sigkill.require("the rogue producer", e.figure("rogue_exit_status", rogue.kill()));
        long killedAt = System.nanoTime();
        Matcher at = ROGUE_AT.matcher(rogue.output());
        if (!at.find()) {
            throw new IllegalStateException("the rogue producer did not print where its record landed: " + rogue.output());
        }
        Rogue r = new Rogue(customer, Integer.parseInt(at.group(1)), Long.parseLong(at.group(2)));
        e.figure("rogue_record_at", r.at());
        PartitionLag pinned = partitionOf(probe.describe(RunNames.SINK_GROUP, RunNames.CUSTOMER_TOTALS), r.partition());
        e.figure("pinned_last_stable_offset", pinned.lastStable());
        e.figure("pinned_log_end_offset", pinned.logEnd());
        if (pinned.lastStable() > r.offset()) {
            throw new FaultNotObservedException("the open transaction did not pin the LSO at its record " + r.at() + ": " + pinned);
        }

        return new Pinned(r, killedAt);
    }

    /** @return the last snapshot of the rogue's customer among the records, the rogue record itself excluded; null if none */
    private static Totals lastSnapshot(List<ConsumerRecord<byte[], byte[]>> records, Rogue rogue) {
        Totals last = null;
        for (ConsumerRecord<byte[], byte[]> x : records) {
            if (x.partition() == rogue.partition() && x.offset() == rogue.offset()) {
                continue;
            }
            CustomerTotals v = CustomerTotals.fromJson(x.value());
            if (v.customerId() == rogue.customer()) {
                last = new Totals(v.orders(), v.total());
            }
        }
        return last;
    }

    private static void abortedRead(ClaimEvidence e, String name, long count, String what) {
        e.check(name, count).isZero(what);
        e.anomaly(Anomaly.ABORTED_READ, count);
    }

    private static String rogueSnapshot(long customer) {
        return "{\"customer_id\":" + customer + ",\"orders\":" + ROGUE_ORDERS + ",\"total\":\"999999.99\",\"version\":" + ROGUE_ORDERS + "}";
    }

    /**
     * @param raw rows of {@link #RAW_ROWS}: (customer_id, orders, kafka_partition, kafka_offset)
     * @return those of the rogue record: from its position, or with its customer and orders count
     */
    private static long rogueRows(List<List<String>> raw, Rogue r) {
        return raw.stream().filter(row -> (Integer.parseInt(row.get(2)) == r.partition() && Long.parseLong(row.get(3)) == r.offset())
                || (Integer.parseInt(row.get(0)) == r.customer() && Long.parseLong(row.get(1)) == ROGUE_ORDERS)).count();
    }

    private static Set<String> offsetsOf(List<ConsumerRecord<byte[], byte[]>> records) {
        return records.stream().map(x -> x.partition() + "@" + x.offset()).collect(Collectors.toSet());
    }

    private static PartitionLag partitionOf(List<PartitionLag> lags, int partition) {
        return lags.stream().filter(l -> l.partition() == partition).findFirst()
                .orElseThrow(() -> new IllegalStateException("ds-sink has no offsets for partition " + partition));
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
