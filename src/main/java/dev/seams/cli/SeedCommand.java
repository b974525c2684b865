package dev.seams.cli;

import dev.seams.seed.OrderSeeder;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code seams seed}: inserts deterministic orders into PostgreSQL ({@link OrderSeeder}). */
@Command(name = "seed", mixinStandardHelpOptions = true, description = "Insert deterministic orders into PostgreSQL.")
public final class SeedCommand implements Callable<Integer> {

    @Option(names = "--jdbc-url", required = true, description = "e.g. jdbc:postgresql://localhost:5432/test")
    String jdbcUrl;

    @Option(names = "--user", defaultValue = "test")
    String user;

    @Option(names = "--password", defaultValue = "test")
    String password;

    @Option(names = "--count", defaultValue = "51", description = "number of orders")
    int count;

    @Option(names = "--customers", defaultValue = "5", description = "customers 1..N")
    int customers;

    @Option(names = "--seed", defaultValue = "42", description = "random seed")
    long seed;

    @Override
    public Integer call() throws Exception {
        try (Connection connection = DriverManager.getConnection(jdbcUrl, user, password)) {
            int inserted = OrderSeeder.seed(connection, count, customers, seed).size();
            System.out.println("seed: inserted=" + inserted + " customers=1.." + customers + " seed=" + seed);
        }
        return 0;
    }
}
