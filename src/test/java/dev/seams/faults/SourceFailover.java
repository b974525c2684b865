package dev.seams.faults;

import static org.awaitility.Awaitility.await;

import dev.seams.project.Project;
import dev.seams.stand.ConnectWorker;
import dev.seams.stand.ContainerControl;
import dev.seams.stand.HostPorts;
import dev.seams.stand.JvmContainer;
import dev.seams.stand.Stand;
import dev.seams.truth.ReplicationSlots;
import dev.seams.truth.RunNames;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.utility.MountableFile;

/**
 * Failover of the source (claim B18; PostgreSQL 17 failover slots, docs/source.md "Failover of the source"): the
 * stand's PostgreSQL becomes a primary with one physical standby that synchronises the shipped connector's logical
 * slot, and the fault kills the primary with SIGKILL, promotes the standby and points Connect at it (the shipped
 * connector's configuration with the standby's name as {@code database.hostname}, as an operator or a DNS change does).
 *
 * <p>What {@link #prepare} configures on the primary is what an operator must configure for the slot to survive a
 * failover: a replication line in {@code pg_hba.conf}, a physical slot for the standby ({@value #STANDBY_SLOT}),
 * {@code synchronized_standby_slots} (no logical walsender sends a change the standby has not flushed, so no event of
 * a transaction the failover loses reaches Kafka) and {@code synchronous_standby_names} (a commit returns only once the
 * standby holds it, so no committed order is lost). The standby ({@code containers/postgres/standby/start-standby.sh})
 * runs {@code sync_replication_slots} and {@code hot_standby_feedback}; the connector's slot must have been created
 * with {@code failover} (the shipped {@code slot.failover}).
 *
 * <p>Once injected the stand's source stays the promoted standby: the fault is not undone (a failover is not), its
 * {@link #heal()} waits until the pipeline reads from the new primary. Whoever injects it runs last on its stand.
 */
public final class SourceFailover implements Fault, AutoCloseable {

    /** The physical slot the standby streams from, and its {@code application_name} (its synchronous standby name). */
    public static final String STANDBY_SLOT = "seams_standby";
    /**
     * The twin of the connector's slot: a logical slot {@link #prepare} creates on the primary without {@code failover},
     * so that no standby synchronises it — the negative control of the slot's survival.
     */
    public static final String TWIN_SLOT = "seams_twin_without_failover";
    /** The standby's name on the stand's network. */
    public static final String STANDBY_HOST = "postgres-standby";
    /** The server version from which PostgreSQL synchronises logical slots to a standby. */
    public static final int FAILOVER_SLOTS_SINCE = 170_000;
    private static final Duration WAIT = Duration.ofMinutes(3);
    private static final Logger LOG = LoggerFactory.getLogger(SourceFailover.class);

    private final Stand stand;
    private final String slot;
    private final GenericContainer<?> standby;
    private final ContainerControl primary;
    private volatile long killedAt;
    private volatile boolean taskRestarted;

    private SourceFailover(Stand stand, String slot, GenericContainer<?> standby) {
        this.stand = stand;
        this.slot = slot;
        this.standby = standby;
        this.primary = stand.control("postgres");
    }

    /**
     * What the primary and its standby showed once the standby synchronised the connector's slot.
     *
     * @param slotFailover      the connector's slot on the primary has {@code failover} set (the shipped {@code slot.failover})
     * @param synced            the standby holds the slot {@code synced} and no longer {@code temporary}: PostgreSQL 17
     *                          creates a synced slot temporary and makes it persistent only once the primary's slot
     *                          moved past the standby's start; a slot still temporary is dropped at promotion
     * @param twinOnStandby     the standby holds the twin ({@link #TWIN_SLOT}, no failover) too: it must not
     * @param standbyLagBytes   WAL the standby had not replayed then ({@code pg_wal_lsn_diff} on the primary)
     * @param settings          the primary's settings the failover depends on, by name
     */
    public record Prepared(boolean slotFailover, boolean synced, boolean twinOnStandby, long standbyLagBytes, Map<String, String> settings) {
    }

    /**
     * @param stand the stand, whose PostgreSQL must be 17 or newer ({@link #FAILOVER_SLOTS_SINCE})
     * @return the server version number of the stand's PostgreSQL ({@code server_version_num})
     * @throws IllegalStateException if PostgreSQL does not answer
     */
    public static int serverVersion(Stand stand) {
        try (Connection c = stand.pg(); Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SHOW server_version_num")) {
            rs.next();
            return Integer.parseInt(rs.getString(1));
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read PostgreSQL's version", e);
        }
    }

    /**
     * Makes the stand's PostgreSQL a primary with a standby that synchronises the shipped connector's slot, and waits
     * until the standby holds the slot.
     *
     * @param stand the stand (PostgreSQL 17 or newer)
     * @return the fault, and the standby running
     * @throws IllegalStateException if the primary refuses a setting or the standby does not start
     * @throws org.awaitility.core.ConditionTimeoutException if the standby does not synchronise the slot within 3 min
     */
    public static SourceFailover prepare(Stand stand) {
        ContainerControl primary = stand.control("postgres");
        String hba = single(stand, "SHOW hba_file");
        primary.exec("sh", "-c", "grep -q '^host replication all all' " + hba + " || echo 'host replication all all scram-sha-256' >> " + hba);
        execute(stand, "SELECT pg_create_physical_replication_slot('" + STANDBY_SLOT + "') WHERE NOT EXISTS "
                + "(SELECT 1 FROM pg_replication_slots WHERE slot_name = '" + STANDBY_SLOT + "')");
        execute(stand, "SELECT pg_create_logical_replication_slot('" + TWIN_SLOT + "', 'pgoutput', false, false, false) WHERE NOT EXISTS "
                + "(SELECT 1 FROM pg_replication_slots WHERE slot_name = '" + TWIN_SLOT + "')");   // temporary, two-phase, failover: no
        execute(stand, "ALTER SYSTEM SET synchronized_standby_slots = '" + STANDBY_SLOT + "'");
        execute(stand, "ALTER SYSTEM SET synchronous_standby_names = '" + STANDBY_SLOT + "'");
        execute(stand, "SELECT pg_reload_conf()");
        GenericContainer<?> standby = new GenericContainer<>(stand.image("postgres"))
                .withNetwork(stand.network()).withNetworkAliases(STANDBY_HOST)
                .withEnv("POSTGRES_USER", stand.pgUser()).withEnv("POSTGRES_PASSWORD", stand.pgPassword())
                .withEnv("POSTGRES_DB", stand.sourceDatabase()).withEnv("PRIMARY_HOST", "postgres")
                .withEnv("STANDBY_SLOT", STANDBY_SLOT)
                .withLabels(JvmContainer.labels())   // .ci/run removes it if a killed run leaves it behind
                .withCopyFileToContainer(MountableFile.forHostPath(Project.root().resolve("containers/postgres/standby/start-standby.sh"), 0755),
                        "/usr/local/bin/start-standby.sh")
                .withCreateContainerCmdModifier(cmd -> cmd.withEntrypoint("/usr/local/bin/start-standby.sh").withCmd())
                .withExposedPorts(5432)
                .withCreateContainerCmdModifier(HostPorts::listen)
                .waitingFor(Wait.forLogMessage(".*database system is ready to accept read.only connections.*", 1)
                        .withStartupTimeout(WAIT));
        SourceFailover failover = new SourceFailover(stand, stand.connectorConfig().get("slot.name"), standby);
        try {
            standby.start();
            await("the standby synchronised the connector's slot " + failover.slot).atMost(WAIT).pollInterval(Duration.ofMillis(500))
                    .ignoreExceptions().until(failover::standbySynced);
            // the twin at the connector's position, as a slot a consumer keeps up: it differs from the connector's only in
            // failover (a slot never advanced would stay behind the standby's start, and PostgreSQL 17 would not keep a
            // synced copy of it either)
            execute(stand, "SELECT pg_replication_slot_advance(t.slot_name, GREATEST(c.confirmed_flush_lsn, t.confirmed_flush_lsn)) "
                    + "FROM pg_replication_slots c, pg_replication_slots t WHERE c.slot_name = '" + failover.slot + "' "
                    + "AND t.slot_name = '" + TWIN_SLOT + "'");   // a slot never moves back
        } catch (RuntimeException e) {
            failover.undo();
            throw e;
        }
        return failover;
    }

    /**
     * Puts the primary back as the stand had it when the standby could not be made ready: the standby stopped, the
     * synchronous settings reset (else every commit waits for it) and both slots of the preparation dropped.
     */
    private void undo() {
        try {
            standby.stop();
            execute(stand, "ALTER SYSTEM RESET synchronous_standby_names");
            execute(stand, "ALTER SYSTEM RESET synchronized_standby_slots");
            execute(stand, "SELECT pg_reload_conf()");
            execute(stand, "SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE slot_name IN ('"
                    + STANDBY_SLOT + "', '" + TWIN_SLOT + "') AND NOT active");
        } catch (RuntimeException more) {
            LOG.warn("cannot put the primary back after a failed preparation: {}", more.toString());
        }
    }

    /** @return what the primary and the standby showed once the slot was synchronised */
    public Prepared prepared() {
        Map<String, String> settings = new LinkedHashMap<>();
        for (String name : new String[] {"server_version", "synchronized_standby_slots", "synchronous_standby_names", "wal_level"}) {
            settings.put(name, single(stand, "SHOW " + name));
        }
        boolean synced;
        boolean twin;
        try {
            synced = standbySynced();
            try (Connection c = standbyConnection(); Statement st = c.createStatement(); ResultSet rs = st.executeQuery(
                    "SELECT count(*) FROM pg_replication_slots WHERE slot_name = '" + TWIN_SLOT + "'")) {
                twin = rs.next() && rs.getLong(1) > 0;
            }
        } catch (SQLException e) {
            throw new IllegalStateException("the standby does not answer", e);
        }
        return new Prepared("t".equals(single(stand, "SELECT failover FROM pg_replication_slots WHERE slot_name = '" + slot + "'")),
                synced, twin, Long.parseLong(single(stand, "SELECT COALESCE(pg_wal_lsn_diff(pg_current_wal_lsn(), replay_lsn), -1) "
                + "FROM pg_stat_replication WHERE application_name = '" + STANDBY_SLOT + "'")), settings);
    }

    private boolean standbySynced() throws SQLException {
        try (Connection c = standbyConnection(); Statement st = c.createStatement(); ResultSet rs = st.executeQuery(
                "SELECT synced AND NOT temporary FROM pg_replication_slots WHERE slot_name = '" + slot + "'")) {
            return rs.next() && rs.getBoolean(1);
        }
    }

    private Connection standbyConnection() throws SQLException {
        return DriverManager.getConnection("jdbc:postgresql://" + standby.getHost() + ":" + standby.getMappedPort(5432) + "/"
                + stand.sourceDatabase(), stand.pgUser(), stand.pgPassword());
    }

    @Override
    public String name() {
        return "postgres-failover";
    }

    /**
     * SIGKILL of the primary, {@code pg_promote} of the standby, the stand's source moved to it and Connect pointed at it. Proof: the primary's exit code 137 and the standby out of recovery; figures: seconds to promote,
     * and, once measured, seconds from the kill to the first event in {@code orders.events} after it.
     */
    @Override
    public Proof inject() {
        Map<org.apache.kafka.common.TopicPartition, Long> eventsAtKill = stand.topics().endOffsets(RunNames.ORDERS_EVENTS);
        killedAt = System.nanoTime();
        int exit = primary.kill();
        boolean promoted;
        boolean inRecovery;
        try (Connection c = standbyConnection(); Statement st = c.createStatement()) {
            try (ResultSet rs = st.executeQuery("SELECT pg_promote(true, 60)")) {
                promoted = rs.next() && rs.getBoolean(1);
            }
            try (ResultSet rs = st.executeQuery("SELECT pg_is_in_recovery()")) {
                inRecovery = !rs.next() || rs.getBoolean(1);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot promote the standby", e);
        }
        double toPromote = seconds(killedAt);
        // the base backup copied the primary's ALTER SYSTEM settings: the new primary would wait for a synchronous
        // standby and a standby slot it does not have (every commit hangs), so they go, as a failover manager does
        try (Connection c = standbyConnection(); Statement st = c.createStatement()) {
            st.execute("ALTER SYSTEM RESET synchronous_standby_names");
            st.execute("ALTER SYSTEM RESET synchronized_standby_slots");
            st.execute("SELECT pg_reload_conf()");
        } catch (SQLException e) {
            throw new IllegalStateException("cannot reset the promoted standby's replication settings", e);
        }
        stand.failOverSource(standby.getHost(), standby.getMappedPort(5432));
        // Connect pointed at the new primary: the shipped connector with the standby's name as database.hostname (a
        // network alias moved by docker network disconnect/connect loses the container's published port here)
        Map<String, String> config = new LinkedHashMap<>(stand.connectorConfig());
        config.put("database.hostname", STANDBY_HOST);
        new ConnectWorker(stand.connect()).putConfig(RunNames.CONNECTOR, config, Duration.ofMinutes(1));
        long eventsBefore = eventsAtKill.values().stream().mapToLong(Long::longValue).sum();
        CompletableFuture<Double> firstEvent = CompletableFuture.supplyAsync(() -> {
            await("an event in orders.events after the failover").atMost(WAIT).pollInterval(Duration.ofMillis(200))
                    .until(() -> stand.topics().endOffsets(RunNames.ORDERS_EVENTS).values().stream().mapToLong(Long::longValue).sum() > eventsBefore);
            return seconds(killedAt);
        });
        String evidence = "primary exit code " + exit + "; standby " + (promoted && !inRecovery ? "promoted (pg_is_in_recovery false)"
                : "not promoted (pg_promote " + promoted + ", in recovery " + inRecovery + ")");
        return new Proof(exit == Sigkill.EXIT && promoted && !inRecovery, evidence)
                .with("seconds_from_kill_to_promoted", round(toPromote))
                .with("seconds_from_kill_to_first_event", firstEvent);
    }

    @Override
    public Duration hold() {
        return Duration.ZERO;
    }

    /**
     * Waits until the pipeline reads from the new primary: the shipped connector's task RUNNING (a task that failed on
     * the lost connection is restarted, as an operator would, and that is recorded: {@link #taskRestarted()}) and a
     * walsender streaming its slot on the new primary.
     *
     * @throws org.awaitility.core.ConditionTimeoutException if it does not within 3 min
     */
    @Override
    public void heal() {
        ConnectWorker connect = new ConnectWorker(stand.connect());
        ReplicationSlots slots = new ReplicationSlots(stand::pg);
        String[] seen = {"nothing yet"};
        try {
            await("the connector streams from the promoted standby").atMost(WAIT).pollInterval(Duration.ofMillis(500))
                    .until(() -> {
                        ConnectWorker.TaskStatus task;
                        try {
                            task = connect.taskStatus(RunNames.CONNECTOR);
                        } catch (RuntimeException e) {
                            seen[0] = "Connect's status: " + e;
                            return false;
                        }
                        boolean walsender;
                        try {
                            walsender = slots.walsender(slot).isPresent();
                        } catch (RuntimeException e) {
                            seen[0] = "task " + task.state() + ", the new primary: " + e + (e.getCause() == null ? "" : " / " + e.getCause());
                            return false;
                        }
                        seen[0] = "task " + task.state() + (task.trace() == null ? "" : " (" + task.shortReason() + ")")
                                + ", walsender on " + slot + ": " + walsender;
                        if ("FAILED".equals(task.state())) {
                            taskRestarted = true;
                            connect.restartFailed(RunNames.CONNECTOR);
                            return false;
                        }
                        return "RUNNING".equals(task.state()) && walsender;
                    });
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            String log = stand.connect().getLogs();
            String errors = log.lines().filter(l -> l.contains("ERROR") || l.contains("WARN")).reduce((a, b) -> b + "\n" + a)
                    .map(l -> l.lines().limit(15).reduce("", (a, b) -> a + "\n" + b)).orElse("");
            String trace;
            String offsets;
            String slotsNow;
            try {
                trace = connect.taskStatus(RunNames.CONNECTOR).trace();
                offsets = connect.get("/connectors/" + RunNames.CONNECTOR + "/offsets").toString();
                slotsNow = single(stand, "SELECT string_agg(slot_name || ' confirmed_flush_lsn=' || confirmed_flush_lsn || ' restart_lsn=' "
                        + "|| restart_lsn || ' synced=' || synced || ' failover=' || failover, '; ') FROM pg_replication_slots")
                        + "; current " + single(stand, "SELECT pg_current_wal_lsn()::text || ' timeline ' || timeline_id FROM pg_control_checkpoint()");
            } catch (RuntimeException more) {
                trace = offsets = slotsNow = "unread: " + more;
            }
            throw new IllegalStateException("the connector did not stream from the promoted standby within " + WAIT.toMinutes()
                    + " min; last seen: " + seen[0] + "; the connector's offsets: " + offsets + "; the new primary's slots: "
                    + slotsNow + "; the task's trace: " + trace + "; Connect's last warnings and errors:" + errors, e);
        }
    }

    /** @return the connector's slot ({@code slot.name} of the shipped configuration) */
    public String slot() {
        return slot;
    }

    /**
     * @param slotName a replication slot, e.g. {@link #slot()} or {@link #TWIN_SLOT}
     * @return whether the stand's source holds it: after {@link #inject()}, the promoted standby
     * @throws IllegalStateException if the source does not answer
     */
    public boolean sourceHolds(String slotName) {
        return !"0".equals(single(stand, "SELECT count(*) FROM pg_replication_slots WHERE slot_name = '" + slotName + "'"));
    }

    /** @return whether the connector's task failed on the failover and {@link #heal()} restarted it */
    public boolean taskRestarted() {
        return taskRestarted;
    }

    /** Stops the standby (the stand's source once promoted: only at the end of its stand's run). */
    @Override
    public void close() {
        standby.stop();
    }

    private static void execute(Stand stand, String sql) {
        try (Connection c = stand.pg(); Statement st = c.createStatement()) {
            st.execute(sql);
        } catch (SQLException e) {
            throw new IllegalStateException("PostgreSQL refused " + sql, e);
        }
    }

    private static String single(Stand stand, String sql) {
        try (Connection c = stand.pg(); Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            return rs.next() ? rs.getString(1) : null;
        } catch (SQLException e) {
            throw new IllegalStateException("PostgreSQL refused " + sql, e);
        }
    }

    private static double seconds(long since) {
        return (System.nanoTime() - since) / 1e9;
    }

    private static double round(double seconds) {
        return Math.round(seconds * 10) / 10.0;
    }
}
