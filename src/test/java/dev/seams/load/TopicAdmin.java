package dev.seams.load;

import dev.seams.truth.Endpoints;
import dev.seams.truth.Futures;
import java.util.Map;
import org.apache.kafka.clients.admin.NewPartitions;
import org.apache.kafka.clients.admin.NewTopic;

/**
 * Changes to the stand's topics an operator makes with {@code kafka-topics} (Admin API): more
 * partitions (claim B10) and a scratch topic for a twin's dead letters (B11).
 */
public final class TopicAdmin {

    private final Endpoints stand;

    private TopicAdmin(Endpoints stand) {
        this.stand = stand;
    }

    /** @return the admin of the stand's topics */
    public static TopicAdmin of(Endpoints stand) {
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
        int before = stand.topics().partitionCount(topic);
        if (before < total) {
            Futures.get(stand.admin().createPartitions(Map.of(topic, NewPartitions.increaseTo(total))).all(),
                    "cannot give " + topic + " " + total + " partitions");
        }
        return before;
    }

    /**
     * Creates a topic with the stand's replication factor ({@link Endpoints#replicationFactor()}) unless it exists (the sinks never create topics).
     *
     * @throws IllegalStateException if the broker refuses for another reason
     */
    public void ensureTopic(String topic, int partitions) {
        stand.topics().create(new NewTopic(topic, partitions, stand.replicationFactor()), true);
    }
}
