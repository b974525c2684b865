package dev.seams.check;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;
import org.apache.kafka.clients.admin.ProducerState;
import org.apache.kafka.clients.admin.TransactionDescription;
import org.apache.kafka.clients.admin.TransactionState;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/** The rule of {@code kafka-transactions.sh find-hanging}, on what a cluster could answer. */
class HangingTransactionsTest {

    private static final long NOW = 1_000_000;
    private static final long OLDER_THAN = 60_000;
    private static final TopicPartition TOTALS_0 = new TopicPartition("customer.totals", 0);
    private static final TopicPartition TOTALS_1 = new TopicPartition("customer.totals", 1);

    private static ProducerState open(long producerId, int epoch, long startOffset, long lastWriteMs) {
        return new ProducerState(producerId, epoch, 10, lastWriteMs, OptionalInt.of(3), OptionalLong.of(startOffset));
    }

    private static TransactionDescription coordinator(TransactionState state, int epoch, Set<TopicPartition> partitions) {
        return new TransactionDescription(1, state, 0, epoch, 10_000, OptionalLong.empty(), partitions);
    }

    @Test
    void aTransactionTheCoordinatorNoLongerListsHangs() {
        // as measured on Kafka 4.3.1 after a broker kill: producer 0 epoch 253 open, the id CompleteCommit at epoch 745
        List<HangingTransactions.Hanging> found = HangingTransactions.classify(
                Map.of(TOTALS_0, List.of(open(0, 253, 4711, NOW - 300_000))), Map.of(0L, "ds-streams-0_1"),
                Map.of("ds-streams-0_1", coordinator(TransactionState.COMPLETE_COMMIT, 745, Set.of())), NOW, OLDER_THAN);
        assertThat(found).singleElement().satisfies(h -> {
            assertThat(h.partition()).isEqualTo(TOTALS_0);
            assertThat(h.startOffset()).isEqualTo(4711);
            assertThat(h.openMs()).isEqualTo(300_000);
            assertThat(h.coordinator()).contains("CompleteCommit").contains("745");
            assertThat(h.abortCommand("kafka:9092")).isEqualTo(
                    "kafka-transactions.sh --bootstrap-server kafka:9092 abort --topic customer.totals --partition 0 --start-offset 4711");
        });
    }

    @Test
    void aTransactionWhoseProducerHasNoTransactionalIdHangs() {
        assertThat(HangingTransactions.classify(Map.of(TOTALS_0, List.of(open(7, 1, 5, NOW - 120_000))), Map.of(), Map.of(),
                NOW, OLDER_THAN)).singleElement().satisfies(h -> assertThat(h.transactionalId()).isEqualTo("-"));
    }

    @Test
    void aTransactionStillListedByItsCoordinatorDoesNotHang() {
        assertThat(HangingTransactions.classify(Map.of(TOTALS_0, List.of(open(0, 9, 5, NOW - 120_000))), Map.of(0L, "t"),
                Map.of("t", coordinator(TransactionState.PREPARE_COMMIT, 9, Set.of(TOTALS_0))), NOW, OLDER_THAN)).isEmpty();
    }

    @Test
    void aYoungOrClosedTransactionIsNoCandidate() {
        ProducerState young = open(0, 9, 5, NOW - 1_000);
        ProducerState closed = new ProducerState(1, 2, 10, NOW - 600_000, OptionalInt.of(3), OptionalLong.empty());
        assertThat(HangingTransactions.classify(Map.of(TOTALS_0, List.of(young), TOTALS_1, List.of(closed)), Map.of(), Map.of(),
                NOW, OLDER_THAN)).isEmpty();
    }
}
