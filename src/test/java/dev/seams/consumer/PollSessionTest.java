package dev.seams.consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.NotLeaderOrFollowerException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The run window and the poll's error classes (docs/sink.md; claim B12): {@code --until-idle}
 * ends even if no partition is ever assigned, {@code --until-caught-up} ends at the end offsets read
 * at the start, a fatal poll error stops the run, a retriable one is counted.
 */
class PollSessionTest {

    private static final String TOPIC = "customer.totals";
    private static final TopicPartition P0 = new TopicPartition(TOPIC, 0);
    private static final TopicPartition P1 = new TopicPartition(TOPIC, 1);
    private static final ConsumerRebalanceListener NOTHING = new ConsumerRebalanceListener() {
        @Override
        public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
        }

        @Override
        public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
        }
    };

    private MockConsumer<byte[], byte[]> consumer;
    private final ManualClock clock = new ManualClock();

    @BeforeEach
    void topicWithTwoPartitions() {
        consumer = withTopic(new MockConsumer<>("earliest"));
    }

    private static MockConsumer<byte[], byte[]> withTopic(MockConsumer<byte[], byte[]> mock) {
        Node node = new Node(0, "localhost", 9092);
        mock.updatePartitions(TOPIC, List.of(new PartitionInfo(TOPIC, 0, node, null, null),
                new PartitionInfo(TOPIC, 1, node, null, null)));
        mock.updateBeginningOffsets(Map.of(P0, 0L, P1, 0L));
        return mock;
    }

    private PollSession session(RunWindow window) {
        PollSession session = new PollSession(consumer, window, clock);
        session.subscribe(TOPIC, NOTHING);
        return session;
    }

    @Test
    void aMissingTopicIsFatal() {
        RunStoppedException e = catchThrowableOfType(RunStoppedException.class,
                () -> new PollSession(consumer, new RunWindow(null, Duration.ofSeconds(5), false), clock).subscribe("nope", NOTHING));

        assertThat(e.stop()).isEqualTo(RunStoppedException.Stop.FATAL_KAFKA);
        assertThat(e).hasMessage("topic nope does not exist (the sink does not create topics)");
    }

    @Test
    void untilIdleEndsEvenIfNoPartitionIsEverAssigned() {
        PollSession session = session(new RunWindow(null, Duration.ofSeconds(3), false));

        clock.advance(Duration.ofSeconds(PollSession.JOIN_TIMEOUT_S));
        assertThat(session.running()).as("waiting for the group up to the join timeout").isTrue();
        clock.advance(Duration.ofMillis(1));
        assertThat(session.running()).isFalse();
    }

    @Test
    void untilIdleCountsFromTheLastAssignmentOrRecord() {
        PollSession session = session(new RunWindow(null, Duration.ofSeconds(3), false));
        consumer.rebalance(List.of(P0));
        session.poll(Duration.ZERO);

        clock.advance(Duration.ofSeconds(2));
        consumer.addRecord(new ConsumerRecord<>(TOPIC, 0, 0, null, new byte[] {1}));
        assertThat(session.poll(Duration.ZERO).count()).isEqualTo(1);
        clock.advance(Duration.ofSeconds(3));
        assertThat(session.running()).isTrue();
        clock.advance(Duration.ofMillis(1));
        assertThat(session.running()).isFalse();
    }

    @Test
    void anEmptyAssignmentStartsTheIdleClockToo() {
        PollSession session = session(new RunWindow(null, Duration.ofSeconds(3), false));
        consumer.rebalance(List.of());
        session.poll(Duration.ZERO);

        clock.advance(Duration.ofMillis(3_001));

        assertThat(session.running()).isFalse();
    }

    @Test
    void forEndsAfterItsDurationWhateverHappens() {
        PollSession session = session(new RunWindow(Duration.ofSeconds(10), null, false));

        clock.advance(Duration.ofSeconds(10));
        assertThat(session.running()).isTrue();
        clock.advance(Duration.ofMillis(1));
        assertThat(session.running()).isFalse();
    }

    @Test
    void untilCaughtUpEndsAtTheEndOffsetsReadAtTheStart() {
        consumer.updateEndOffsets(Map.of(P0, 2L, P1, 1L));
        PollSession session = session(new RunWindow(null, null, true));
        assertThat(session.running()).as("not assigned yet").isTrue();
        consumer.rebalance(List.of(P0, P1));
        consumer.addRecord(new ConsumerRecord<>(TOPIC, 0, 0, null, new byte[] {1}));
        consumer.addRecord(new ConsumerRecord<>(TOPIC, 1, 0, null, new byte[] {1}));
        consumer.updateEndOffsets(Map.of(P0, 100L, P1, 100L)); // later records do not move the target

        session.poll(Duration.ZERO);
        assertThat(session.running()).as("P0 at 1 of 2").isTrue();
        consumer.addRecord(new ConsumerRecord<>(TOPIC, 0, 1, null, new byte[] {1}));
        session.poll(Duration.ZERO);

        assertThat(session.running()).isFalse();
    }

    @Test
    void aClusterThatDoesNotAnswerIsUnavailableNotRefused() {
        MockConsumer<byte[], byte[]> silent = new MockConsumer<>("earliest") {
            @Override
            public synchronized java.util.List<org.apache.kafka.common.PartitionInfo> partitionsFor(String topic, Duration timeout) {
                throw new org.apache.kafka.common.errors.TimeoutException("Timeout expired while fetching topic metadata");
            }
        };
        RunStoppedException e = catchThrowableOfType(RunStoppedException.class,
                () -> new PollSession(silent, new RunWindow(null, Duration.ofSeconds(5), false), clock).subscribe(TOPIC, NOTHING));

        assertThat(e.stop()).isEqualTo(RunStoppedException.Stop.UNAVAILABLE);
        assertThat(e).hasMessageStartingWith("the cluster did not answer within").hasMessageContaining("partitions of " + TOPIC);
    }

    @Test
    void aFatalPollErrorStopsTheRun() {
        PollSession session = session(new RunWindow(null, Duration.ofSeconds(3), false));
        consumer.setPollException(new TopicAuthorizationException("not allowed to read " + TOPIC));

        RunStoppedException e = catchThrowableOfType(RunStoppedException.class, () -> session.poll(Duration.ZERO));

        assertThat(e.stop()).isEqualTo(RunStoppedException.Stop.FATAL_KAFKA);
        assertThat(e).hasMessage("poll failed (permanent: TopicAuthorizationException): TopicAuthorizationException: "
                + "not allowed to read customer.totals");
    }

    @Test
    void aRetriablePollErrorIsCountedAndTheRunGoesOn() {
        PollSession session = session(new RunWindow(null, Duration.ofSeconds(3), false));
        consumer.setPollException(new NotLeaderOrFollowerException("leader moved"));

        assertThat(session.poll(Duration.ZERO).isEmpty()).isTrue();
        assertThat(session.fetchErrors()).isEqualTo(1);
        assertThat(session.running()).isTrue();
    }

    /** @return a session idle-windowed at 3 s, both partitions assigned, positions 0, with these end offsets */
    private PollSession draining(long endP0, long endP1) {
        PollSession session = session(new RunWindow(null, Duration.ofSeconds(3), false));
        consumer.updateEndOffsets(Map.of(P0, endP0, P1, endP1));
        consumer.rebalance(List.of(P0, P1));
        session.poll(Duration.ZERO);
        return session;
    }

    @Test
    void rebalancesAreCountedAndThoseThatTakePartitionsWithRecordsBehind() {
        PollSession session = draining(5, 0);

        consumer.rebalance(List.of(P1));       // P0 taken away with 5 records behind its position 0: mid-drain
        consumer.rebalance(List.of(P0, P1));   // P0 handed back with its 5 records behind: mid-drain
        consumer.rebalance(List.of(P0));       // P1 taken away, nothing behind, nothing handed: not mid-drain

        assertThat(session.rebalances()).extracting(Rebalances::rebalances, Rebalances::rebalancesMidDrain,
                Rebalances::revokedMidDrain).containsExactly(3L, 2L, 1L);
    }

    @Test
    void revocationsOnceTheRunHasEndedAreNotRebalances() {
        PollSession session = draining(5, 5);
        clock.advance(Duration.ofSeconds(4));
        assertThat(session.running()).isFalse();

        consumer.rebalance(List.of());   // the consumer closing gives its partitions up

        assertThat(session.rebalances().revokedMidDrain()).isZero();
        assertThat(session.rebalances().rebalancesMidDrain()).isZero();
    }

    @Test
    void untilStoppedRunsOnWithoutAssignmentOrRecordsUntilAStopRequest() {
        PollSession session = session(RunWindow.UNTIL_STOPPED);

        clock.advance(Duration.ofHours(24));
        assertThat(session.running()).as("a spare member waits for partitions, an idle one for records").isTrue();
        consumer.rebalance(List.of(P0));
        session.poll(Duration.ZERO);
        clock.advance(Duration.ofHours(24));
        assertThat(session.running()).isTrue();

        session.requestStop();

        assertThat(session.running()).isFalse();
    }

    @Test
    void aStopRequestEndsTheRunWhateverTheWindow() {
        PollSession session = session(new RunWindow(Duration.ofHours(1), null, false));
        assertThat(session.running()).isTrue();

        session.requestStop();

        assertThat(session.running()).isFalse();
    }

    @Test
    void untilCaughtUpWaitsForTheGroupOnPartitionsAnotherMemberOwns() {
        Map<TopicPartition, OffsetAndMetadata> group = new HashMap<>();
        consumer = withTopic(new MockConsumer<>("earliest") {   // MockConsumer reads 0 for a partition it does not own
            @Override
            public synchronized Map<TopicPartition, OffsetAndMetadata> committed(Set<TopicPartition> partitions, Duration timeout) {
                Map<TopicPartition, OffsetAndMetadata> result = new HashMap<>();
                partitions.forEach(tp -> result.put(tp, group.get(tp)));
                return result;
            }
        });
        consumer.updateEndOffsets(Map.of(P0, 1L, P1, 3L));
        PollSession session = session(new RunWindow(null, null, true));
        consumer.rebalance(List.of(P0));   // P1 is another member's
        consumer.addRecord(new ConsumerRecord<>(TOPIC, 0, 0, null, new byte[] {1}));
        session.poll(Duration.ZERO);
        assertThat(session.running()).as("own partition caught up, the group still behind on P1").isTrue();

        group.put(P1, new OffsetAndMetadata(3));   // the other member's commit

        assertThat(session.running()).isFalse();
    }
}
