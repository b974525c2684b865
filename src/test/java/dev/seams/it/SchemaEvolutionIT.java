package dev.seams.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.seams.report.ClaimEvidence;
import dev.seams.report.Evidence;
import dev.seams.report.EvidenceExtension;
import dev.seams.sink.SinkMode;
import dev.seams.sink.SinkSummary;
import dev.seams.stand.ClickHouse;
import dev.seams.stand.ConnectWorker;
import dev.seams.stand.CustomerReconciliation;
import dev.seams.stand.Pg;
import dev.seams.stand.Pipeline;
import dev.seams.stand.Stand;
import dev.seams.stand.Topics;
import dev.seams.stand.Totals;
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
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testcontainers.DockerClientFactory;

/**
 * A schema change travelling through every link while the pipeline runs (seed section "Эволюция
 * схемы сквозь звенья"): claim G9. The unknown field reaching the sink itself is G10 ({@code DlqIT}).
 */
@ExtendWith(EvidenceExtension.class)
class SchemaEvolutionIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** The seed's order: customer 3, 42.00 RUB. */
    private static final int CUSTOMER = 3;
    private static final String TASK_START = "Starting task " + Stand.CONNECTOR + "-0";

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
    @DisplayName("G9 Schema evolution")
    void g9SchemaEvolution() throws SQLException {
        ClaimEvidence e = Evidence.claim("G9", "Schema evolution");
        Stand stand = Stand.get();
        Pg pg = Pg.of(stand);
        ClickHouse ch = ClickHouse.of(stand);
        Topics topics = Topics.of(stand);
        Pipeline.awaitStreamsMatchesPg(stand);
        String streamsLogBefore = stand.streams().logText();
        ConnectWorker connect = new ConnectWorker(stand.connect());
        String connectStartedBefore = startedAt(stand);
        int taskStartsBefore = count(stand.connect().getLogs(), TASK_START);
        Map<TopicPartition, Long> eventsMark = topics.endOffsets(Stand.ORDERS_EVENTS);
        Map<TopicPartition, Long> totalsMark = topics.endOffsets(Stand.CUSTOMER_TOTALS);

        long orderId;
        try (Connection c = stand.pg(); Statement st = c.createStatement()) {
            st.execute("ALTER TABLE orders ADD COLUMN IF NOT EXISTS currency text");
            try (ResultSet rs = st.executeQuery(
                    "INSERT INTO orders (customer_id, amount, currency) VALUES (" + CUSTOMER + ", 42.00, 'RUB') RETURNING order_id")) {
                rs.next();
                orderId = rs.getLong(1);
            }
        }
        Pipeline.awaitStreamsMatchesPg(stand);

        AtomicReference<JsonNode> event = new AtomicReference<>();
        List<JsonNode> newSnapshots = new ArrayList<>();
        topics.readAll(Stand.ORDERS_EVENTS, "read_committed", r -> {
            if (r.offset() >= eventsMark.get(new TopicPartition(r.topic(), r.partition())) && r.value() != null
                    && Long.toString(orderId).equals(new String(r.key(), StandardCharsets.UTF_8))) {
                event.set(parse(r.value()));
            }
        });
        topics.readAll(Stand.CUSTOMER_TOTALS, "read_committed", r -> {
            if (r.offset() >= totalsMark.get(new TopicPartition(r.topic(), r.partition()))) {
                newSnapshots.add(parse(r.value()));
            }
        });
        ch.truncate("raw_totals", "customer_totals");
        SinkSummary run = Pipeline.sink(stand, SinkMode.TOTALS, o -> o.withFromStart(true));
        Map<Integer, Totals> truth = pg.truth();
        Map<Integer, Totals> fin = ch.finalTotals();
        CustomerReconciliation rec = CustomerReconciliation.of(truth, fin);
        boolean streamsSameProcess = stand.streams().isAlive() && stand.streams().logText().startsWith(streamsLogBefore);
        boolean connectSameContainer = connectStartedBefore.equals(startedAt(stand)) && stand.connect().isRunning();
        int taskStartsAfter = count(stand.connect().getLogs(), TASK_START);
        String task = connect.get("/connectors/" + Stand.CONNECTOR + "/status").path("tasks").path(0).path("state").asText();
        JsonNode snapshot = newSnapshots.isEmpty() ? null : newSnapshots.get(newSnapshots.size() - 1);

        e.figure("order_id", orderId);
        e.figure("orders_event", String.valueOf(event.get()));
        e.figure("event_currency", event.get() == null ? "-" : event.get().path("currency").asText("-"));
        e.expected("event_currency", "RUB");
        e.figure("new_customer_totals_records", (long) newSnapshots.size());
        e.expected("new_customer_totals_records", 1L);
        e.figure("customer_totals_record", String.valueOf(snapshot));
        e.figure("customer_totals_fields", snapshot == null ? "-" : fieldNames(snapshot).toString());
        e.expected("customer_totals_fields", List.of("customer_id", "orders", "total").toString());
        e.figure("pg_customer_" + CUSTOMER, String.valueOf(truth.get(CUSTOMER)));
        e.figure("final_customer_" + CUSTOMER, String.valueOf(fin.get(CUSTOMER)));
        e.expected("final_customer_" + CUSTOMER, String.valueOf(truth.get(CUSTOMER)));
        e.figure("final_sum", Pg.sum(fin).toPlainString());
        e.expected("final_sum", Pg.sum(truth).toPlainString());
        e.figure("sink_summary", run.line());
        e.figure("streams_same_process", streamsSameProcess);
        e.expected("streams_same_process", true);
        e.figure("connect_started_at", connectStartedBefore);
        e.figure("connect_same_container", connectSameContainer);
        e.expected("connect_same_container", true);
        e.figure("connector_task_starts", taskStartsBefore + " -> " + taskStartsAfter);
        e.figure("connector_task_state", task);
        e.expected("connector_task_state", "RUNNING");
        e.anomaly("lost", rec.lost()).anomaly("stale", rec.stale()).anomaly("wrong_value", rec.wrongValue());
        e.table("Per customer: PostgreSQL vs customer_totals FINAL after the schema change", CustomerReconciliation.COLUMNS, rec.rows());
        e.note("ALTER TABLE orders ADD COLUMN currency text while Debezium, Streams and the sink ran; Debezium "
                + "carried the new column into orders.events, Streams ignored it (the snapshot is rebuilt from "
                + "customer_id/orders/total), the sink saw no change. No component was restarted.");

        assertThat(event.get()).as("the new order's event in orders.events").isNotNull();
        assertThat(event.get().path("currency").asText()).as("Debezium carries the new column").isEqualTo("RUB");
        assertThat(newSnapshots).as("customer.totals records caused by the new order").hasSize(1);
        assertThat(fieldNames(snapshot)).as("customer.totals carries no currency").containsExactly("customer_id", "orders", "total");
        assertThat(snapshot.path("customer_id").asInt()).isEqualTo(CUSTOMER);
        assertThat(run.bad()).as("bad records while reading customer.totals from the start").isZero();
        assertThat(fin.get(CUSTOMER)).as("FINAL of customer %d vs PG", CUSTOMER).isEqualTo(truth.get(CUSTOMER));
        assertThat(rec.matches()).as("FINAL vs PG per customer: %s", rec.rows()).isTrue();
        assertThat(streamsSameProcess).as("ds-streams: same process, log continued").isTrue();
        assertThat(connectSameContainer).as("Kafka Connect: same container start, running").isTrue();
        assertThat(taskStartsAfter).as("connector task not restarted").isEqualTo(taskStartsBefore);
        assertThat(task).as("connector task state").isEqualTo("RUNNING");
    }

    /** @return when Docker last started the Connect container (changes with every restart) */
    private static String startedAt(Stand stand) {
        return DockerClientFactory.instance().client().inspectContainerCmd(stand.connect().getContainerId()).exec()
                .getState().getStartedAt();
    }

    private static JsonNode parse(byte[] value) {
        try {
            return JSON.readTree(value);
        } catch (IOException ex) {
            throw new IllegalStateException("not JSON: " + new String(value, StandardCharsets.UTF_8), ex);
        }
    }
}
