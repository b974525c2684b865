package dev.seams.consumer;

import java.util.concurrent.TimeoutException;
import org.apache.kafka.common.errors.RetriableException;

/**
 * The error classes of Kafka client calls that the sinks make outside the commit path: the poll
 * ({@link PollSession}) and the dead-letter write ({@code sink.DeadLetterWriter}). Kafka's own hierarchy
 * decides: a {@link RetriableException} anywhere in the cause chain (e.g. a timeout, a leader
 * change, a coordinator that is loading) or a {@link TimeoutException} of our wait is retriable;
 * anything else is permanent — for a poll, e.g. {@code TopicAuthorizationException},
 * {@code GroupAuthorizationException}, {@code NoOffsetForPartitionException} (invalid offset
 * configuration), {@code FencedInstanceIdException} (another process uses the same
 * {@code --instance-id}); for a dead letter, e.g. {@code RecordTooLargeException}.
 */
public final class KafkaErrors {

    private KafkaErrors() {
    }

    /**
     * @param failure what a Kafka client call threw
     * @return its class, named by the exception, e.g. {@code retriable: NotLeaderOrFollowerException}
     */
    public static Classification classify(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof RetriableException || t instanceof TimeoutException) {
                return Classification.retriable(t.getClass().getSimpleName());
            }
        }
        return Classification.permanent(failure.getClass().getSimpleName());
    }
}
