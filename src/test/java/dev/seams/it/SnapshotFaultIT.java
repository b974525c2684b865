package dev.seams.it;

import dev.seams.faults.ContainerFaults;
import dev.seams.faults.Fault;
import dev.seams.faults.FaultMatrix;
import dev.seams.faults.FaultSink;
import dev.seams.faults.SnapshotFault;
import dev.seams.report.Claim;
import dev.seams.report.ClaimEvidence;
import dev.seams.stand.ConnectWorker;
import dev.seams.stand.ContainerControl;
import dev.seams.stand.Pg;
import dev.seams.stand.SinkContainer;
import dev.seams.stand.Stand;
import dev.seams.stand.StandContext;
import java.time.Duration;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Claim B17, the faults (issue 22; tier {@code faults}): PostgreSQL restarted (SIGINT, its fast shutdown, then
 * started again) and PostgreSQL cut off the stand's network for 30 s, each while Debezium's initial snapshot of
 * 50,000 orders is a third done ({@link SnapshotFault}: a second connector from the shipped configuration). After the
 * restart the snapshot begins again from its first row (Debezium keeps no position inside a snapshot); whether the
 * cut interrupts it is measured ({@code snapshot_rows_resent_after_fault}). Either way every order reaches {@code
 * order_dedup FINAL} once and {@code customer_totals FINAL} = PG. During streaming: PostgreSQL cut off for 30 s at
 * 10/50/90 % of B5's 20,000-change load ({@link FaultMatrix}: Debezium's replication connection and the load's own
 * connection hang, nothing is restarted by the test); PostgreSQL restarted during streaming is B5[postgres-restart]
 * ({@code it/SourceFaultIT}).
 *
 * <p>Runs next to last in its tier ({@link Order}): the 50,000 orders it seeds stay, so only the 100,000-order
 * transaction ({@code it/TransactionShapeFaultIT}) meets them.
 */
@ExtendWith(StandContext.Resolver.class)
@Order(Integer.MAX_VALUE - 1)
class SnapshotFaultIT {

    /** The claim's size: the snapshot reads the newest 50,000 orders of PG. */
    private static final int ORDERS = 50_000;
    private static final int CUSTOMERS = 50;
    /** At most 2,500 rows a second (batches of 250, 100 ms between): the fault lands after about 7 s, the snapshot takes 20 s. */
    private static final SnapshotFault.Pace PACE = new SnapshotFault.Pace(250, 100);
    private static final Duration CUT = Duration.ofSeconds(30);

    @RegisterExtension
    final FaultSink sinks = new FaultSink();

    @Test
    @Claim(id = "B17", variant = "postgres-restart during snapshot", title = "Restarts during the snapshot: PostgreSQL restarted",
            exercises = {"containers/debezium/orders-connector.json", "streams/TotalsTopology", "sink/DedupDemoMapper", "sink/TotalsMapper"})
    void postgresRestartDuringSnapshot(ClaimEvidence e, StandContext s) {
        Fault restart = ContainerFaults.restart("postgres-restart", s.stand().control("postgres"), "INT", serving(s));
        SnapshotFault.record(e, s, SnapshotFault.run(e, s, ORDERS, CUSTOMERS, PACE, restart), true);
    }

    @Test
    @Claim(id = "B17", variant = "network cut during snapshot", title = "Restarts during the snapshot: PostgreSQL cut off for 30 s",
            exercises = {"containers/debezium/orders-connector.json", "streams/TotalsTopology", "sink/DedupDemoMapper", "sink/TotalsMapper"})
    void networkCutDuringSnapshot(ClaimEvidence e, StandContext s) {
        ContainerControl postgres = s.stand().control("postgres");
        Fault cut = ContainerFaults.networkCut("postgres-network-cut", postgres, s.stand().network(), "postgres", CUT, serving(s));
        // the same address after the cut lets a TCP connection go on as if nothing happened; another one leaves it to time out
        e.figure("postgres_address_before_cut", postgres.address(s.stand().network()).orElse("none"));
        SnapshotFault.Run run = SnapshotFault.run(e, s, ORDERS, CUSTOMERS, PACE, cut);
        e.figure("postgres_address_after_cut", postgres.address(s.stand().network()).orElse("none"));
        SnapshotFault.record(e, s, run, false);
    }

    @Test
    @Claim(id = "B17", variant = "network cut during streaming", title = "Restarts during streaming: PostgreSQL cut off for 30 s",
            exercises = {"containers/debezium/orders-connector.json", "streams/TotalsTopology"})
    void networkCutDuringStreaming(ClaimEvidence e, StandContext s) {
        SinkContainer sink = sinks.start(s.stand(), null);
        ContainerControl postgres = s.stand().control("postgres");
        FaultMatrix.run(e, s, FaultMatrix.Plan.of("postgres-network-cut", ContainerFaults.networkCut("postgres-network-cut",
                postgres, s.stand().network(), "postgres", CUT, serving(s)), 5701, sink::output));
        e.figure("postgres_address_after_cuts", postgres.address(s.stand().network()).orElse("none"));
    }

    /** PostgreSQL answers and the shipped connector's task runs again. */
    private static BooleanSupplier serving(StandContext s) {
        Pg pg = s.pg();
        ConnectWorker connect = new ConnectWorker(s.stand().connect());
        return () -> pg.truth() != null && "RUNNING".equals(connect.taskStatus(Stand.CONNECTOR).state());
    }
}
