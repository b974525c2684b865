package dev.seams.sinks;

import dev.seams.stand.Stand;
import dev.seams.truth.Endpoints;
import dev.seams.truth.Topics;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.awaitility.core.ConditionTimeoutException;

/**
 * "Caught up" for a sink under test that is not the suite's own code (docs/sinks.md "The contract"): read from the
 * consumer groups' committed offsets by the broker's Admin API, as {@code kafka-consumer-groups --describe} reads them,
 * against the end offsets read when the run started. A sink commits offsets after it wrote what is below them; so a
 * group whose offsets reached the target has written everything the run was to write.
 */
final class CatchUp {

    private CatchUp() {
    }

    /**
     * @return whether the group's committed offsets reached the target on every partition, or nothing but transaction
     *     markers and aborted records lies below the target (read_committed)
     */
    static boolean caughtUp(Topics topics, String group, String topic, Map<TopicPartition, Long> target) {
        Map<TopicPartition, Long> committed = topics.committed(group, topic);
        Map<TopicPartition, Long> from = new HashMap<>();
        target.keySet().forEach(tp -> from.put(tp, committed.getOrDefault(tp, 0L)));
        if (target.entrySet().stream().allMatch(t -> from.get(t.getKey()) >= t.getValue())) {
            return true;
        }
        return topics.recordsSince(topic, "read_committed", from).stream()
                .noneMatch(r -> r.offset() < target.getOrDefault(new TopicPartition(r.topic(), r.partition()), 0L));
    }

    /**
     * Waits until every group has caught up with the target.
     *
     * @param sink    the sink's name, for the message
     * @param timeout the longest wait
     * @throws SinkStoppedException if one has not within the timeout: the message names where each group stands
     */
    static void await(String sink, Topics topics, List<String> groups, String topic, Map<TopicPartition, Long> target,
                      Duration timeout, String whereItLogs) {
        try {
            org.awaitility.Awaitility.await(sink + " caught up with " + topic).atMost(timeout).pollInterval(Duration.ofMillis(250))
                    .until(() -> groups.stream().allMatch(g -> caughtUp(topics, g, topic, target)));
        } catch (ConditionTimeoutException e) {
            Map<String, Map<TopicPartition, Long>> committed = new LinkedHashMap<>();
            groups.forEach(g -> committed.put(g, topics.committed(g, topic)));
            throw new SinkStoppedException(sink + " did not catch up with " + topic + " within " + timeout.toSeconds()
                    + " s: committed " + committed + ", the run's target " + target + "; " + whereItLogs + ". The groups were "
                    + "then moved to the target, as an operator would, so that the next claims start past these records", e);
        }
    }

    /**
     * The contract's start (docs/sinks.md): each group without committed offsets on the topic, and every group of a run
     * from the start, gets the topic's earliest offsets, so that its committed offsets say how far the run got.
     *
     * @param groups    the groups the sink commits in ({@link SinkUnderTest#groups})
     * @param fromStart whether the run reads from the start whatever the groups committed
     */
    static void startGroups(Endpoints stand, List<String> groups, String topic, boolean fromStart) {
        for (String group : groups) {
            if (fromStart || stand.topics().committed(group, topic).isEmpty()) {
                startAtTheBeginning(stand, group, topic);
            }
        }
    }

    /** Commits the topic's earliest offsets for the group (which has no member: the sink is not running). */
    private static void startAtTheBeginning(Endpoints stand, String group, String topic) {
        Map<TopicPartition, OffsetSpec> earliest = new HashMap<>();
        stand.topics().endOffsets(topic).keySet().forEach(tp -> earliest.put(tp, OffsetSpec.earliest()));
        Map<TopicPartition, OffsetAndMetadata> start = new HashMap<>();
        try {
            stand.admin().listOffsets(earliest).all().get().forEach((tp, o) -> start.put(tp, new OffsetAndMetadata(o.offset())));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while reading " + topic + "'s earliest offsets", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("cannot read " + topic + "'s earliest offsets", e.getCause());
        }
        commit(stand, group, start, "to the topic's start");
    }

    /**
     * After a sink stopped on records it cannot read, moves the group's committed offsets to the run's target, as an
     * operator would ({@code kafka-consumer-groups --reset-offsets}), so that the claims after the one that found it are
     * judged on their own records, not stopped by the same ones. The claim that found it has failed with the evidence.
     */
    static void moveGroupPast(Endpoints stand, String group, Map<TopicPartition, Long> target) {
        Map<TopicPartition, OffsetAndMetadata> past = new HashMap<>();
        target.forEach((tp, offset) -> past.put(tp, new OffsetAndMetadata(offset)));
        commit(stand, group, past, "past the records its sink stopped on");
    }

    private static void commit(Endpoints stand, String group, Map<TopicPartition, OffsetAndMetadata> offsets, String what) {
        try {
            stand.admin().alterConsumerGroupOffsets(group, offsets).all().get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while moving " + group + " " + what, e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("cannot move " + group + " " + what + ": " + offsets, e.getCause());
        }
    }

    /** A sink stopped consuming before it caught up: it retries what it cannot write, or it died. */
    static final class SinkStoppedException extends IllegalStateException {
        SinkStoppedException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /**
     * Lets a sink run for a set time ({@code SinkOptions#withRunFor}), checking all along that it still runs.
     *
     * @param sink  the sink's name, for the message
     * @param alive whether the sink still runs (its container, or the server it runs in)
     * @throws org.awaitility.core.ConditionTimeoutException if it stopped running within the window
     */
    static void runFor(String sink, Duration duration, java.util.concurrent.Callable<Boolean> alive) {
        org.awaitility.Awaitility.await(sink + " runs for " + duration).during(duration).atMost(duration.plusSeconds(5))
                .pollInterval(Duration.ofMillis(500)).until(alive);
    }
}
