package dev.seams.it;

import dev.seams.faults.FaultMatrix;
import dev.seams.faults.FaultSink;
import dev.seams.faults.SourceFailover;
import dev.seams.fixture.StandContext;
import dev.seams.report.Anomaly;
import dev.seams.report.Claim;
import dev.seams.report.ClaimEvidence;
import dev.seams.sinks.RunningSink;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Failover of the source (claim B18; PostgreSQL 17 failover slots): the stand's PostgreSQL gets a physical standby
 * that synchronises the shipped connector's slot ({@link SourceFailover}); under B5's load (its quick form: 2,000
 * changes with UPDATEs and DELETEs) the primary is killed with SIGKILL at 50 %, the standby promoted, Connect pointed
 * at it ({@code database.hostname}), the load goes on against it; then B5's reconciliations: every order once in
 * {@code order_dedup FINAL}, FINAL = the new primary per customer and per order, offsets never ahead of ClickHouse
 * ({@link FaultMatrix}); the new primary holds the connector's slot and not its twin, a slot created on the primary
 * without failover (negative control, {@code lost}). Figures: seconds from the kill to the promotion and to the first
 * event after it, whether the connector's task failed and was restarted. Below PostgreSQL 17 the entry is UNVERIFIED with that reason (the
 * offline-candidate profile runs PostgreSQL 17).
 *
 * <p>Runs last in its tier ({@link Order}): the stand's source stays the promoted standby.
 */
@ExtendWith(StandContext.Resolver.class)
@Order(Integer.MAX_VALUE)
class FailoverIT {

    @RegisterExtension
    final FaultSink sinks = new FaultSink();

    @Test
    @Claim(id = "B18", variant = "primary killed under load", title = "Failover of the source: the primary killed, the standby promoted",
            exercises = {"containers/debezium/orders-connector.json", "containers/postgres/standby/start-standby.sh",
                    "streams/TotalsTopology", "sink/DedupDemoMapper", "sink/TotalsMapper"})
    void primaryKilledUnderLoad(ClaimEvidence e, StandContext s) {
        int version = e.figure("server_version_num", SourceFailover.serverVersion(s.stand()));
        if (version < SourceFailover.FAILOVER_SLOTS_SINCE) {
            e.unverified("PostgreSQL " + version + " synchronises no logical slot to a standby (failover slots: 17 and newer); "
                    + "the offline-candidate profile runs PostgreSQL 17");
            return;
        }
        RunningSink sink = sinks.start(s.stand());
        try (SourceFailover failover = SourceFailover.prepare(s.stand())) {   // the last claim of the tier: nothing needs the source after it
            SourceFailover.Prepared prepared = failover.prepared();
            prepared.settings().forEach((name, value) -> e.figure("primary_" + name, value));
            e.figure("standby_replay_lag_bytes_before", prepared.standbyLagBytes());
            e.check("connector_slot_failover", prepared.slotFailover()).isEqualTo(true,
                    "the shipped connector created its slot with failover (slot.failover): only such a slot is synchronised");
            e.check("standby_slot_synced", prepared.synced()).isEqualTo(true, "the standby holds the connector's slot, synced");
            e.check("twin_slot_on_primary", failover.sourceHolds(SourceFailover.TWIN_SLOT)).isEqualTo(true,
                    "the twin slot, created without failover and advanced to the connector's position, is on the primary");
            e.check("twin_slot_on_standby", prepared.twinOnStandby()).isEqualTo(false,
                    "the standby synchronises failover slots only: it holds no copy of the twin");
            FaultMatrix.run(e, s, FaultMatrix.Plan.of(failover.name(), failover, 5801, sink).quick());
            e.check("connector_slot_on_new_primary", failover.sourceHolds(failover.slot())).isEqualTo(true,
                    "the promoted standby holds the connector's slot (synchronised while it was a standby)");
            e.negativeControl("slots_without_failover_lost", failover.sourceHolds(SourceFailover.TWIN_SLOT) ? 0 : 1, Anomaly.LOST,
                    "the twin slot " + SourceFailover.TWIN_SLOT + ", created on the primary without failover, is not on the new primary: "
                    + "a connector on it would find no slot to resume from (a new one starts at the current position, after the changes in between)");
            e.figure("connector_task_restarted_by_the_test", failover.taskRestarted());
        }
        e.note("The primary is configured as an operator must for the slot to survive: a physical slot for the standby, "
                + "synchronized_standby_slots (no logical walsender sends a change the standby has not flushed, so no event "
                + "of a transaction the failover loses reaches Kafka) and synchronous_standby_names (a commit returns only once "
                + "the standby holds it); the standby runs sync_replication_slots and hot_standby_feedback; the connector "
                + "reaches the source by name, and the name moves to the promoted standby (here the test sets the connector's "
                + "database.hostname to the standby's name). docs/source.md \"Failover of the source\".");
    }
}
