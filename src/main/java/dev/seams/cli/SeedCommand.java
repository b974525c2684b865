package dev.seams.cli;

import dev.seams.cli.options.PgLogin;
import dev.seams.cli.options.Verbosity;
import dev.seams.seed.OrderSeeder;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code seams seed}: inserts deterministic orders into PostgreSQL ({@link OrderSeeder}) in one transaction and prints
 * {@code seed: inserted=N customers=1..C seed=S} on stdout.
 *
 * <p>Exit status: 0 the orders committed; 2 an invalid command line (or an unreadable password file);
 * {@value ExitStatus#PG_REFUSED} PostgreSQL refused the connection or the insert (nothing committed, the reason on
 * stderr); {@value ExitStatus#UNEXPECTED} an unexpected error.
 */
@Command(name = "seed", mixinStandardHelpOptions = true, versionProvider = BuildVersion.class, sortOptions = false,
        description = "Insert deterministic orders into PostgreSQL, in one transaction.",
        footer = {"", "Exit status: 0 orders committed; 2 usage error;",
            "7 PostgreSQL refused (nothing committed); 70 unexpected error."})
public final class SeedCommand implements Callable<Integer> {

    @Mixin(name = Verbosity.MIXIN)
    Verbosity verbosity = new Verbosity();

    @Option(names = "--jdbc-url", required = true, description = "e.g. jdbc:postgresql://localhost:5432/test")
    String jdbcUrl;

    @Mixin
    PgLogin login = new PgLogin();

    @Option(names = "--count", defaultValue = "51", description = "number of orders (default: ${DEFAULT-VALUE})")
    int count;

    @Option(names = "--customers", defaultValue = "5", description = "customers 1..N (default: ${DEFAULT-VALUE})")
    int customers;

    @Option(names = "--seed", defaultValue = "42", description = "random seed (default: ${DEFAULT-VALUE})")
    long seed;

    /** The environment the password is read from; tests replace it. */
    Map<String, String> env = System.getenv();

    /**
     * @return the exit status (see the class comment)
     * @throws IllegalArgumentException if both a password and a password file are given, or the file cannot be read
     */
    @Override
    public Integer call() {
        String secret = login.password(env);
        try (Connection connection = DriverManager.getConnection(jdbcUrl, login.user(), secret)) {
            int inserted = OrderSeeder.seed(connection, count, customers, seed).size();
            System.out.println("seed: inserted=" + inserted + " customers=1.." + customers + " seed=" + seed);
            return ExitStatus.OK;
        } catch (SQLException e) {
            System.err.println("seed: PostgreSQL refused (SQLSTATE " + e.getSQLState() + "), nothing committed: "
                    + e.getMessage());
            return ExitStatus.PG_REFUSED;
        }
    }
}
