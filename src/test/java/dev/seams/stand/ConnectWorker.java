package dev.seams.stand;

import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.command.InspectContainerResponse;
import io.debezium.testing.testcontainers.DebeziumContainer;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.testcontainers.DockerClientFactory;

/**
 * The Kafka Connect worker as a fault target (claim B3): SIGKILL of its container (the worker JVM is
 * the container's PID 1, in the official image and the substitute alike), restart of the same
 * container (its REST port is bound to a fixed host port by {@link Stand}, so it survives), and
 * the REST calls the fault tests need.
 */
public final class ConnectWorker {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    /** How long one REST call waits for its answer. */
    private static final Duration CALL_TIMEOUT = Duration.ofSeconds(30);
    /** Connect's own bound on a request that writes its configuration topic (rest's request timeout, 90 s). */
    private static final Duration CONNECT_REQUEST_TIMEOUT = Duration.ofSeconds(90);

    private final DebeziumContainer container;
    private final String target;

    /** @param container the stand's Connect container */
    public ConnectWorker(DebeziumContainer container) {
        this.container = container;
        this.target = null;
    }

    private ConnectWorker(String target) {
        this.container = null;
        this.target = target;
    }

    /**
     * @param restUrl the REST endpoint of a worker the suite did not start ({@code http://host:8083}; an external stand)
     * @return a client of its REST API; the container's operations ({@link #restart}, {@link #isRunning}) throw
     */
    public static ConnectWorker at(String restUrl) {
        return new ConnectWorker(restUrl.replaceAll("/+$", ""));
    }

    /** Starts the same container again and waits until the connector's task runs. */
    public void restart(String connector) {
        docker().startContainerCmd(ownContainer().getContainerId()).exec();
        awaitTaskRunning(connector);
    }

    /** Waits (up to 3 min) until the connector's task 0 reports RUNNING. */
    public void awaitTaskRunning(String connector) {
        await("connector " + connector + " task RUNNING").atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(250))
                .ignoreExceptions()
                .until(() -> "RUNNING".equals(get("/connectors/" + connector + "/status").path("tasks").path(0).path("state").asText()));
    }

    /**
     * Registers a connector through the REST API.
     *
     * @throws IllegalStateException unless Connect answers 201
     */
    public void register(String name, Map<String, String> config) {
        send(HttpRequest.newBuilder(uri("/connectors")).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json(Map.of("name", name, "config", config)))), CALL_TIMEOUT, 201);
    }

    /**
     * Creates or reconfigures a connector ({@code PUT /connectors/NAME/config}: idempotent, so it can be sent again
     * when an answer was lost). A worker that is still joining its group, rebalancing or slow to write the
     * configuration topic (a three-broker cluster on 2 cores: more than the 10 s the Debezium module's client waits
     * for an answer) is asked again every 2 s, each call waiting up to Connect's own 90 s request timeout.
     *
     * @param within how long to keep asking
     * @throws org.awaitility.core.ConditionTimeoutException if Connect accepted no call within that time
     */
    public void putConfig(String name, Map<String, String> config, Duration within) {
        HttpRequest.Builder put = HttpRequest.newBuilder(uri("/connectors/" + name + "/config"))
                .header("Content-Type", "application/json").PUT(HttpRequest.BodyPublishers.ofString(json(config)));
        await("Connect accepts the configuration of " + name).atMost(within).pollDelay(Duration.ZERO)
                .pollInterval(Duration.ofSeconds(2)).ignoreExceptions()
                .until(() -> send(put, CONNECT_REQUEST_TIMEOUT, 200, 201) != null);
    }

    /**
     * Asks the worker's connector plugin which settings of a configuration it knows ({@code PUT
     * /connector-plugins/CLASS/config/validate}): its own, its transforms' and predicates' (Connect enriches the definition
     * with them).
     *
     * @param config a connector configuration (its {@code connector.class} chooses the plugin)
     * @return every setting name the answer defines
     * @throws IllegalStateException if Connect answers another status than 200 or no JSON
     */
    public java.util.Set<String> knownSettings(Map<String, String> config) {
        String plugin = config.getOrDefault("connector.class", "");
        String body = send(HttpRequest.newBuilder(uri("/connector-plugins/" + plugin.substring(plugin.lastIndexOf('.') + 1)
                        + "/config/validate")).header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(json(config))), CONNECT_REQUEST_TIMEOUT, 200);
        java.util.Set<String> known = new java.util.TreeSet<>();
        try {
            JSON.readTree(body).path("configs").forEach(c -> known.add(c.path("definition").path("name").asText()));
        } catch (IOException e) {
            throw new IllegalStateException("Connect answered no JSON to a validation: " + body, e);
        }
        return known;
    }

    /**
     * Stops a connector gracefully ({@code PUT /connectors/NAME/stop}, Kafka Connect 3.5+, KIP-875): its tasks shut
     * down as on a worker's orderly shutdown, its configuration and offsets stay.
     *
     * @throws IllegalStateException unless Connect answers 202 or 204
     */
    public void stop(String name) {
        send(HttpRequest.newBuilder(uri("/connectors/" + name + "/stop")).PUT(HttpRequest.BodyPublishers.noBody()), CALL_TIMEOUT, 202, 204);
    }

    /**
     * Resumes a stopped or paused connector ({@code PUT /connectors/NAME/resume}).
     *
     * @throws IllegalStateException unless Connect answers 202 or 204
     */
    public void resume(String name) {
        send(HttpRequest.newBuilder(uri("/connectors/" + name + "/resume")).PUT(HttpRequest.BodyPublishers.noBody()), CALL_TIMEOUT, 202, 204);
    }

    /**
     * Deletes a stopped connector's source offsets ({@code DELETE /connectors/NAME/offsets}, Kafka Connect 3.6+,
     * KIP-875): its next start behaves as its first (Debezium's {@code snapshot.mode=initial} snapshots again).
     *
     * @throws IllegalStateException unless Connect answers 200 (the connector must be STOPPED)
     */
    public void deleteOffsets(String name) {
        send(HttpRequest.newBuilder(uri("/connectors/" + name + "/offsets")).DELETE(), CONNECT_REQUEST_TIMEOUT, 200);
    }

    /**
     * Restarts a connector's failed instances ({@code POST /connectors/NAME/restart?includeTasks=true&onlyFailed=true}):
     * what an operator, or a supervisor's automatic restart, does with a FAILED task.
     *
     * @throws IllegalStateException unless Connect answers 202 or 204
     */
    public void restartFailed(String name) {
        send(HttpRequest.newBuilder(uri("/connectors/" + name + "/restart?includeTasks=true&onlyFailed=true"))
                .POST(HttpRequest.BodyPublishers.noBody()), CALL_TIMEOUT, 202, 204);
    }

    /**
     * A task's status as Connect reports it.
     *
     * @param state {@code RUNNING}, {@code FAILED}, {@code UNASSIGNED}, ...; {@code NONE} while the connector has no task
     * @param trace the failed task's stack trace, empty otherwise
     */
    public record TaskStatus(String state, String trace) {

        /** @return the innermost cause of the trace ({@code Caused by: ...}), else its first line; empty without one */
        public String reason() {
            List<String> causes = trace.lines().filter(l -> l.startsWith("Caused by: ")).toList();
            return causes.isEmpty() ? trace.lines().findFirst().orElse("") : causes.get(causes.size() - 1).substring(11);
        }

        /** @return {@link #reason()} cut to its first and last 100 characters where longer (Debezium prints whole offsets) */
        public String shortReason() {
            String reason = reason();
            return reason.length() <= 240 ? reason : reason.substring(0, 100) + " … " + reason.substring(reason.length() - 100);
        }
    }

    /** @return task 0's status */
    public TaskStatus taskStatus(String name) {
        JsonNode task = get("/connectors/" + name + "/status").path("tasks").path(0);
        return task.isMissingNode() ? new TaskStatus("NONE", "")
                : new TaskStatus(task.path("state").asText(), task.path("trace").asText(""));
    }

    /** @return the connector's own state ({@code RUNNING}, {@code PAUSED}, {@code STOPPED}, {@code FAILED}) */
    public String connectorState(String name) {
        return get("/connectors/" + name + "/status").path("connector").path("state").asText();
    }

    /** Deletes a connector (its offsets stay in Connect's topics). */
    public void delete(String name) {
        send(HttpRequest.newBuilder(uri("/connectors/" + name)).DELETE(), CALL_TIMEOUT, 204);
    }

    /** @return the JSON answer of a GET */
    public JsonNode get(String path) {
        try {
            return JSON.readTree(send(HttpRequest.newBuilder(uri(path)).GET(), CALL_TIMEOUT, 200));
        } catch (IOException e) {
            throw new IllegalStateException("Connect answered no JSON for " + path, e);
        }
    }

    /**
     * @param expected the statuses that count as success
     * @return the answer's body
     * @throws IllegalStateException if Connect answers another status, or the call fails or times out
     */
    private String send(HttpRequest.Builder request, Duration timeout, int... expected) {
        try {
            HttpResponse<String> response = HTTP.send(request.timeout(timeout).build(), HttpResponse.BodyHandlers.ofString());
            if (java.util.Arrays.stream(expected).noneMatch(status -> status == response.statusCode())) {
                throw new IllegalStateException("Connect answered " + response.statusCode() + ": " + response.body());
            }
            return response.body();
        } catch (IOException e) {
            throw new IllegalStateException("Connect REST call failed: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private URI uri(String path) {
        return URI.create((container != null ? container.getTarget() : target) + path);
    }

    private InspectContainerResponse inspect() {
        return docker().inspectContainerCmd(ownContainer().getContainerId()).exec();
    }

    private DebeziumContainer ownContainer() {
        if (container == null) {
            throw new IllegalStateException("the worker at " + target + " is not the stand's container: no process control");
        }
        return container;
    }

    private static DockerClient docker() {
        return DockerClientFactory.instance().client();
    }

    private static String json(Object value) {
        try {
            return JSON.writeValueAsString(value);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** @return whether the worker's container is running (false after {@link #kill()} until {@link #restart}) */
    public boolean isRunning() {
        return Boolean.TRUE.equals(inspect().getState().getRunning());
    }
}
