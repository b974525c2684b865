package dev.seams.truth;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.apache.kafka.common.GroupState;
import org.junit.jupiter.api.Test;

/** B9's readings of a group: rebalances from the coordinator's log lines, and whether a new process holds partitions. */
class GroupsTest {

    private static final String LOG = """
            [2026-11-30 01:37:17,920] INFO [GroupCoordinator id=1 topic=__consumer_offsets partition=0] Stabilized group ds-streams generation 3 with 1 members.
            [2026-11-30 01:37:18,827] INFO [GroupCoordinator id=1 topic=__consumer_offsets partition=0] Preparing to rebalance group ds-streams in state PreparingRebalance with old generation 3
            [2026-11-30 01:37:18,827] INFO [GroupCoordinator id=1 topic=__consumer_offsets partition=0] Stabilized group ds-streams generation 4 with 1 members.
            [2026-11-30 01:37:19,001] INFO [GroupCoordinator id=1 topic=__consumer_offsets partition=0] Stabilized group ds-sink generation 7 with 1 members.
            [2026-11-30 01:37:19,002] INFO [GroupCoordinator id=1 topic=__consumer_offsets partition=0] Stabilized group ds-sink-dedup-demo generation 2 with 1 members.
            """;

    @Test
    void countsEachGroupsCompletedRebalancesOnly() {
        assertThat(Groups.rebalances(LOG, "ds-streams")).isEqualTo(2);
        assertThat(Groups.rebalances(LOG, "ds-sink")).isEqualTo(1);
        assertThat(Groups.rebalances(LOG, "ds-inbox")).isZero();
    }

    @Test
    void readsTheReasonOfEachRebalanceTheCoordinatorStarted() {
        String log = """
                [2026-11-30 01:37:18,827] INFO [GroupCoordinator id=1 topic=__consumer_offsets partition=0] Preparing to rebalance group ds-streams in state PreparingRebalance with old generation 3 (reason: Adding new member ds-streams-1-abc with group instance id Optional[ds-streams-stand-1]; client reason: need to re-join with the given member-id: ds-streams-1-abc). (org.apache.kafka.coordinator.group.GroupMetadataManager)
                [2026-11-30 01:37:19,001] INFO [GroupCoordinator id=1 topic=__consumer_offsets partition=0] Preparing to rebalance group ds-sink in state Stable with old generation 7 (reason: removing member x on heartbeat expiration).
                [2026-11-30 01:37:20,001] INFO [GroupCoordinator id=1 topic=__consumer_offsets partition=0] Preparing to rebalance group ds-streams in state Stable with old generation 4 (__consumer_offsets-0) (reason: Updating metadata for static member ds-streams-stand-1 with instance id Optional[ds-streams-stand-1]).
                """;
        assertThat(Groups.rebalanceReasons(log, "ds-streams")).containsExactly(
                "generation 3: Adding new member ds-streams-1-abc with group instance id Optional[ds-streams-stand-1]; "
                        + "client reason: need to re-join with the given member-id: ds-streams-1-abc",
                "generation 4: Updating metadata for static member ds-streams-stand-1 with instance id Optional[ds-streams-stand-1]");
        assertThat(Groups.rebalanceReasons(log, "ds-sink")).containsExactly("generation 7: removing member x on heartbeat expiration");
        assertThat(Groups.rebalanceReasons(log, "ds-inbox")).isEmpty();
    }

    @Test
    void aRestartedProcessHoldsPartitionsOnlyOnceTheGroupIsStableWithANewMember() {
        List<String> killed = List.of("old");
        Groups.Look waiting = new Groups.Look(GroupState.PREPARING_REBALANCE,
                List.of(new Groups.Member("old", null, 3), new Groups.Member("new", null, 0)));
        Groups.Look stableOld = new Groups.Look(GroupState.STABLE, List.of(new Groups.Member("old", "ds-sink-b9", 3)));
        Groups.Look back = new Groups.Look(GroupState.STABLE, List.of(new Groups.Member("new", "ds-sink-b9", 3)));
        assertThat(waiting.heldByNewMember(killed)).isFalse();
        assertThat(stableOld.heldByNewMember(killed)).isFalse();
        assertThat(back.heldByNewMember(killed)).isTrue();
    }
}
