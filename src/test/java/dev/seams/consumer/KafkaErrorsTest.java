package dev.seams.consumer;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.consumer.NoOffsetForPartitionException;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.CoordinatorNotAvailableException;
import org.apache.kafka.common.errors.FencedInstanceIdException;
import org.apache.kafka.common.errors.GroupAuthorizationException;
import org.apache.kafka.common.errors.NotLeaderOrFollowerException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.junit.jupiter.api.Test;

/** {@link KafkaErrors}: Kafka's own retriable hierarchy decides, anything else is permanent. */
class KafkaErrorsTest {

    @Test
    void kafkasRetriableExceptionsAreRetriable() {
        assertThat(KafkaErrors.classify(new NotLeaderOrFollowerException("moved"))).hasToString("retriable: NotLeaderOrFollowerException");
        assertThat(KafkaErrors.classify(new CoordinatorNotAvailableException("loading")))
                .hasToString("retriable: CoordinatorNotAvailableException");
        assertThat(KafkaErrors.classify(new ExecutionException(new NotLeaderOrFollowerException("moved"))).retriable()).isTrue();
    }

    @Test
    void ourWaitTimingOutIsRetriable() {
        assertThat(KafkaErrors.classify(new TimeoutException())).hasToString("retriable: TimeoutException");
    }

    @Test
    void authorizationInvalidOffsetsFencingAndOversizeArePermanent() {
        assertThat(KafkaErrors.classify(new TopicAuthorizationException("no"))).hasToString("permanent: TopicAuthorizationException");
        assertThat(KafkaErrors.classify(new GroupAuthorizationException("no"))).hasToString("permanent: GroupAuthorizationException");
        assertThat(KafkaErrors.classify(new NoOffsetForPartitionException(new TopicPartition("t", 0))))
                .hasToString("permanent: NoOffsetForPartitionException");
        assertThat(KafkaErrors.classify(new FencedInstanceIdException("fenced"))).hasToString("permanent: FencedInstanceIdException");
        assertThat(KafkaErrors.classify(new RecordTooLargeException("big"))).hasToString("permanent: RecordTooLargeException");
        assertThat(KafkaErrors.classify(new KafkaException("unknown"))).hasToString("permanent: KafkaException");
    }
}
