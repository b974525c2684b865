package dev.seams.it;

import static dev.seams.it.KillRecovery.LOAD;
import static dev.seams.it.KillRecovery.MIN_SPEEDUP;
import static dev.seams.it.KillRecovery.SINK_INSTANCE_ID;
import static dev.seams.it.KillRecovery.STATIC_MAX_SECONDS;
import static dev.seams.it.KillRecovery.ratio;
import static dev.seams.it.KillRecovery.row;
import static org.awaitility.Awaitility.await;

import dev.seams.fixture.Pipeline;
import dev.seams.fixture.StandContext;
import dev.seams.it.KillRecovery.Recovery;
import dev.seams.report.Claim;
import dev.seams.report.ClaimEvidence;
import dev.seams.stand.StreamsProcess;
import dev.seams.streams.StaticIdentity;
import dev.seams.streams.StreamsSettings;
import dev.seams.truth.Groups;
import dev.seams.truth.RunNames;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Recovery after kill -9 in seconds, not a session timeout (claim B9). ds-streams and the sink (each its
 * own process) are killed with SIGKILL while ds-streams works through a load, and started again at once:
 * first both with dynamic membership, then both with static membership ({@code --instance-id}: the same
 * {@code group.instance.id} across the restart); the same load each time. Measured from the restart: when
 * each group's partitions are held by the new process again (the broker's view), when ds-streams' lag is 0,
 * when the sink's lag is 0, when {@code customer_totals FINAL} equals PostgreSQL (check/Reconciliation), and
 * the rebalances the broker completed for each group. A dynamic member's restart waits until the killed
 * member's session ({@code session.timeout.ms}, Kafka's default 45 s) has expired; a static member takes
 * the killed one's place at once. The stand runs ds-streams with static membership ({@link StreamsProcess}).
 * One kill per membership here ({@link KillRecovery}); three per membership in the fault tier ({@link RecoveryFaultIT}).
 *
 * <p>First in its tier ({@link Order}, report/ClaimClassOrder): after kill -9 under exactly-once ds-streams restores its
 * whole state from the changelogs, so the recovery grows with what the stand processed before (each kill's
 * {@code streams_records_restored}). Run first, its kills restore the stand's state and their own loads, the same in
 * every run, not whatever the class order put before them (docs/recovery.md; what that cost once: docs/findings.md).
 */
@ExtendWith(StandContext.Resolver.class)
@Order(1)
class RecoveryIT {

    private final KillRecovery kills = new KillRecovery();

    @AfterEach
    void standDefaults() {
        kills.restoreStand();
    }

    /**
     * @return the {@code group.instance.id} of each member of ds-streams' group ("null" for a dynamic member) once the
     *     group is stable with members, as the broker describes it; empty if it is not within 30 s
     */
    private static List<String> standMembership(StandContext s) {
        Groups groups = Groups.of(s.stand().admin());
        try {
            await("ds-streams' group stable with members").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200))
                    .until(() -> groups.look(Pipeline.STREAMS_GROUP).heldByNewMember(List.of()));
        } catch (ConditionTimeoutException notStable) {
            return List.of();
        }
        return groups.look(Pipeline.STREAMS_GROUP).members().stream().map(Groups.Member::instanceId).map(String::valueOf).toList();
    }

    @Test
    @Claim(id = "B9", title = "Recovery in seconds", exercises = {"streams/StreamsApp", "cli/StreamsCommand", "streams/StreamsSettings",
            "cli/options/Membership", "consumer/SinkConsumer", "cli/SinkCommand"})
    void b9RecoveryInSeconds(ClaimEvidence e, StandContext s) {
        KillRecovery.settleWithFinalEqualPg(s);
        // the stand's ds-streams as it runs: its membership read from the broker, not from the test's constant
        List<String> standInstanceIds = standMembership(s);
        Recovery dynamic = kills.recover(e.part("dynamic membership"), s, null, null);
        Recovery fixed = kills.recover(e.part("static membership"), s, StreamsProcess.STAND_INSTANCE_ID, SINK_INSTANCE_ID);

        e.table("Recovery after kill -9, seconds from the restart (the same " + LOAD + "-change load each time)",
                KillRecovery.COLUMNS,
                List.of(row("dynamic", dynamic), row("static (group.instance.id)", fixed)));
        e.check("static_seconds_to_streams_lag_0", fixed.streamsLag0()).isAtMost(STATIC_MAX_SECONDS,
                "static membership: ds-streams has processed the whole load within 10 s of its restart");
        e.check("static_seconds_to_sink_lag_0", fixed.sinkLag0()).isAtMost(STATIC_MAX_SECONDS,
                "static membership: the sink has written all of it within 10 s of its restart");
        e.check("static_seconds_to_final_equals_pg", fixed.finalEqualsPg()).isAtMost(STATIC_MAX_SECONDS,
                "static membership: customer_totals FINAL equals PG within 10 s of the restart");
        e.check("speedup_streams_lag_0", ratio(dynamic.streamsLag0(), fixed.streamsLag0())).isAtLeast(MIN_SPEEDUP,
                "dynamic / static seconds to ds-streams lag 0");
        e.check("speedup_sink_partitions_back", ratio(dynamic.sinkBack(), fixed.sinkBack())).isAtLeast(MIN_SPEEDUP,
                "dynamic / static seconds until the restarted sink holds its partitions again");
        e.check("speedup_final_equals_pg", ratio(dynamic.finalEqualsPg(), fixed.finalEqualsPg())).isAtLeast(MIN_SPEEDUP,
                "dynamic / static seconds to FINAL = PG");
        String faster = fixed.finalEqualsPg() < dynamic.finalEqualsPg() ? "static" : "dynamic";
        e.figure("stand_ds_streams_group_instance_ids", standInstanceIds.isEmpty() ? "no member" : String.join(", ", standInstanceIds));
        if (standInstanceIds.isEmpty()) {
            e.unverified("the stand's ds-streams group had no stable member to describe within 30 s: its membership is unknown");
        } else {
            String standMembership = standInstanceIds.stream().noneMatch("null"::equals) ? "static" : "dynamic";
            e.check("stand_membership_of_ds_streams", standMembership).isEqualTo(faster,
                    "the stand's running ds-streams has the membership that recovered faster: group.instance.id of its group's "
                            + "members as the broker describes them before the kills");
        }
        e.note("Dynamic membership: the restarted process joins as a new member, and the rebalance that gives it the "
                + "partitions completes only when the killed member's session (session.timeout.ms, Kafka's default 45 s) has "
                + "expired. Static membership: the restarted process presents the killed one's group.instance.id and takes its "
                + "place and its assignment. The trade-off: a static member that really died keeps its partitions, unprocessed, "
                + "until its session times out; a graceful stop that should hand them over must remove the member (the stand "
                + "does, docs/recovery.md). The 10 s bound is measured with ds-streams' JVM start cache (stand/JvmStartCache: an AppCDS "
                + "archive and RocksDB's native library unpacked once), as the stand deploys it; a plain java -cp start adds "
                + "seconds to seconds_to_streams_process_up.");
    }

    @Test
    @Claim(id = "B9", variant = "the product's default membership", title = "Recovery in seconds: ds-streams without membership options runs static",
            exercises = {"streams/StreamsApp", "cli/StreamsCommand", "streams/StaticIdentity", "cli/options/Membership"})
    void b9TheProductsDefaultIsStatic(ClaimEvidence e, StandContext s) throws IOException {
        // given: ds-streams as `seams streams` runs it with no membership option, on the stand's state directory
        StreamsProcess streams = s.stand().streams();
        streams.stop();
        streams.productDefaultMembership().start();
        Path idFile = StaticIdentity.file(streams.stateDir(), RunNames.STREAMS_GROUP);
        boolean made = Files.exists(idFile);
        String kept = made ? Files.readString(idFile).strip() : "(no " + idFile.getFileName() + ")";
        List<String> first = standMembership(s);
        // when: restarted the same way
        streams.stop();
        streams.start();
        List<String> again = standMembership(s);
        // then: static members, named by the id kept in the state directory, the same across the restart
        e.figure("id_kept_in_the_state_directory", kept);
        e.figure("group_instance_ids", String.join(", ", first));
        e.figure("group_instance_ids_after_a_restart", String.join(", ", again));
        e.check("static_id_kept_in_the_state_directory", made).isEqualTo(true,
                "ds-streams without membership options made its static id in <state-dir>/<application id>.instance-id");
        e.check("members", first.size()).isPositive("ds-streams' group has a stable member to describe");
        e.check("members_not_named_by_the_kept_id", first.stream().filter(id -> !id.startsWith(kept + "-")).count())
                .isZero("every member is static (group.instance.id <kept id>-<thread>): the faster membership is the default");
        e.check("same_members_after_a_restart", again.equals(first)).isEqualTo(true, "the id is kept across restarts");
    }
}
