package dev.seams.truth;

import dev.seams.wire.DeadLetters;
import dev.seams.wire.TopicNames;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.common.TopicPartition;

/**
 * One record a sink run rejected, read back from its dead-letter topic: where it came from and why
 * (the {@code dlq-origin-*} and {@code dlq-reason} headers, {@link DeadLetters}). A claim that reads
 * a topic from the start uses it to tell the rejections of its own records (at or after its marks)
 * from those of records other claims left in the topic, and to name the reasons in the report
 * (claims G9, B8).
 *
 * @param originTopic     the topic the rejected record was read from
 * @param originPartition its partition
 * @param originOffset    its offset
 * @param reason          the sink's reason
 */
public record Rejection(String originTopic, int originPartition, long originOffset, String reason) {

    /**
     * @param topics  the stand's topics
     * @param dlqTopic the dead-letter topic, e.g. {@link TopicNames#CUSTOMER_TOTALS_DLQ}
     * @param from    the dead-letter topic's end offsets taken before the sink run
     * @return the dead letters written since, in partition order
     */
    public static List<Rejection> since(Topics topics, String dlqTopic, Map<TopicPartition, Long> from) {
        List<Rejection> rejections = new ArrayList<>();
        topics.readFrom(dlqTopic, "read_committed", from, r -> {
            String partition = DeadLetters.text(r.headers(), DeadLetters.ORIGIN_PARTITION);
            String offset = DeadLetters.text(r.headers(), DeadLetters.ORIGIN_OFFSET);
            rejections.add(new Rejection(DeadLetters.text(r.headers(), DeadLetters.ORIGIN_TOPIC),
                    partition == null ? -1 : Integer.parseInt(partition), offset == null ? -1 : Long.parseLong(offset),
                    DeadLetters.text(r.headers(), DeadLetters.REASON)));
        });
        return rejections;
    }

    /**
     * @param marks the origin topic's end offsets taken before the claim wrote its records
     * @return whether the rejected record is one of those: at or after its partition's mark, or in a
     *     partition of the marked topic that did not exist when the marks were taken (the topic gained
     *     partitions since, B10: every record there is newer than the marks)
     */
    public boolean atOrAfter(Map<TopicPartition, Long> marks) {
        Long mark = marks.get(new TopicPartition(originTopic, originPartition));
        if (mark == null) {
            return marks.keySet().stream().anyMatch(tp -> tp.topic().equals(originTopic));
        }
        return originOffset >= mark;
    }

    /** @return reason → number of rejections, for the report */
    public static Map<String, Long> byReason(List<Rejection> rejections) {
        Map<String, Long> counts = new TreeMap<>();
        rejections.forEach(r -> counts.merge(String.valueOf(r.reason()), 1L, Long::sum));
        return counts;
    }
}
