package dev.seams.faults;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Which broker a cluster fault of claim B5 kills, and when what it held has moved, from Admin metadata alone. */
class BrokerTargetsTest {

    @Test
    void theNodeLeadingTheMostPartitionsIsKilled() {
        assertThat(BrokerTargets.busiest(Map.of(0, 2, 1, 3, 2, 3), Set.of())).contains(3);
        assertThat(BrokerTargets.busiest(Map.of(0, 2, 1, 3, 2, 1), Set.of())).as("a tie: the leader of the first partition").contains(2);
        assertThat(BrokerTargets.busiest(Map.of(0, -1, 1, 1), Set.of())).as("a partition with no leader counts for none").contains(1);
        assertThat(BrokerTargets.busiest(Map.<Integer, Integer>of(), Set.of())).isEmpty();
        assertThat(BrokerTargets.busiest(Map.of(0, -1), Set.of())).isEmpty();
    }

    @Test
    void theCoordinatorIsSparedWhereAnotherNodeLeadsAPartition() {
        assertThat(BrokerTargets.busiest(Map.of(0, 2, 1, 2, 2, 3), Set.of(2))).contains(3);
        assertThat(BrokerTargets.busiest(Map.of(0, 2, 1, 2), Set.of(2))).as("only the coordinator leads: it is killed").contains(2);
    }

    @Test
    void theCoordinatorOfTheMostTransactionalIdsIsKilled() {
        assertThat(BrokerTargets.busiest(Map.of("ds-streams-a-1", 1, "ds-streams-a-2", 3, "ds-streams-b-1", 3), Set.of())).contains(3);
        assertThat(BrokerTargets.busiest(Map.of("ds-streams-a-1", 2), Set.of())).contains(2);
    }

    @Test
    void whatTheKilledNodeHeldMustBeHeldByAnotherLiveNode() {
        Map<Integer, Integer> before = Map.of(0, 2, 1, 3, 2, 2);
        assertThat(BrokerTargets.moved(before, Map.of(0, 1, 1, 3, 2, 3), 2)).isTrue();
        assertThat(BrokerTargets.moved(before, Map.of(0, 1, 1, 3, 2, -1), 2)).as("partition 2 has no leader yet").isFalse();
        assertThat(BrokerTargets.moved(before, Map.of(0, 1, 1, 3, 2, 2), 2)).as("the metadata still names the dead node").isFalse();
        assertThat(BrokerTargets.moved(before, Map.of(0, 1, 1, 3), 2)).as("partition 2 not read").isFalse();
        assertThat(BrokerTargets.moved(before, before, 1)).as("node 1 held nothing: nothing proven").isFalse();
        assertThat(BrokerTargets.heldBy(before, 2)).containsExactly(0, 2);
    }
}
