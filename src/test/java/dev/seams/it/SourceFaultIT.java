package dev.seams.it;

import dev.seams.faults.ContainerFaults;
import dev.seams.faults.FaultMatrix;
import dev.seams.faults.FaultSink;
import dev.seams.fixture.StandContext;
import dev.seams.report.Claim;
import dev.seams.report.ClaimEvidence;
import dev.seams.sinks.RunningSink;
import dev.seams.stand.ConnectWorker;
import dev.seams.truth.Pg;
import dev.seams.truth.RunNames;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Claim B5, the source side (issue 12, faults 5 and 6; tier {@code faults}), at 10/50/90 % of a
 * 20,000-change load: PostgreSQL restarted (SIGINT, its fast shutdown, then started again: the load's
 * open transaction is rolled back and applied again, Debezium reconnects and resumes from its slot),
 * and the Kafka Connect worker restarted gracefully ({@code docker stop}, SIGTERM: the worker commits
 * its source offsets and stops its task; then started again). The kill -9 of the worker is B3's
 * ({@code it/ConnectFaultIT}). Proof: the container stopped (exit code 0 for PostgreSQL) and came back.
 * The changes Debezium re-sent are counted; FINAL = PG per customer and per order.
 */
@ExtendWith(StandContext.Resolver.class)
class SourceFaultIT {

    @RegisterExtension
    final FaultSink sinks = new FaultSink();

    @Test
    @Claim(id = "B5", variant = "postgres-restart", title = "Faults lose nothing: PostgreSQL restarted",
            exercises = {"containers/debezium/orders-connector.json", "streams/TotalsTopology"})
    void postgresRestart(ClaimEvidence e, StandContext s) {
        RunningSink sink = sinks.start(s.stand());
        Pg pg = s.pg();
        ConnectWorker connect = new ConnectWorker(s.stand().connect());
        FaultMatrix.run(e, s, FaultMatrix.Plan.of("postgres-restart", ContainerFaults.restart("postgres-restart",
                s.stand().control("postgres"), "INT", () -> pg.truth() != null && taskRunning(connect)), 5501, sink));
    }

    @Test
    @Claim(id = "B5", variant = "connect-restart", title = "Faults lose nothing: Kafka Connect restarted gracefully",
            exercises = {"containers/debezium/orders-connector.json", "streams/TotalsTopology"})
    void connectRestart(ClaimEvidence e, StandContext s) {
        RunningSink sink = sinks.start(s.stand());
        ConnectWorker connect = new ConnectWorker(s.stand().connect());
        FaultMatrix.run(e, s, FaultMatrix.Plan.of("connect-restart", ContainerFaults.stop("connect-restart",
                s.stand().control("connect"), Duration.ZERO, () -> taskRunning(connect)), 5601, sink));
    }

    private static boolean taskRunning(ConnectWorker connect) {
        return "RUNNING".equals(connect.get("/connectors/" + RunNames.CONNECTOR + "/status").path("tasks").path(0).path("state").asText());
    }
}
