package dev.seams.it;

import dev.seams.faults.ContainerFaults;
import dev.seams.faults.Fault;
import dev.seams.faults.FaultMatrix;
import dev.seams.faults.FaultSink;
import dev.seams.faults.SnapshotFault;
import dev.seams.faults.WalsenderWatch;
import dev.seams.fixture.StandContext;
import dev.seams.report.Claim;
import dev.seams.report.ClaimEvidence;
import dev.seams.sinks.RunningSink;
import dev.seams.stand.ConnectWorker;
import dev.seams.stand.ContainerControl;
import dev.seams.truth.Pg;
import dev.seams.truth.ReplicationSlots;
import dev.seams.truth.RunNames;
import java.time.Duration;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Claim B17, the faults (issue 22; tier {@code faults}): PostgreSQL restarted (SIGINT, its fast shutdown, then
 * started again) and PostgreSQL cut off the stand's network for 30 s, each while Debezium's initial snapshot of
 * 50,000 orders is a third done ({@link SnapshotFault}: a second connector from the shipped configuration, which
 * differs from it only in its names and the snapshot's row filter, each difference in {@code connector_overrides}).
 * After the restart the snapshot must begin again (Debezium keeps no position inside a snapshot: the negative control counts
 * the rows it read twice); whether the cut interrupts it is measured. Either way every order reaches {@code
 * order_dedup FINAL} once and {@code customer_totals FINAL} = PG. During streaming: in the middle of a load, every packet between Connect and PostgreSQL dropped for 30 s while the load goes on writing
 * ({@link ContainerFaults#partition}; {@link FaultMatrix.Plan#quick()}: one injection, at 50 %). The WAL written while
 * the two were apart and what of it the walsender had not sent before the heal are figures, and with none waiting the
 * point is UNVERIFIED ({@link WalsenderWatch}); so are the connector's walsender before and after (after a 30 s cut
 * TCP's retransmission back-off may keep the connection silent long enough for PostgreSQL's wal_sender_timeout to end
 * the walsender, and the task then opens a new one). PostgreSQL restarted during streaming is B5[postgres-restart]
 * ({@code it/SourceFaultIT}).
 *
 * <p>Runs next to last in its tier ({@link Order}): the 50,000 orders it seeds stay, so only the 100,000-order
 * transaction ({@code it/TransactionShapeFaultIT}) meets them. The streaming cut runs first in the class
 * ({@link TestMethodOrder}): its reconciliation compares every order of PG with {@code order_dedup FINAL}, which the
 * snapshot faults leave holding their snapshot's orders only.
 */
@ExtendWith(StandContext.Resolver.class)
@Order(Integer.MAX_VALUE - 1)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SnapshotFaultIT {

    /** The claim's size: the snapshot reads the newest 50,000 orders of PG. */
    private static final int ORDERS = 50_000;
    private static final int CUSTOMERS = 50;
    private static final Duration CUT = Duration.ofSeconds(30);

    @RegisterExtension
    final FaultSink sinks = new FaultSink();

    @Test
    @Order(2)
    @Claim(id = "B17", variant = "postgres-restart during snapshot", title = "Restarts during the snapshot: PostgreSQL restarted",
            exercises = {"containers/debezium/orders-connector.json", "streams/TotalsTopology", "sink/DedupDemoMapper", "sink/TotalsMapper"})
    void postgresRestartDuringSnapshot(ClaimEvidence e, StandContext s) {
        Fault restart = ContainerFaults.restart("postgres-restart", s.stand().control("postgres"), "INT", serving(s));
        SnapshotFault.record(e, s, SnapshotFault.run(e, s, ORDERS, CUSTOMERS, restart), true);
    }

    @Test
    @Order(3)
    @Claim(id = "B17", variant = "network cut during snapshot", title = "Restarts during the snapshot: PostgreSQL cut off for 30 s",
            exercises = {"containers/debezium/orders-connector.json", "streams/TotalsTopology", "sink/DedupDemoMapper", "sink/TotalsMapper"})
    void networkCutDuringSnapshot(ClaimEvidence e, StandContext s) {
        ContainerControl postgres = s.stand().control("postgres");
        Fault cut = ContainerFaults.networkCut("postgres-network-cut", postgres, s.stand().network(), "postgres", CUT, serving(s));
        // the same address after the cut lets a TCP connection go on as if nothing happened; another one leaves it to time out
        e.figure("postgres_address_before_cut", postgres.address(s.stand().network()).orElse("none"));
        SnapshotFault.Run run = SnapshotFault.run(e, s, ORDERS, CUSTOMERS, cut);
        e.figure("postgres_address_after_cut", postgres.address(s.stand().network()).orElse("none"));
        SnapshotFault.record(e, s, run, false);
    }

    @Test
    @Order(1)
    @Claim(id = "B17", variant = "network cut during streaming", title = "Restarts during streaming: Connect and PostgreSQL cut apart for 30 s",
            exercises = {"containers/debezium/orders-connector.json", "streams/TotalsTopology"})
    void networkCutDuringStreaming(ClaimEvidence e, StandContext s) {
        RunningSink sink = sinks.start(s.stand());
        Fault cut = ContainerFaults.partition("postgres-network-cut", s.stand().control("postgres"), "postgres",
                s.stand().control("connect"), "connect", s.stand().network(), CUT, serving(s));
        FaultMatrix.run(e, s, FaultMatrix.Plan.of("postgres-network-cut", new WalsenderWatch(cut,
                new ReplicationSlots(s.stand()::pg), s.stand().connectorConfig().get("slot.name")), 5701, sink).quick());
    }

    /**
     * PostgreSQL answers, the shipped connector's task runs and a walsender streams from its slot again (a task that
     * retries a lost connection stays RUNNING: the slot's walsender is what shows it reconnected).
     */
    private static BooleanSupplier serving(StandContext s) {
        Pg pg = s.pg();
        ConnectWorker connect = new ConnectWorker(s.stand().connect());
        ReplicationSlots slots = new ReplicationSlots(s.stand()::pg);
        String slot = s.stand().connectorConfig().get("slot.name");
        return () -> pg.truth() != null && "RUNNING".equals(connect.taskStatus(RunNames.CONNECTOR).state())
                && slots.walsender(slot).isPresent();
    }
}
