package dev.seams.cli;

import dev.seams.cli.options.PgLogin;
import dev.seams.cli.options.Verbosity;
import dev.seams.slot.SlotHealth;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code seams slot}: the health of the connector's replication slot, for a monitor ({@link SlotHealth}; claim B14,
 * docs/source.md "Watching the slot"). Prints {@code slot NAME: ... verdict=HEALTHY|AT_RISK|LOST} on stdout. A connector
 * can report RUNNING while its slot is lost; this names it.
 *
 * <p>Exit status: 0 healthy; 2 an invalid command line; {@value ExitStatus#PG_REFUSED} PostgreSQL refused;
 * {@value ExitStatus#SLOT_LOST} the slot is lost (missing, or {@code wal_status} {@code lost}): recover with a
 * re-snapshot; {@value ExitStatus#SLOT_AT_RISK} the slot is at risk ({@code wal_status} {@code unreserved}, or more WAL
 * held back than {@code --max-retained-mib}); {@value ExitStatus#UNEXPECTED} an unexpected error.
 */
@Command(name = "slot", mixinStandardHelpOptions = true, versionProvider = BuildVersion.class, sortOptions = false,
        description = "Check the replication slot the connector reads from: lost, at risk or healthy.",
        footer = {"", "Exit status: 0 healthy; 2 usage error; 7 PostgreSQL refused;",
            "8 slot lost (missing, or wal_status lost: re-snapshot, docs/source.md);",
            "9 slot at risk; 70 unexpected error."})
public final class SlotCommand implements Callable<Integer> {

    @Mixin(name = Verbosity.MIXIN)
    Verbosity verbosity = new Verbosity();

    @Option(names = "--jdbc-url", required = true, description = "the source, e.g. jdbc:postgresql://localhost:5432/test")
    String jdbcUrl;

    @Mixin
    PgLogin login = new PgLogin();

    @Option(names = "--slot", defaultValue = "seams_orders", description = "the slot's name (default: ${DEFAULT-VALUE})")
    String slot;

    @Option(names = "--max-retained-mib", paramLabel = "MIB", description = "WAL the slot may hold back before it is at "
            + "risk, in MiB (default: no bound)")
    Long maxRetainedMib;

    /** The environment the password is read from; tests replace it. */
    Map<String, String> env = System.getenv();

    /**
     * @return the exit status (see the class comment)
     * @throws IllegalArgumentException if {@code --max-retained-mib} is negative or the password options are invalid
     */
    @Override
    public Integer call() {
        if (maxRetainedMib != null && maxRetainedMib < 0) {
            throw new IllegalArgumentException("--max-retained-mib must not be negative, got " + maxRetainedMib);
        }
        String secret = login.password(env);
        SlotHealth health;
        try (Connection pg = DriverManager.getConnection(jdbcUrl, login.user(), secret)) {
            health = SlotHealth.read(pg, slot);
        } catch (SQLException e) {
            System.err.println("slot: PostgreSQL refused (SQLSTATE " + e.getSQLState() + "): " + e.getMessage());
            return ExitStatus.PG_REFUSED;
        }
        SlotHealth.Verdict verdict = health.verdict(maxRetainedMib == null ? Long.MAX_VALUE : maxRetainedMib << 20);
        System.out.println(health + " verdict=" + verdict);
        return switch (verdict) {
            case HEALTHY -> ExitStatus.OK;
            case AT_RISK -> {
                System.err.println("slot: " + slot + " is at risk: PostgreSQL may invalidate it (max_slot_wal_keep_size), "
                        + "or it holds back more WAL than --max-retained-mib");
                yield ExitStatus.SLOT_AT_RISK;
            }
            case LOST -> {
                System.err.println("slot: " + slot + " is lost: the changes since its consumer's position are gone from "
                        + "the CDC stream; recover with a new slot and a re-snapshot (docs/source.md \"When the slot is lost\")");
                yield ExitStatus.SLOT_LOST;
            }
        };
    }
}
