package dev.seams.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.seams.consumer.ManualClock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

class PollAccumulatorTest {

    private static final TopicPartition P0 = new TopicPartition("t", 0);
    private static final TopicPartition P1 = new TopicPartition("t", 1);
    private final ManualClock clock = new ManualClock();

    private static ConsumerRecords<byte[], byte[]> poll(TopicPartition tp, long... offsets) {
        List<ConsumerRecord<byte[], byte[]>> records = java.util.Arrays.stream(offsets)
                .mapToObj(o -> new ConsumerRecord<byte[], byte[]>(tp.topic(), tp.partition(), o, null, null)).toList();
        return new ConsumerRecords<>(Map.of(tp, records), Map.of());
    }

    @Test
    void perPollEveryPollIsDueAtOnce() {
        PollAccumulator pending = new PollAccumulator(Batching.PER_POLL, clock);
        assertThat(pending.due()).as("nothing gathered").isFalse();

        pending.add(poll(P0, 5));

        assertThat(pending.due()).isTrue();
        assertThat(pending.pollTimeout(Duration.ofMillis(500))).isEqualTo(Duration.ofMillis(500));
    }

    @Test
    void pollsAreGatheredUntilTheRowsOrTheWaitAreReached() {
        PollAccumulator pending = new PollAccumulator(new Batching(4, Duration.ofSeconds(2)), clock);
        pending.add(poll(P0, 10, 11));
        clock.advance(Duration.ofMillis(1500));
        assertThat(pending.due()).isFalse();
        assertThat(pending.pollTimeout(Duration.ofSeconds(1))).as("the poll ends when the oldest record's wait does")
                .isEqualTo(Duration.ofMillis(500));

        pending.add(poll(P1, 3));
        pending.add(poll(P0, 12));

        assertThat(pending.due()).as("4 records").isTrue();
        ConsumerRecords<byte[], byte[]> batch = pending.drain();
        assertThat(batch.count()).isEqualTo(4);
        assertThat(batch.records(P0)).extracting(ConsumerRecord::offset).containsExactly(10L, 11L, 12L);
        assertThat(batch.nextOffsets().get(P0).offset()).isEqualTo(13L);
        assertThat(pending.isEmpty()).isTrue();

        pending.add(poll(P1, 4));
        clock.advance(Duration.ofSeconds(2));
        assertThat(pending.due()).as("the oldest record waited 2 s").isTrue();
        assertThat(pending.pollTimeout(Duration.ofSeconds(1))).isZero();
    }

    @Test
    void negativeSettingsAreRefused() {
        assertThatThrownBy(() -> new Batching(-1, Duration.ZERO)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Batching(1, Duration.ofSeconds(-1))).isInstanceOf(IllegalArgumentException.class);
    }
}
