package dev.seams.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.seams.check.Reconciliation;
import dev.seams.fixture.StandContext;
import dev.seams.report.Claim;
import dev.seams.report.ClaimEvidence;
import dev.seams.sink.SinkMode;
import dev.seams.sink.SinkSummary;
import dev.seams.stand.ConnectWorker;
import dev.seams.stand.Stand;
import dev.seams.truth.ClickHouse;
import dev.seams.truth.Rejection;
import dev.seams.truth.RunNames;
import dev.seams.truth.Topics;
import dev.seams.truth.Totals;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testcontainers.DockerClientFactory;

/**
 * A schema change travelling through every link while the pipeline runs (seed section "Эволюция
 * схемы сквозь звенья"): claim G9. The unknown field reaching the sink itself is G10 ({@code SinkValidationIT}).
 */
@ExtendWith(StandContext.Resolver.class)
class SchemaEvolutionIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** The seed's order: customer 3, 42.00 RUB. */
    private static final long CUSTOMER = 3;
    private static final String TASK_START = "Starting task " + RunNames.CONNECTOR + "-0";

    private static int count(String text, String needle) {
        Matcher m = Pattern.compile(Pattern.quote(needle)).matcher(text);
        int n = 0;
        while (m.find()) {
            n++;
        }
        return n;
    }

    private static List<String> fieldNames(JsonNode node) {
        List<String> names = new ArrayList<>();
        for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
            names.add(it.next());
        }
        return names;
    }

    @Test
    @Claim(id = "G9", title = "Schema evolution", exercises = {"streams/TotalsTopology", "wire/OrderEvent", "sink/Sink",
            "containers/debezium/orders-connector.json"})
    void g9SchemaEvolution(ClaimEvidence e, StandContext s) throws SQLException {
        Stand stand = s.stand();
        Topics topics = s.topics();
        ClickHouse ch = s.ch();
        boolean columnBefore = hasCurrencyColumn(stand);
        s.settle();
        Map<TopicPartition, Long> plainMark = topics.endOffsets(RunNames.CUSTOMER_TOTALS);
        long plainOrder = insertOrder(stand, "INSERT INTO orders (customer_id, amount) VALUES (" + CUSTOMER + ", 10.00) RETURNING order_id");
        s.settle();
        String streamsLogBefore = stand.streams().logText();
        ConnectWorker connect = new ConnectWorker(stand.connect());
        String connectStartedBefore = startedAt(stand);
        int taskStartsBefore = count(stand.connect().getLogs(), TASK_START);
        Map<TopicPartition, Long> eventsMark = topics.endOffsets(RunNames.ORDERS_EVENTS);
        Map<TopicPartition, Long> totalsMark = topics.endOffsets(RunNames.CUSTOMER_TOTALS);

        try (Connection c = stand.pg(); Statement st = c.createStatement()) {
            st.execute("ALTER TABLE orders ADD COLUMN IF NOT EXISTS currency text");
        }
        long orderId = insertOrder(stand,
                "INSERT INTO orders (customer_id, amount, currency) VALUES (" + CUSTOMER + ", 42.00, 'RUB') RETURNING order_id");
        // carried or not is this claim's own check (below), not the shared settle's
        e.figure("ds_streams_after_the_alter", s.drain().toString());

        Carried carried = readCarried(topics, orderId, eventsMark, plainMark, totalsMark);
        ch.truncate("raw_totals", "customer_totals");
        Map<TopicPartition, Long> dlqMark = topics.endOffsets(RunNames.CUSTOMER_TOTALS_DLQ);
        SinkSummary run = s.sink(SinkMode.TOTALS, o -> o.withFromStart(true));
        List<Rejection> rejected = Rejection.since(topics, RunNames.CUSTOMER_TOTALS_DLQ, dlqMark);
        Map<Long, Totals> truth = s.pg().truth();
        Map<Long, Totals> fin = ch.finalTotals();
        boolean streamsSameProcess = stand.streams().isAlive() && stand.streams().logText().startsWith(streamsLogBefore);
        boolean connectSameContainer = connectStartedBefore.equals(startedAt(stand)) && stand.connect().isRunning();
        int taskStartsAfter = count(stand.connect().getLogs(), TASK_START);
        String task = connect.get("/connectors/" + RunNames.CONNECTOR + "/status").path("tasks").path(0).path("state").asText();

        e.figure("currency_column_before_the_test", columnBefore);
        if (columnBefore) {
            e.unverified("orders already had the currency column when the test began: no schema change happened while the pipeline ran");
        }
        e.check("currency_column_after_the_alter", hasCurrencyColumn(stand)).isTrue("the ALTER added the column");
        recordCarried(e, plainOrder, orderId, carried);
        e.figure("sink_summary", run.line());
        e.figure("bad_records", run.bad());
        e.figure("rejection_reasons", Rejection.byReason(rejected).toString());
        e.check("rejected_after_the_alter", rejected.stream().filter(r -> r.atOrAfter(totalsMark)).count())
                .isZero("customer.totals records written after the ALTER that the sink rejected (dlq-origin-offset at or after the mark)");
        e.figure("pg_customer_" + CUSTOMER, String.valueOf(truth.get(CUSTOMER)));
        e.check("final_customer_" + CUSTOMER, String.valueOf(fin.get(CUSTOMER))).isEqualTo(String.valueOf(truth.get(CUSTOMER)),
                "customer_totals FINAL of the customer with the RUB order vs PG");
        Reconciliation.customerTotalsFinal(stand).record(e, "PostgreSQL vs customer_totals FINAL after the schema change");
        e.check("streams_same_process", streamsSameProcess).isTrue("ds-streams: the same process, its log continued");
        e.figure("connect_started_at", connectStartedBefore);
        e.check("connect_same_container", connectSameContainer).isTrue("Kafka Connect: the same container start, running");
        e.figure("connector_task_starts", taskStartsBefore + " -> " + taskStartsAfter);
        e.check("connector_task_restarts", taskStartsAfter - taskStartsBefore).isZero("'" + TASK_START + "' lines added to the Connect log");
        e.check("connector_task_state", task).isEqualTo("RUNNING", "the connector task's state (GET /connectors/.../status)");
        e.note("ALTER TABLE orders ADD COLUMN currency text while Debezium, Streams and the sink ran; Debezium "
                + "carried the new column into orders.events, Streams ignored it (the snapshot is rebuilt from "
                + "customer_id/orders/total), the sink saw no change. No component was restarted.");
    }

    /**
     * What the topics carried of the schema change.
     *
     * @param event          the new order's orders.events record (null if none)
     * @param snapshotBefore customer CUSTOMER's last customer.totals snapshot before the ALTER (the plain order's)
     * @param newSnapshots   the customer.totals records written after the ALTER
     */
    private record Carried(JsonNode event, JsonNode snapshotBefore, List<JsonNode> newSnapshots) {

        JsonNode snapshot() {
            return newSnapshots.isEmpty() ? null : newSnapshots.get(newSnapshots.size() - 1);
        }
    }

    private static Carried readCarried(Topics topics, long orderId, Map<TopicPartition, Long> eventsMark,
                                       Map<TopicPartition, Long> plainMark, Map<TopicPartition, Long> totalsMark) {
        AtomicReference<JsonNode> event = new AtomicReference<>();
        AtomicReference<JsonNode> snapshotBefore = new AtomicReference<>();
        List<JsonNode> newSnapshots = new ArrayList<>();
        topics.readFrom(RunNames.ORDERS_EVENTS, "read_committed", eventsMark, r -> {
            if (r.value() != null && Long.toString(orderId).equals(new String(r.key(), StandardCharsets.UTF_8))) {
                event.set(parse(r.value()));
            }
        });
        // from before this test's plain order: its snapshot is customer CUSTOMER's last one before the ALTER
        topics.readFrom(RunNames.CUSTOMER_TOTALS, "read_committed", plainMark, r -> {
            if (r.offset() >= totalsMark.get(new TopicPartition(r.topic(), r.partition()))) {
                newSnapshots.add(parse(r.value()));
            } else {
                JsonNode before = tryParse(r.value());
                if (before != null && before.path("customer_id").asInt(-1) == CUSTOMER) {
                    snapshotBefore.set(before);   // the last one before the ALTER: this test's plain order's
                }
            }
        });
        return new Carried(event.get(), snapshotBefore.get(), newSnapshots);
    }

    private static void recordCarried(ClaimEvidence e, long plainOrder, long orderId, Carried carried) {
        JsonNode snapshot = carried.snapshot();
        e.figure("plain_order_id", plainOrder);
        e.figure("order_id", orderId);
        e.figure("orders_event", String.valueOf(carried.event()));
        e.check("event_currency", carried.event() == null ? "-" : carried.event().path("currency").asText("-"))
                .isEqualTo("RUB", "Debezium carries the new column into orders.events");
        e.check("new_customer_totals_records", carried.newSnapshots().size()).isEqualTo(1, "customer.totals records caused by the new order");
        e.figure("customer_totals_record", String.valueOf(snapshot));
        e.check("customer_totals_record_customer", snapshot == null ? "-" : snapshot.path("customer_id").asText("-"))
                .isEqualTo(CUSTOMER, "the new record is customer " + CUSTOMER + "'s snapshot");
        e.check("customer_totals_has_currency", snapshot == null || snapshot.has("currency")).isFalse(
                "ds-streams rebuilds the snapshot from customer_id/orders/total: no currency in customer.totals");
        e.figure("customer_totals_fields_before_alter", carried.snapshotBefore() == null ? "-" : fieldNames(carried.snapshotBefore()).toString());
        e.check("customer_totals_fields", snapshot == null ? "-" : fieldNames(snapshot).toString()).isEqualTo(
                carried.snapshotBefore() == null ? "no record before the ALTER" : fieldNames(carried.snapshotBefore()).toString(),
                "the same fields as customer " + CUSTOMER + "'s snapshot written before the ALTER");
    }

    /** @return whether {@code orders} has the column {@code currency} now (information_schema) */
    private static boolean hasCurrencyColumn(Stand stand) throws SQLException {
        try (Connection c = stand.pg(); Statement st = c.createStatement(); ResultSet rs = st.executeQuery(
                "SELECT count(*) FROM information_schema.columns WHERE table_name = 'orders' AND column_name = 'currency'")) {
            rs.next();
            return rs.getLong(1) > 0;
        }
    }

    /** @return the order_id the INSERT ... RETURNING order_id returned */
    private static long insertOrder(Stand stand, String sql) throws SQLException {
        try (Connection c = stand.pg(); Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** @return when Docker last started the Connect container (changes with every restart) */
    private static String startedAt(Stand stand) {
        return DockerClientFactory.instance().client().inspectContainerCmd(stand.connect().getContainerId()).exec()
                .getState().getStartedAt();
    }

    /** @return the value as JSON, or null if it is none (a record of another claim's making) */
    private static JsonNode tryParse(byte[] value) {
        try {
            return value == null ? null : JSON.readTree(value);
        } catch (IOException ex) {
            return null;
        }
    }

    private static JsonNode parse(byte[] value) {
        try {
            return JSON.readTree(value);
        } catch (IOException ex) {
            throw new IllegalStateException("not JSON: " + new String(value, StandardCharsets.UTF_8), ex);
        }
    }
}
