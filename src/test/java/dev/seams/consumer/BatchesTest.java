package dev.seams.consumer;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/** A batch's position for the permanent-error message, its rewind, and its offsets to commit. */
class BatchesTest {

    private static final TopicPartition P0 = new TopicPartition("customer.totals", 0);
    private static final TopicPartition P2 = new TopicPartition("customer.totals", 2);

    private static ConsumerRecords<byte[], byte[]> batch() {
        return new ConsumerRecords<>(Map.of(
                P2, List.of(new ConsumerRecord<>("customer.totals", 2, 3, null, null), new ConsumerRecord<>("customer.totals", 2, 9, null, null)),
                P0, List.of(new ConsumerRecord<>("customer.totals", 0, 12, null, null), new ConsumerRecord<>("customer.totals", 0, 57, null, null))),
                Map.of());
    }

    @Test
    void thePositionNamesEachPartitionsFirstAndLastOffsetInOrder() {
        assertThat(Batches.position(batch())).isEqualTo("customer.totals-0@12..57, customer.totals-2@3..9");
        assertThat(Batches.position(ConsumerRecords.empty())).isEqualTo("(empty)");
        assertThat(Batches.counts(batch())).containsExactlyInAnyOrderEntriesOf(Map.of(P0, 2L, P2, 2L));
    }

    @Test
    void aPositionReadsBackAsWritten() {
        String line = "sink: crash at after-insert: batch " + Batches.position(batch()) + " inserted (4 rows), offsets not committed";

        assertThat(Batches.parsePosition(line)).containsExactly(
                Map.entry(P0, new Batches.OffsetRange(12, 57)), Map.entry(P2, new Batches.OffsetRange(3, 9)));
        assertThat(Batches.parsePosition("customer.totals.dlq-11@0..0"))
                .containsExactly(Map.entry(new TopicPartition("customer.totals.dlq", 11), new Batches.OffsetRange(0, 0)));
        assertThat(Batches.parsePosition(Batches.position(ConsumerRecords.empty()))).isEmpty();
    }

    @Test
    void rewindSeeksEachPartitionToItsFirstRecordAndNextOffsetsAreThePositions() {
        MockConsumer<byte[], byte[]> consumer = new MockConsumer<>("earliest");
        consumer.assign(List.of(P0, P2));
        consumer.seek(P0, 58);
        consumer.seek(P2, 10);

        assertThat(Batches.nextOffsets(consumer, batch())).containsExactlyInAnyOrderEntriesOf(Map.of(
                P0, new OffsetAndMetadata(58), P2, new OffsetAndMetadata(10)));
        Batches.rewind(consumer, batch());
        assertThat(consumer.position(P0)).isEqualTo(12);
        assertThat(consumer.position(P2)).isEqualTo(3);
    }
}
