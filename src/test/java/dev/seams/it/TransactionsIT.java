package dev.seams.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.seams.lag.LagProbe;
import dev.seams.lag.PartitionLag;
import dev.seams.report.ClaimEvidence;
import dev.seams.report.Evidence;
import dev.seams.report.EvidenceExtension;
import dev.seams.report.FaultNotObservedException;
import dev.seams.sink.ClickHouseTarget;
import dev.seams.sink.SinkMode;
import dev.seams.sink.SinkSummary;
import dev.seams.streams.OrderEvent;
import dev.seams.stand.ClickHouse;
import dev.seams.stand.CustomerReconciliation;
import dev.seams.stand.Faults;
import dev.seams.stand.JvmProcess;
import dev.seams.stand.Pg;
import dev.seams.stand.Pipeline;
import dev.seams.report.Project;
import dev.seams.stand.RogueTransaction;
import dev.seams.stand.Stand;
import dev.seams.stand.Topics;
import dev.seams.stand.Totals;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Where the Kafka transaction ends (source section "Где кончается транзакция Kafka"): the sink's
 * read_committed contract (G15), aborted and hanging transactions (B1), and redelivery of order
 * events that the per-order_id aggregation must absorb (B3).
 */
@ExtendWith(EvidenceExtension.class)
class TransactionsIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern ISOLATION = Pattern.compile("isolation\\.level = (\\S+)");

    @ParameterizedTest(name = "G15 read_committed is the contract [--isolation {0}]")
    @ValueSource(strings = {"read_committed", "read_uncommitted"})
    void g15IsolationOfTheRunningConsumer(String isolation) {
        boolean contract = isolation.equals("read_committed");
        ClaimEvidence e = Evidence.claim(contract ? "G15" : "G15[control: --isolation read_uncommitted]",
                "read_committed is the contract");
        Stand stand = Stand.get();
        ClickHouseTarget target = stand.clickhouseTarget();
        if (!contract) {
            // the control reads aborted data by design: it writes into its own database, never the stand's tables
            ClickHouse ch = ClickHouse.of(stand);
            ch.execute("CREATE DATABASE IF NOT EXISTS g15_control");
            for (String table : List.of("raw_totals", "customer_totals")) {
                ch.execute("CREATE TABLE IF NOT EXISTS g15_control." + table + " AS " + target.database() + "." + table);
            }
            target = new ClickHouseTarget(target.endpoint(), target.user(), target.password(), "g15_control");
        }
        List<String> args = new ArrayList<>(sinkCliArgs(stand, target));
        if (!contract) {
            args.addAll(List.of("--isolation", isolation, "--group", "seams-g15-control"));
        }
        JvmProcess sink = new JvmProcess(contract ? "sink-g15" : "sink-g15-control", "dev.seams.cli.SeamsCli", args,
                Project.root().resolve("target/stand-logs"));
        sink.start();
        int exit = e.figure("sink_exit_status", sink.awaitExit(Duration.ofMinutes(3)));
        String output = sink.output();
        Matcher m = ISOLATION.matcher(output);
        String live = e.figure("live_consumer_isolation_level", m.find() ? m.group(1) : "not logged");
        e.expected("live_consumer_isolation_level", isolation);
        e.figure("summary", output.lines().filter(l -> l.startsWith("sink: ")).findFirst().orElse("no summary line"));
        e.note("Read from the ConsumerConfig values the running sink's KafkaConsumer logged when it was created "
                + "(the sink CLI run as its own process), not from a constant."
                + (contract ? "" : " Control: the same reader reports the other level when the flag asks for it, so it reads the live value."));

        assertThat(exit).as("sink exit status").isZero();
        assertThat(live).as("isolation.level of the sink's live consumer").isEqualTo(isolation);
    }

    @Test
    @DisplayName("B1 Aborted transactions stay invisible")
    void b1AbortedTransactionStaysInvisible() throws Exception {
        ClaimEvidence e = Evidence.claim("B1", "Aborted transactions stay invisible");
        Stand stand = Stand.get();
        Topics topics = Topics.of(stand);
        ClickHouse ch = ClickHouse.of(stand);
        Pipeline.awaitStreamsMatchesPg(stand);
        Pipeline.sink(stand, SinkMode.TOTALS, o -> o);
        Map<Integer, Totals> finalBefore = ch.finalTotals();
        Map<TopicPartition, Long> start = topics.endOffsets(Stand.CUSTOMER_TOTALS);

        int rogue = 5;
        try (KafkaProducer<byte[], byte[]> producer = topics.producer("seams-b1-abort")) {
            producer.initTransactions();
            producer.beginTransaction();
            for (int customer = 1; customer <= rogue; customer++) {
                producer.send(new ProducerRecord<>(Stand.CUSTOMER_TOTALS, bytes(Integer.toString(customer)),
                        bytes(rogueSnapshot(customer)))).get();
            }
            producer.abortTransaction();
        }
        long seenUncommitted = countRogue(topics, start, "read_uncommitted");
        long seenCommitted = countRogue(topics, start, "read_committed");
        SinkSummary run = Pipeline.sink(stand, SinkMode.TOTALS, o -> o);
        long rogueRows = ch.scalar("SELECT count() FROM raw_totals WHERE orders = " + ROGUE_ORDERS);
        Map<Integer, Totals> finalAfter = ch.finalTotals();
        CustomerReconciliation rec = CustomerReconciliation.of(Pg.of(stand).truth(), finalAfter);

        e.figure("aborted_records_written", (long) rogue);
        e.figure("read_uncommitted_sees", seenUncommitted);
        e.expected("read_uncommitted_sees", (long) rogue);
        e.figure("read_committed_sees", seenCommitted);
        e.expected("read_committed_sees", 0L);
        e.figure("sink_summary", run.line());
        e.figure("rogue_rows_in_clickhouse", rogueRows);
        e.expected("rogue_rows_in_clickhouse", 0L);
        e.figure("final_unchanged", finalAfter.equals(finalBefore));
        e.expected("final_unchanged", true);
        e.anomaly("aborted_read", seenCommitted + rogueRows);
        e.anomaly("lost", rec.lost()).anomaly("stale", rec.stale()).anomaly("wrong_value", rec.wrongValue());
        e.note("A transactional producer wrote " + rogue + " snapshots (orders=" + ROGUE_ORDERS
                + ") to customer.totals and aborted. The read_uncommitted consumer is the negative control.");

        assertThat(seenUncommitted).as("negative control: read_uncommitted sees the aborted records").isEqualTo(rogue);
        assertThat(seenCommitted).as("read_committed sees none of them").isZero();
        assertThat(rogueRows).as("aborted data in ClickHouse").isZero();
        assertThat(finalAfter).as("customer_totals FINAL unchanged").isEqualTo(finalBefore);
        assertThat(rec.matches()).as("FINAL vs PG per customer: %s", rec.rows()).isTrue();
    }

    @Test
    @DisplayName("B1 hanging transaction: the LSO is pinned until the coordinator aborts it")
    void b1HangingTransaction() {
        ClaimEvidence e = Evidence.claim("B1[hanging transaction]", "Aborted transactions stay invisible: a producer killed mid-transaction");
        Stand stand = Stand.get();
        Pg pg = Pg.of(stand);
        Topics topics = Topics.of(stand);
        LagProbe probe = topics.lagProbe();
        ClickHouse ch = ClickHouse.of(stand);
        Pipeline.awaitStreamsMatchesPg(stand);
        Pipeline.sink(stand, SinkMode.TOTALS, o -> o);
        int timeoutMs = 15_000;

        JvmProcess rogue = new JvmProcess("rogue-transaction", RogueTransaction.class.getName(),
                List.of(stand.bootstrapServers(), Stand.CUSTOMER_TOTALS, "1", rogueSnapshot(1), Integer.toString(timeoutMs)),
                Project.root().resolve("target/stand-logs"));
        rogue.start();
        rogue.awaitOutput("rogue: transaction open", Duration.ofMinutes(2));
        e.expected("rogue_exit_status", Faults.SIGKILL_EXIT);
        Faults.requireSigkill("the rogue producer", e.figure("rogue_exit_status", rogue.kill()));
        long killedAt = System.nanoTime();
        int partition = Integer.parseInt(rogue.output().replaceAll("(?s).*record at (\\d+)@.*", "$1"));
        PartitionLag pinned = partitionOf(probe.describe("ds-sink", Stand.CUSTOMER_TOTALS), partition);
        e.figure("pinned_last_stable_offset", pinned.lastStable());
        e.figure("pinned_log_end_offset", pinned.logEnd());
        if (pinned.lastStable() >= pinned.logEnd()) {
            throw new FaultNotObservedException("the open transaction did not pin the LSO: " + pinned);
        }

        long events = topics.totalEndOffset(Stand.ORDERS_EVENTS);
        pg.seed(3, 1, 151);   // three orders of customer 1: Streams writes after the rogue record
        Pipeline.awaitOrdersEvents(stand, events + 3);
        await("ds-streams processed the 3 orders").atMost(Duration.ofMinutes(2))
                .until(() -> probe.totalLag(Pipeline.STREAMS_GROUP, Stand.ORDERS_EVENTS) == 0);
        SinkSummary whilePinned = Pipeline.sink(stand, SinkMode.TOTALS, o -> o);
        e.figure("sink_while_pinned", whilePinned.line());
        e.expected("sink_inserted_while_pinned", 0L);
        e.figure("sink_inserted_while_pinned", whilePinned.inserted());

        await("the coordinator aborts the hanging transaction").atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(500))
                .until(() -> {
                    PartitionLag p = partitionOf(probe.describe("ds-sink", Stand.CUSTOMER_TOTALS), partition);
                    return p.lastStable() == p.logEnd();
                });
        double pinnedSeconds = e.figure("lso_pinned_seconds_after_kill", Math.round((System.nanoTime() - killedAt) / 1e8) / 10.0);
        SinkSummary after = Pipeline.sink(stand, SinkMode.TOTALS, o -> o);
        long rogueRows = ch.scalar("SELECT count() FROM raw_totals WHERE orders = " + ROGUE_ORDERS);
        CustomerReconciliation rec = CustomerReconciliation.of(pg.truth(), ch.finalTotals());
        e.figure("sink_after_abort", after.line());
        e.figure("sink_inserted_after_abort", after.inserted());
        e.expected("sink_inserted_after_abort", 3L);
        e.figure("rogue_rows_in_clickhouse", rogueRows);
        e.expected("rogue_rows_in_clickhouse", 0L);
        e.anomaly("aborted_read", rogueRows);
        e.anomaly("lost", rec.lost()).anomaly("stale", rec.stale()).anomaly("wrong_value", rec.wrongValue());
        e.table("Per customer after the abort", CustomerReconciliation.COLUMNS, rec.rows());
        e.note("transaction.timeout.ms of the rogue producer: " + timeoutMs + " ms; the broker aborts timed-out "
                + "transactions on its next check, so the LSO stayed pinned " + pinnedSeconds + " s after the kill, "
                + "and read_committed consumers of that partition saw nothing newer meanwhile.");

        assertThat(whilePinned.inserted()).as("while the LSO is pinned the sink receives nothing newer").isZero();
        assertThat(after.inserted()).as("after the abort the sink catches up with the 3 new snapshots").isEqualTo(3);
        assertThat(rogueRows).as("the rogue record never reaches ClickHouse").isZero();
        assertThat(rec.matches()).as("FINAL vs PG per customer: %s", rec.rows()).isTrue();
    }

    @Test
    @DisplayName("B3 Upstream redelivery does not double count")
    void b3RedeliveryDoesNotDoubleCount() throws Exception {
        ClaimEvidence e = Evidence.claim("B3", "Upstream redelivery does not double count");
        Stand stand = Stand.get();
        Pg pg = Pg.of(stand);
        Topics topics = Topics.of(stand);
        ClickHouse ch = ClickHouse.of(stand);
        pg.seed(20, 5, 161);
        Pipeline.awaitStreamsMatchesPg(stand);

        // (a) re-deliver the newest 10 order events, byte for byte, as Debezium does after a Connect crash
        List<ConsumerRecord<byte[], byte[]>> events = new ArrayList<>();
        topics.readAll(Stand.ORDERS_EVENTS, "read_committed", r -> {
            if (!OrderEvent.isDeletion(r.value())) {
                events.add(r);
            }
        });
        events.sort((a, b) -> Long.compare(orderId(b), orderId(a)));
        List<ConsumerRecord<byte[], byte[]>> redelivered = events.subList(0, 10);
        try (KafkaProducer<byte[], byte[]> producer = topics.producer(null)) {
            for (ConsumerRecord<byte[], byte[]> r : redelivered) {
                producer.send(new ProducerRecord<>(Stand.ORDERS_EVENTS, r.partition(), r.key(), r.value())).get();
            }
        }
        // UPDATE of an amount, UPDATE moving an order to another customer, DELETE
        long[] ids = redelivered.stream().mapToLong(TransactionsIT::orderId).toArray();
        try (Connection c = stand.pg(); Statement st = c.createStatement()) {
            st.executeUpdate("UPDATE orders SET amount = amount + 1.11 WHERE order_id = " + ids[0]);
            st.executeUpdate("UPDATE orders SET customer_id = CASE WHEN customer_id = 5 THEN 1 ELSE customer_id + 1 END WHERE order_id = " + ids[1]);
            st.executeUpdate("DELETE FROM orders WHERE order_id = " + ids[2]);
        } catch (SQLException ex) {
            throw new IllegalStateException(ex);
        }
        Pipeline.awaitStreamsMatchesPg(stand);
        ch.truncate("raw_totals", "customer_totals");
        SinkSummary run = Pipeline.sink(stand, SinkMode.TOTALS, o -> o.withFromStart(true));
        Map<Integer, Totals> truth = pg.truth();
        CustomerReconciliation rec = CustomerReconciliation.of(truth, ch.finalTotals());

        // negative control: a naive aggregation that counts every order event
        AtomicLong naiveEvents = new AtomicLong();
        BigDecimal[] naiveSum = {BigDecimal.ZERO};
        topics.readAll(Stand.ORDERS_EVENTS, "read_committed", r -> {
            if (!OrderEvent.isDeletion(r.value())) {
                naiveEvents.incrementAndGet();
                naiveSum[0] = naiveSum[0].add(new BigDecimal(json(r.value()).get("amount").asText()));
            }
        });
        long pgOrders = Pg.count(truth);
        e.figure("redelivered_events", (long) redelivered.size());
        e.figure("pg_orders", pgOrders);
        e.figure("pg_sum", Pg.sum(truth).toPlainString());
        e.figure("final_sum", Pg.sum(ch.finalTotals()).toPlainString());
        e.expected("final_sum", Pg.sum(truth).toPlainString());
        e.figure("sink_summary", run.line());
        e.figure("naive_event_count", naiveEvents.get());
        e.figure("naive_event_sum", naiveSum[0].toPlainString());
        e.figure("naive_twin_duplicates", naiveEvents.get() - pgOrders);
        e.anomaly("lost", rec.lost()).anomaly("stale", rec.stale()).anomaly("wrong_value", rec.wrongValue());
        e.table("Per customer after redelivery, UPDATE x2 and DELETE", CustomerReconciliation.COLUMNS, rec.rows());
        e.note("The aggregation is a KTable keyed by order_id: a redelivered identical event replaces itself, an UPDATE "
                + "subtracts the old version and adds the new one, a DELETE tombstone subtracts. The naive twin counts "
                + "every event and is off by the redeliveries and the updates.");

        assertThat(naiveEvents.get() - pgOrders).as("negative control: counting events double counts").isPositive();
        assertThat(rec.matches()).as("FINAL vs PG per customer: %s", rec.rows()).isTrue();
    }

    private static final long ROGUE_ORDERS = 999_999;

    private static String rogueSnapshot(int customer) {
        return "{\"customer_id\":" + customer + ",\"orders\":" + ROGUE_ORDERS + ",\"total\":\"999999.99\"}";
    }

    private static long countRogue(Topics topics, Map<TopicPartition, Long> start, String isolation) {
        AtomicLong n = new AtomicLong();
        topics.readAll(Stand.CUSTOMER_TOTALS, isolation, r -> {
            if (r.offset() >= start.get(new TopicPartition(r.topic(), r.partition()))
                    && json(r.value()).path("orders").asLong() == ROGUE_ORDERS) {
                n.incrementAndGet();
            }
        });
        return n.get();
    }

    private static PartitionLag partitionOf(List<PartitionLag> lags, int partition) {
        return lags.stream().filter(l -> l.partition() == partition).findFirst()
                .orElseThrow(() -> new IllegalStateException("ds-sink has no offsets for partition " + partition));
    }

    private static List<String> sinkCliArgs(Stand stand, ClickHouseTarget ch) {
        return new ArrayList<>(List.of("sink", "--bootstrap-servers", stand.bootstrapServers(),
                "--clickhouse", ch.endpoint(), "--clickhouse-user", ch.user(), "--clickhouse-password", ch.password(),
                "--clickhouse-database", ch.database(), "--until-idle", "3s"));
    }

    private static long orderId(ConsumerRecord<byte[], byte[]> r) {
        return json(r.value()).get("order_id").asLong();
    }

    private static com.fasterxml.jackson.databind.JsonNode json(byte[] value) {
        try {
            return JSON.readTree(value);
        } catch (IOException ex) {
            throw new IllegalStateException(new String(value, StandardCharsets.UTF_8), ex);
        }
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
