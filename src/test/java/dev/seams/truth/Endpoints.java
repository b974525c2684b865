package dev.seams.truth;

import dev.seams.kafka.KafkaClientConfig;
import dev.seams.sink.ClickHouseTarget;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.clients.admin.Admin;

/**
 * Where the pipeline's servers answer, as seen from this host: what the readers of {@code truth/}, the loads of
 * {@code load/} and the checks of {@code check/} need, and all they need — never the containers behind them. The
 * stand the suite starts is one ({@code stand.Stand}); a stand that already exists (a user's, issue "any sink, an
 * existing stand") is another, built from endpoints in a properties file.
 */
public interface Endpoints extends PgConnections {

    /**
     * @return a new connection to the source database; the caller closes it
     * @throws SQLException if PostgreSQL cannot be reached or refuses the login
     */
    Connection pg() throws SQLException;

    /** @return {@link #pg()}: the source database's connections ({@link PgConnections}) */
    @Override
    default Connection open() throws SQLException {
        return pg();
    }

    /**
     * @param database a database on the source's PostgreSQL server
     * @return its JDBC URL as seen from this host; log in with {@link #pgUser()} / {@link #pgPassword()}
     */
    String pgJdbcUrl(String database);

    /** @return the source database's name (the one {@link #pg()} connects to) */
    String sourceDatabase();

    /** @return the PostgreSQL user of {@link #pg()} and {@link #pgJdbcUrl(String)} */
    String pgUser();

    /** @return that user's password */
    String pgPassword();

    /** @return the brokers' bootstrap servers as seen from this host */
    String bootstrapServers();

    /**
     * @return the file of client properties every Kafka client of the run adds to its own settings (SASL/SSL; the
     *     {@code --kafka-config} of seams' commands), or empty for a PLAINTEXT listener (the suite's own stand)
     */
    default Optional<Path> kafkaClientProperties() {
        return Optional.empty();
    }

    /**
     * @return {@link #kafkaClientProperties()} read, {@link KafkaClientConfig#NONE} without a file
     * @throws IllegalArgumentException if the file cannot be read
     */
    default KafkaClientConfig kafkaClientConfig() {
        return KafkaClientConfig.load(kafkaClientProperties().orElse(null));
    }

    /**
     * @return the options that give a seams command (a child process or a command line run here) this cluster's
     *     client properties: {@code --kafka-config FILE}, or none
     */
    default List<String> kafkaConfigOption() {
        List<String> option = new ArrayList<>();
        kafkaClientProperties().ifPresent(file -> option.addAll(List.of("--kafka-config", file.toString())));
        return option;
    }

    /** @return a shared admin client of the cluster (do not close) */
    Admin admin();

    /** @return the replication factor of every topic created on the cluster (1 on one node, 3 on a cluster) */
    short replicationFactor();

    /** @return the ClickHouse server, database and credentials the sink writes */
    ClickHouseTarget clickhouseTarget();

    /** @return broker facts of the cluster ({@link Topics}) */
    default Topics topics() {
        return Topics.of(admin(), bootstrapServers(), kafkaClientConfig());
    }
}
