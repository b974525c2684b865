package dev.seams.stand;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.NewPartitions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.errors.TopicExistsException;

/**
 * Changes to the stand's topics an operator makes with {@code kafka-topics} (Admin API): more
 * partitions (claim B10) and a scratch topic for a twin's dead letters (B11).
 */
public final class TopicAdmin {

    private final Stand stand;

    private TopicAdmin(Stand stand) {
        this.stand = stand;
    }

    /** @return the admin of the stand's topics */
    public static TopicAdmin of(Stand stand) {
        return new TopicAdmin(stand);
    }

    /**
     * Gives the topic more partitions ({@code createPartitions}), like {@code kafka-topics --alter
     * --partitions}: existing records stay where they are; a producer sees the new partitions when it
     * next refreshes its metadata. Idempotent: a topic that already has {@code total} or more
     * partitions is left alone.
     *
     * @param total the partition count wanted
     * @return the partition count before the call
     * @throws IllegalStateException if the broker refuses
     */
    public int increasePartitions(String topic, int total) {
        int before = Topics.of(stand).partitionCount(topic);
        if (before < total) {
            try {
                stand.admin().createPartitions(Map.of(topic, NewPartitions.increaseTo(total))).all().get();
            } catch (InterruptedException | ExecutionException e) {
                throw new IllegalStateException("cannot give " + topic + " " + total + " partitions", e);
            }
        }
        return before;
    }

    /**
     * Creates a topic with the stand's replication factor ({@link Stand#replicationFactor()}) unless it exists (the sinks never create topics).
     *
     * @throws IllegalStateException if the broker refuses for another reason
     */
    public void ensureTopic(String topic, int partitions) {
        try {
            stand.admin().createTopics(List.of(new NewTopic(topic, partitions, stand.replicationFactor()))).all().get();
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof TopicExistsException)) {
                throw new IllegalStateException("cannot create " + topic, e);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
