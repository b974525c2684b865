package dev.seams.streams;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seams.wire.DeadLetters;
import dev.seams.wire.TopicNames;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Claim B2 at unit level: with the production settings (but at_least_once, see below), an invalid {@code orders.events} record
 * becomes a dead letter in {@code orders.events.dlq} (raw bytes, original headers, reason and
 * origin headers) and the good records around it are aggregated as if it were not there.
 */
class DeadLetterHandlerTest {

    @TempDir
    Path stateDir;

    private TopologyTestDriver driver;
    private TestInputTopic<byte[], byte[]> orders;
    private TestOutputTopic<String, String> totals;
    private TestOutputTopic<byte[], byte[]> dlq;

    @BeforeEach
    void startDriver() {
        Properties settings = StreamsSettings.properties("unused:9092", stateDir);
        // TopologyTestDriver 4.2.2 never hands a handler's dead letters to its output topics under
        // exactly_once_v2 (measured: none arrive); the EOS path is proven against a broker by
        // StreamsDeadLettersIT's B2. Everything else is the production setting.
        settings.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.AT_LEAST_ONCE);
        driver = new TopologyTestDriver(TotalsTopology.build(), settings);
        orders = driver.createInputTopic(TopicNames.ORDERS_EVENTS, new ByteArraySerializer(), new ByteArraySerializer());
        totals = driver.createOutputTopic(TopicNames.CUSTOMER_TOTALS, new StringDeserializer(), new StringDeserializer());
        dlq = driver.createOutputTopic(TopicNames.ORDERS_EVENTS_DLQ, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    @AfterEach
    void closeDriver() {
        driver.close();
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static String header(TestRecord<byte[], byte[]> record, String name) {
        return DeadLetters.text(record.headers(), name);
    }

    @Test
    void invalidRecordsBecomeDeadLettersWithReasonAndOrigin() {
        orders.pipeInput(utf8("1"), utf8("{\"order_id\":1,\"customer_id\":1,\"amount\":\"1.10\"}"));
        RecordHeaders original = new RecordHeaders();
        original.add("trace-id", utf8("b2-unit"));
        byte[] notJson = {'n', 'o', 't', '{', (byte) 0xC3, 0x28};
        orders.pipeInput(new TestRecord<>(utf8("2"), notJson, original, Instant.ofEpochMilli(1_000)));
        orders.pipeInput(utf8("3"), utf8("{\"order_id\":3,\"amount\":\"1.00\"}"));
        orders.pipeInput(utf8("4"), utf8("{\"order_id\":4,\"customer_id\":\"x\",\"amount\":\"1.00\"}"));
        orders.pipeInput(utf8("5"), utf8("{\"order_id\":5,\"customer_id\":1}"));
        orders.pipeInput(utf8("6"), utf8("{\"order_id\":6,\"customer_id\":1,\"amount\":\"abc\"}"));
        orders.pipeInput(utf8("7"), utf8("{\"order_id\":7,\"customer_id\":1,\"amount\":\"2.20\"}"));

        List<TestRecord<byte[], byte[]>> letters = dlq.readRecordsToList();
        assertThat(letters).extracting(r -> header(r, DeadLetters.REASON)).containsExactly(
                "order event: not valid JSON: Unrecognized token 'not': was expecting (JSON String, Number, Array, Object or token 'null', 'true' or 'false')",
                "order event: field \"customer_id\" is missing",
                "order event: field \"customer_id\" is not a 64-bit integer: \"x\"",
                "order event: field \"amount\" is missing",
                "order event: field \"amount\" is not a decimal: \"abc\"");
        assertThat(letters).extracting(r -> header(r, DeadLetters.ORIGIN_OFFSET)).containsExactly("1", "2", "3", "4", "5");
        assertThat(letters).extracting(r -> header(r, DeadLetters.ORIGIN_TOPIC)).containsOnly("orders.events");
        assertThat(letters).extracting(r -> header(r, DeadLetters.ORIGIN_PARTITION)).containsOnly("0");
        assertThat(letters).extracting(r -> Instant.parse(header(r, DeadLetters.FAILED_AT))).doesNotContainNull();
        TestRecord<byte[], byte[]> first = letters.get(0);
        assertThat(first.key()).isEqualTo(utf8("2"));
        assertThat(first.value()).isEqualTo(notJson);
        assertThat(header(first, "trace-id")).as("original header kept").isEqualTo("b2-unit");
        assertThat(header(first, "__streams.errors.topic")).as("Kafka Streams' own KIP-1034 header").isEqualTo("orders.events");
        assertThat(totals.readKeyValuesToList()).containsExactly(
                KeyValue.pair("1", "{\"customer_id\":1,\"orders\":1,\"total\":\"1.10\",\"version\":1}"),
                KeyValue.pair("1", "{\"customer_id\":1,\"orders\":2,\"total\":\"3.30\",\"version\":2}"));
    }

    @Test
    void aBadVersionOfACountedOrderLeavesTheGoodOneCounted() {
        orders.pipeInput(utf8("1"), utf8("{\"order_id\":1,\"customer_id\":2,\"amount\":\"5.00\"}"));
        orders.pipeInput(utf8("1"), utf8("{\"order_id\":1,\"customer_id\":2,\"amount\":\"5,01\"}"));
        orders.pipeInput(utf8("8"), utf8("{\"order_id\":8,\"customer_id\":2,\"amount\":\"1.00\"}"));

        assertThat(dlq.readRecordsToList()).extracting(r -> header(r, DeadLetters.REASON))
                .containsExactly("order event: field \"amount\" is not a decimal: \"5,01\"");
        assertThat(totals.readKeyValuesToList()).last()
                .isEqualTo(KeyValue.pair("2", "{\"customer_id\":2,\"orders\":2,\"total\":\"6.00\",\"version\":2}"));
    }
}
