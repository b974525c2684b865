package dev.seams.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.seams.report.ClaimEvidence;
import dev.seams.report.Evidence;
import dev.seams.report.EvidenceExtension;
import dev.seams.report.FaultNotObservedException;
import dev.seams.sink.SinkMode;
import dev.seams.streams.OrderEvent;
import dev.seams.stand.ClickHouse;
import dev.seams.stand.ConnectWorker;
import dev.seams.stand.CustomerReconciliation;
import dev.seams.stand.Faults;
import dev.seams.stand.Pg;
import dev.seams.stand.Pipeline;
import dev.seams.stand.Stand;
import dev.seams.stand.Topics;
import java.io.IOException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Kafka Connect (Debezium) is at-least-once: after kill -9 of the worker it re-delivers what it had
 * not flushed offsets for (source section "Композиция гарантий"). Claim B3: the per-order_id
 * aggregation and the dedup views absorb the redelivery — every order exactly once, every customer
 * equal to PG — while the raw count of events (the twin) shows the redelivered ones.
 */
@ExtendWith(EvidenceExtension.class)
class ConnectIT {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    @DisplayName("B3 Connect worker killed three times under a 5,000-order load")
    void b3ConnectKilledUnderLoad() {
        ClaimEvidence e = Evidence.claim("B3[connect kill -9 under load]", "Upstream redelivery does not double count: Connect killed under load");
        Stand stand = Stand.get();
        Pg pg = Pg.of(stand);
        Topics topics = Topics.of(stand);
        ClickHouse ch = ClickHouse.of(stand);
        ConnectWorker connect = new ConnectWorker(stand.connect());
        Pipeline.awaitStreamsMatchesPg(stand);
        Map<TopicPartition, Long> start = topics.endOffsets(Stand.ORDERS_EVENTS);

        int batches = 50;
        int batchSize = 100;
        AtomicInteger done = new AtomicInteger();
        Set<Long> seeded = java.util.concurrent.ConcurrentHashMap.newKeySet();
        ScheduledExecutorService loader = Executors.newSingleThreadScheduledExecutor();
        List<List<Object>> kills = new ArrayList<>();
        try {
            loader.scheduleAtFixedRate(() -> {
                if (done.get() < batches) {
                    pg.seed(batchSize, 5, 70_000 + done.get()).forEach(o -> seeded.add(o.orderId()));
                    done.incrementAndGet();
                }
            }, 0, 1, TimeUnit.SECONDS);
            for (double target : new double[] {0.1, 0.5, 0.9}) {
                await("load reaches " + target).atMost(Duration.ofMinutes(5)).pollInterval(Duration.ofMillis(100))
                        .until(() -> done.get() >= target * batches);
                long delivered = topics.totalEndOffset(Stand.ORDERS_EVENTS) - sum(start);
                int exit = connect.kill();
                kills.add(List.of(String.format("%.0f%%", target * 100), done.get() * batchSize, delivered, exit));
                Faults.requireSigkill("the Connect container", exit);
                connect.restart(Stand.CONNECTOR);
            }
            await("the load is in PG").atMost(Duration.ofMinutes(5)).until(() -> done.get() == batches);
        } finally {
            loader.shutdownNow();
        }
        e.table("Connect kills (fault proven by the container's exit code 137)",
                List.of("target", "orders in PG", "events in orders.events", "exit code"), kills);
        int n = e.figure("orders_loaded", seeded.size());

        // per order: every seeded order_id reaches orders.events; count the redelivered events
        Map<Long, Integer> perOrder = new HashMap<>();
        await("every seeded order reached orders.events").atMost(Duration.ofMinutes(5)).pollInterval(Duration.ofSeconds(2))
                .until(() -> {
                    perOrder.clear();
                    topics.readAll(Stand.ORDERS_EVENTS, "read_committed", r -> {
                        if (!OrderEvent.isDeletion(r.value()) && r.offset() >= start.get(new TopicPartition(r.topic(), r.partition()))) {
                            perOrder.merge(orderId(r.value()), 1, Integer::sum);
                        }
                    });
                    return perOrder.keySet().containsAll(seeded);
                });
        long events = perOrder.entrySet().stream().filter(en -> seeded.contains(en.getKey())).mapToLong(Map.Entry::getValue).sum();
        long redelivered = e.figure("redelivered_events", events - n);
        e.figure("events_of_the_load", events);

        // the dedup view: order_dedup FINAL holds each order once; order_counts_raw (the twin) counts events
        ch.truncate("order_counts_raw", "order_dedup");
        topics.resetGroup("ds-sink", start);
        Pipeline.sink(stand, SinkMode.DEDUP_DEMO, o -> o);
        long twin = e.figure("order_counts_raw_sum_cnt", ch.scalar("SELECT sum(cnt) FROM order_counts_raw"));
        List<List<String>> finalRows = ch.rows("SELECT order_id, count() FROM order_dedup FINAL GROUP BY order_id");
        long duplicate = finalRows.stream().filter(r -> Long.parseLong(r.get(1)) > 1).count();
        Set<Long> inFinal = new HashSet<>();
        finalRows.forEach(r -> inFinal.add(Long.parseLong(r.get(0))));
        long lost = seeded.stream().filter(id -> !inFinal.contains(id)).count();
        e.figure("order_dedup_final_count", (long) inFinal.size());
        e.expected("order_dedup_final_count", (long) n);

        Pipeline.awaitStreamsMatchesPg(stand);
        ch.truncate("raw_totals", "customer_totals");
        Pipeline.sink(stand, SinkMode.TOTALS, o -> o.withFromStart(true));
        CustomerReconciliation rec = CustomerReconciliation.of(pg.truth(), ch.finalTotals());
        e.anomaly("duplicate", duplicate).anomaly("lost", lost + rec.lost())
                .anomaly("stale", rec.stale()).anomaly("wrong_value", rec.wrongValue());
        e.table("Per customer: PostgreSQL vs customer_totals FINAL", CustomerReconciliation.COLUMNS, rec.rows());
        e.note("Debezium re-sent " + redelivered + " events after the kills (offsets it had not flushed); "
                + "order_counts_raw, which counts events, shows them; order_dedup FINAL and the per-order_id "
                + "Streams aggregation do not.");

        assertThat(duplicate).as("orders more than once in order_dedup FINAL").isZero();
        assertThat(lost).as("seeded orders missing from order_dedup FINAL").isZero();
        assertThat(inFinal).as("order_dedup FINAL holds exactly the seeded orders").hasSize(n);
        assertThat(twin).as("the twin counts every delivered event").isEqualTo(events);
        assertThat(rec.matches()).as("FINAL vs PG per customer: %s", rec.rows()).isTrue();
    }

    @Test
    @DisplayName("B3 Connect worker killed during Debezium's initial snapshot")
    void b3ConnectKilledDuringSnapshot() throws SQLException {
        ClaimEvidence e = Evidence.claim("B3[connect kill -9 during snapshot]", "Upstream redelivery does not double count: Connect killed mid-snapshot");
        Stand stand = Stand.get();
        Pg pg = Pg.of(stand);
        Topics topics = Topics.of(stand);
        ConnectWorker connect = new ConnectWorker(stand.connect());
        String name = "seams-snapshot";
        String topic = "orders.snapshot";
        long existing = Pg.count(pg.truth());
        if (existing < 3000) {
            pg.seed((int) (3000 - existing), 5, 80_000);
        }
        Set<Long> ids = orderIds(stand);
        int n = e.figure("orders_in_pg", ids.size());
        try {
            stand.admin().createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get();
        } catch (Exception ex) {
            throw new IllegalStateException("cannot create " + topic, ex);
        }
        Map<String, String> config = new HashMap<>(stand.connectorConfig());
        config.put("slot.name", "seams_snapshot");
        config.put("publication.name", "seams_snapshot");
        config.put("topic.prefix", "seams_snapshot");
        config.put("snapshot.mode", "initial");
        config.put("transforms.route.replacement", topic);
        // a slow snapshot (small batches, pauses) so the kill lands in the middle of it
        config.put("max.batch.size", "20");
        config.put("max.queue.size", "40");
        config.put("poll.interval.ms", "100");
        config.put("snapshot.fetch.size", "20");
        connect.register(name, config);
        try {
            await("snapshot in progress").atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(50))
                    .until(() -> topics.totalEndOffset(topic) >= n / 3);
            long before = e.figure("snapshot_records_before_kill", topics.totalEndOffset(topic));
            e.expected("connect_exit_code", Faults.SIGKILL_EXIT);
            Faults.requireSigkill("the Connect container", e.figure("connect_exit_code", connect.kill()));
            if (before >= n) {
                throw new FaultNotObservedException("the kill did not land mid-snapshot: " + before + " of " + n
                        + " rows were already snapshotted");
            }
            connect.restart(Stand.CONNECTOR);
            connect.awaitTaskRunning(name);
            Map<Long, Integer> perOrder = new HashMap<>();
            await("every order in the snapshot topic").atMost(Duration.ofMinutes(5)).pollInterval(Duration.ofSeconds(2))
                    .until(() -> {
                        perOrder.clear();
                        topics.readAll(topic, "read_committed", r -> {
                            if (!OrderEvent.isDeletion(r.value())) {
                                perOrder.merge(orderId(r.value()), 1, Integer::sum);
                            }
                        });
                        return perOrder.keySet().containsAll(ids);
                    });
            long records = perOrder.values().stream().mapToLong(Integer::longValue).sum();
            long redelivered = e.figure("snapshot_records_redelivered", records - perOrder.size());
            long lost = ids.stream().filter(id -> !perOrder.containsKey(id)).count();
            e.figure("snapshot_records", records);
            e.figure("distinct_orders", (long) perOrder.size());
            e.expected("distinct_orders", (long) n);
            e.anomaly("lost", lost);
            e.note("The snapshot restarted after the kill and re-sent " + redelivered + " rows: at-least-once. "
                    + "Deduplicated by order_id (the key every view uses), each of the " + n + " orders is there once.");
            assertThat(lost).as("orders missing from the snapshot").isZero();
            assertThat(perOrder.keySet()).as("distinct order ids in the snapshot vs PG").isEqualTo(ids);
        } finally {
            connect.delete(name);
            dropSlot(stand, "seams_snapshot");
        }
    }

    private static Set<Long> orderIds(Stand stand) throws SQLException {
        Set<Long> ids = new HashSet<>();
        try (Connection c = stand.pg(); Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT order_id FROM orders")) {
            while (rs.next()) {
                ids.add(rs.getLong(1));
            }
        }
        return ids;
    }

    private static void dropSlot(Stand stand, String slot) {
        await("slot " + slot + " dropped").atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofSeconds(1)).ignoreExceptions()
                .until(() -> {
                    try (Connection c = stand.pg(); Statement st = c.createStatement()) {
                        st.execute("SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE slot_name = '" + slot + "'");
                        st.execute("DROP PUBLICATION IF EXISTS " + slot);
                    }
                    return true;
                });
    }

    private static long sum(Map<TopicPartition, Long> offsets) {
        return offsets.values().stream().mapToLong(Long::longValue).sum();
    }

    private static long orderId(byte[] value) {
        try {
            return JSON.readTree(value).get("order_id").asLong();
        } catch (IOException ex) {
            throw new IllegalStateException(ex);
        }
    }
}
