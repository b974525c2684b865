package dev.seams.faults;

import static org.awaitility.Awaitility.await;

import dev.seams.stand.ConnectWorker;
import java.time.Duration;
import org.awaitility.core.ConditionTimeoutException;

/**
 * The shipped connector stopped gracefully through Connect's REST API and resumed (claim B14 "graceful stop"):
 * {@code PUT /connectors/NAME/stop} shuts its task down in order — what an operator's stop, a rolling upgrade or a
 * reconfiguration does — and {@code PUT /connectors/NAME/resume} starts it again from its offsets. Proof: Connect
 * reports the connector {@code STOPPED} with no task left.
 */
public final class ConnectorStop implements Fault {

    private final ConnectWorker connect;
    private final String connector;

    /**
     * @param connect   the stand's Connect worker
     * @param connector the connector's name
     */
    public ConnectorStop(ConnectWorker connect, String connector) {
        this.connect = connect;
        this.connector = connector;
    }

    @Override
    public String name() {
        return "connector-graceful-stop";
    }

    @Override
    public Proof inject() {
        connect.stop(connector);
        try {
            await("connector " + connector + " STOPPED").atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofMillis(250))
                    .ignoreExceptions().until(() -> "STOPPED".equals(connect.connectorState(connector))
                            && connect.get("/connectors/" + connector + "/status").path("tasks").isEmpty());
            return Proof.of("Connect reports " + connector + " STOPPED, no task left");
        } catch (ConditionTimeoutException e) {
            return Proof.missing("Connect reports " + connector + " " + connect.get("/connectors/" + connector + "/status")
                    + ", not STOPPED without tasks");
        }
    }

    @Override
    public Duration hold() {
        return Duration.ZERO;   // the claim writes its orders while it is stopped, then heals
    }

    @Override
    public void heal() {
        connect.resume(connector);
        connect.awaitTaskRunning(connector);
    }
}
