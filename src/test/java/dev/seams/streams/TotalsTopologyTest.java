package dev.seams.streams;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seams.wire.CustomerTotals;
import dev.seams.wire.TopicNames;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Claims B3 (idempotent per order_id, UPDATE, DELETE in every form Debezium writes), B2 (bad record
 * skipped), G2 (snapshots), B10 (the per-customer version) and B11 (emptied customers, refunds).
 */
class TotalsTopologyTest {

    @TempDir
    Path stateDir;

    private TopologyTestDriver driver;
    private TestInputTopic<String, String> orders;
    private TestOutputTopic<String, String> totals;

    @BeforeEach
    void startDriver() {
        // the production settings (exactly_once_v2, no cache, log-and-continue); the broker is never contacted
        driver = new TopologyTestDriver(TotalsTopology.build(), StreamsSettings.properties("unused:9092", stateDir));
        orders = driver.createInputTopic(TopicNames.ORDERS_EVENTS, new StringSerializer(), new StringSerializer());
        totals = driver.createOutputTopic(TopicNames.CUSTOMER_TOTALS, new StringDeserializer(), new StringDeserializer());
    }

    @AfterEach
    void closeDriver() {
        driver.close();
    }

    /** Pipes one Debezium-shaped event, keyed by order_id as JSON text. */
    private void order(long orderId, int customerId, String amount) {
        orders.pipeInput(Long.toString(orderId), "{\"order_id\":" + orderId + ",\"customer_id\":" + customerId
                + ",\"amount\":\"" + amount + "\",\"created_at\":\"2026-11-29T19:57:27.148553Z\"}");
    }

    private void delete(long orderId) {
        orders.pipeInput(Long.toString(orderId), (String) null);
    }

    /** Pipes a DELETE as the connector writes it now (rewrite mode): the old row, {@code __deleted} true. */
    private void rewrittenDelete(long orderId, int customerId, String amount, long lsn) {
        orders.pipeInput(Long.toString(orderId), "{\"order_id\":" + orderId + ",\"customer_id\":" + customerId
                + ",\"amount\":\"" + amount + "\",\"created_at\":\"2026-11-29T19:57:27.148553Z\",\"__deleted\":\"true\","
                + "\"__op\":\"d\",\"__lsn\":" + lsn + ",\"__source_ts_ms\":1764446250000}");
    }

    private static String json(int customerId, long count, String total, long version) {
        return "{\"customer_id\":" + customerId + ",\"orders\":" + count + ",\"total\":\"" + total
                + "\",\"version\":" + version + "}";
    }

    private void seedThreeCustomers() {
        order(1, 1, "10.00");
        order(2, 2, "0.10");
        order(3, 1, "5.55");
        order(4, 3, "100.00");
        order(5, 2, "0.20");
        order(6, 1, "0.45");
    }

    @Test
    void lastRecordPerCustomerIsCountAndSum() {
        seedThreeCustomers();

        List<KeyValue<String, String>> records = totals.readKeyValuesToList();
        assertThat(records).hasSize(6); // one cumulative snapshot per change (G2, no cache)
        assertThat(records.get(0)).isEqualTo(KeyValue.pair("1", json(1, 1, "10.00", 1)));
        assertThat(lastPerCustomer(records)).containsExactlyInAnyOrderEntriesOf(Map.of(
                "1", json(1, 3, "16.00", 3),
                "2", json(2, 2, "0.30", 2),
                "3", json(3, 1, "100.00", 1)));
    }

    @Test
    void redeliveredIdenticalEventDoesNotChangeTotals() {
        seedThreeCustomers();
        Map<String, String> before = lastPerCustomer(totals.readKeyValuesToList());

        order(1, 1, "10.00");
        order(4, 3, "100.00");
        order(1, 1, "10.00");

        Map<String, String> after = new HashMap<>(before);
        after.putAll(lastPerCustomer(totals.readKeyValuesToList()));
        // B10 changed the record: a redelivery runs subtractor and adder, so the unchanged snapshot is
        // emitted again with its version 2 higher per redelivered event; orders and total stay exactly equal
        assertThat(withoutVersion(after)).isEqualTo(withoutVersion(before));
        assertThat(after).containsEntry("1", json(1, 3, "16.00", 7)).containsEntry("3", json(3, 1, "100.00", 3));
    }

    private static Map<String, String> withoutVersion(Map<String, String> snapshots) {
        Map<String, String> stripped = new HashMap<>();
        snapshots.forEach((k, v) -> stripped.put(k, v.replaceAll(",\"version\":\\d+", "")));
        return stripped;
    }

    @Test
    void updateOfAmountReplacesTheOldAmount() {
        seedThreeCustomers();
        totals.readKeyValuesToList();

        order(3, 1, "6.00");

        assertThat(totals.readKeyValuesToList()).containsExactly(KeyValue.pair("1", json(1, 3, "16.45", 5)));
    }

    @Test
    void updateMovingOrderToAnotherCustomerFixesBoth() {
        seedThreeCustomers();
        totals.readKeyValuesToList();

        order(1, 3, "10.00");

        assertThat(lastPerCustomer(totals.readKeyValuesToList())).containsExactlyInAnyOrderEntriesOf(Map.of(
                "1", json(1, 2, "6.00", 4),
                "3", json(3, 2, "110.00", 2)));
    }

    @Test
    void deleteTombstoneSubtractsAndLastDeleteEmitsZero() {
        seedThreeCustomers();
        totals.readKeyValuesToList();

        delete(2);
        assertThat(totals.readKeyValuesToList()).containsExactly(KeyValue.pair("2", json(2, 1, "0.20", 3)));

        delete(4);
        assertThat(totals.readKeyValuesToList()).containsExactly(KeyValue.pair("3", json(3, 0, "0.00", 2)));

        delete(4); // a second tombstone for a deleted order changes nothing
        delete(999); // neither does one for an order never seen
        assertThat(totals.readKeyValuesToList()).isEmpty();

        order(4, 3, "1.00"); // re-insert after delete counts again
        assertThat(totals.readKeyValuesToList()).containsExactly(KeyValue.pair("3", json(3, 1, "1.00", 3)));
    }

    @Test
    void jsonNullValueIsADeleteAsDebeziumWritesIt() {
        seedThreeCustomers();
        totals.readKeyValuesToList();

        // Debezium's ExtractNewRecordState + JsonConverter (schemas off) write a DELETE as the 4 bytes "null"
        orders.pipeInput("2", "null");
        assertThat(totals.readKeyValuesToList()).containsExactly(KeyValue.pair("2", json(2, 1, "0.20", 3)));
    }

    @Test
    void badRecordsBetweenGoodOnesAreSkipped() {
        order(1, 1, "1.10");
        orders.pipeInput("2", "not-a-json{{{");
        order(3, 1, "2.20");
        orders.pipeInput("4", "{\"order_id\":4,\"amount\":\"1.00\"}");
        orders.pipeInput("5", "{\"order_id\":5,\"customer_id\":1,\"amount\":\"abc\"}");
        orders.pipeInput("1", "{}"); // a bad version of a counted order leaves the good one counted
        order(6, 2, "3.30");

        List<KeyValue<String, String>> records = totals.readKeyValuesToList();
        assertThat(records).containsExactly(
                KeyValue.pair("1", json(1, 1, "1.10", 1)),
                KeyValue.pair("1", json(1, 2, "3.30", 2)),
                KeyValue.pair("2", json(2, 1, "3.30", 1)));
    }

    @Test
    void newFieldInSourceIsIgnoredAndNotCopied() {
        orders.pipeInput("1", "{\"order_id\":1,\"customer_id\":7,\"amount\":\"2.50\",\"currency\":\"RUB\"}");

        assertThat(totals.readKeyValue()).isEqualTo(KeyValue.pair("7", json(7, 1, "2.50", 1)));
    }

    @Test
    void anUpdateWithinTheSameCustomerIsOneSnapshotTwoVersionsOn() {
        // Kafka Streams 4.2 (KIP-904): the repartition record carries old and new value together when
        // the grouping key is unchanged, so subtractor and adder run in one step and ONE snapshot is
        // emitted; the version counts both applications.
        seedThreeCustomers();
        totals.readKeyValuesToList();

        order(3, 1, "6.00");
        order(3, 1, "6.50");

        assertThat(totals.readKeyValuesToList()).containsExactly(
                KeyValue.pair("1", json(1, 3, "16.45", 5)),
                KeyValue.pair("1", json(1, 3, "16.95", 7)));
    }

    @Test
    void aRewrittenDeleteSubtractsTheOrderOnceAndARepeatChangesNothing() {
        seedThreeCustomers();
        totals.readKeyValuesToList();

        rewrittenDelete(2, 2, "0.10", 500);
        assertThat(totals.readKeyValuesToList()).containsExactly(KeyValue.pair("2", json(2, 1, "0.20", 3)));

        rewrittenDelete(2, 2, "0.10", 500); // Debezium re-sending the same DELETE after a Connect crash
        assertThat(totals.readKeyValuesToList()).isEmpty();
    }

    @Test
    void aCustomerEmptiedByAMoveReadsZero() {
        order(1, 4, "92.00");
        totals.readKeyValuesToList();

        order(1, 5, "92.00"); // UPDATE orders SET customer_id = 5: customer 4 has no order left

        assertThat(lastPerCustomer(totals.readKeyValuesToList())).containsExactlyInAnyOrderEntriesOf(Map.of(
                "4", json(4, 0, "0.00", 2),
                "5", json(5, 1, "92.00", 1)));
    }

    @Test
    void aRefundIsCarriedAsANegativeTotal() {
        order(1, 6, "-5.00");

        assertThat(totals.readKeyValue()).isEqualTo(KeyValue.pair("6", json(6, 1, "-5.00", 1)));
    }

    @Test
    void versionsAreIdenticalWhenTheSameInputIsReplayedAndRiseWithEveryChange() {
        List<KeyValue<String, String>> first = runMixedLoad();
        driver.close();
        driver = new TopologyTestDriver(TotalsTopology.build(), StreamsSettings.properties("unused:9092", stateDir.resolve("replay")));
        orders = driver.createInputTopic(TopicNames.ORDERS_EVENTS, new StringSerializer(), new StringSerializer());
        totals = driver.createOutputTopic(TopicNames.CUSTOMER_TOTALS, new StringDeserializer(), new StringDeserializer());

        assertThat(runMixedLoad()).isEqualTo(first);
        Map<String, Long> last = new HashMap<>();
        for (KeyValue<String, String> record : first) {
            long version = CustomerTotals.fromJson(record.value).version();
            assertThat(version).as("version of customer %s after %s", record.key, last.get(record.key))
                    .isGreaterThan(last.getOrDefault(record.key, 0L));
            last.put(record.key, version);
        }
    }

    private List<KeyValue<String, String>> runMixedLoad() {
        seedThreeCustomers();
        order(3, 1, "6.00");
        order(1, 3, "10.00");
        delete(2);
        rewrittenDelete(4, 3, "100.00", 900);
        order(7, 2, "-1.00");
        return totals.readKeyValuesToList();
    }

    @Test
    void internalTopicAndStoreNamesAreStable() {
        String description = TotalsTopology.build().describe().toString();

        assertThat(description)
                .contains("topics: [orders.events]")
                .contains("stores: [orders-by-id]")
                .contains("topic: orders-by-customer-repartition")
                .contains("stores: [totals-by-customer]")
                .contains("topic: customer.totals");
    }

    @Test
    void aTopicPrefixRenamesTheInputAndOutputOnly() {
        String description = TotalsTopology.build(new TopicNames("run7_")).describe().toString();

        assertThat(description)
                .contains("topics: [run7_orders.events]")
                .contains("topic: run7_customer.totals")
                .as("internal topics take the application id's prefix from Kafka Streams, not this one")
                .contains("topic: orders-by-customer-repartition");
    }

    private static Map<String, String> lastPerCustomer(List<KeyValue<String, String>> records) {
        Map<String, String> last = new HashMap<>();
        records.forEach(r -> last.put(r.key, r.value));
        return last;
    }
}
