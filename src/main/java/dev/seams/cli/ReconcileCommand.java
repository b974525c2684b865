package dev.seams.cli;

import dev.seams.cli.options.HumanDuration;
import dev.seams.cli.options.KafkaConnection;
import dev.seams.cli.options.PgLogin;
import dev.seams.cli.options.Verbosity;
import dev.seams.kafka.KafkaClientConfig;
import dev.seams.reconcile.MissingOrders;
import dev.seams.reconcile.TopicImage;
import dev.seams.wire.TopicNames;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code seams reconcile}: after a lost replication slot and Debezium's re-snapshot, writes the deletes the
 * re-snapshot cannot carry ({@link MissingOrders}; claim B14 "slot dropped", docs/source.md "When the slot is lost").
 * Reads {@code --topic} read_committed up to its last stable offset, then every {@code order_id} of {@code --table} and
 * the source's WAL position, and writes one delete per order the topic still holds and PostgreSQL does not (idempotent
 * producer, acks=all). Prints {@code delete order_id=N partition=P} per delete, then
 * {@code reconcile: read=R live=L unreadable=U in-postgresql=P deletes=D written|not written (--dry-run)}, on stdout.
 *
 * <p>Run it once the connector streams from its new slot (any delete before that was never captured; any after it
 * is). Exit status: 0 reconciled (or nothing to reconcile); 2 an invalid command line; {@value ExitStatus#FATAL_KAFKA}
 * Kafka refused (authorization, unknown topic, a delete not acknowledged: run it again, a second delete changes
 * nothing); {@value ExitStatus#PG_REFUSED} PostgreSQL refused (nothing written); {@value ExitStatus#UNEXPECTED} an
 * unexpected error.
 */
@Command(name = "reconcile", mixinStandardHelpOptions = true, versionProvider = BuildVersion.class, sortOptions = false,
        description = {"After a lost replication slot and its re-snapshot: write the deletes the re-snapshot cannot "
                + "carry, for orders the topic still holds and PostgreSQL no longer does."},
        footer = {"", "Exit status: 0 reconciled; 2 usage error; 4 Kafka refused (run it again);",
            "7 PostgreSQL refused (nothing written); 70 unexpected error."})
public final class ReconcileCommand implements Callable<Integer> {

    @Mixin(name = Verbosity.MIXIN)
    Verbosity verbosity = new Verbosity();

    @Mixin
    KafkaConnection kafka = new KafkaConnection();

    @Option(names = "--topic", defaultValue = TopicNames.ORDERS_EVENTS, description = "the order events topic (default: ${DEFAULT-VALUE})")
    String topic;

    @Option(names = "--jdbc-url", required = true, description = "the source, e.g. jdbc:postgresql://localhost:5432/test")
    String jdbcUrl;

    @Mixin
    PgLogin login = new PgLogin();

    @Option(names = "--table", defaultValue = "public.orders", description = "the captured table (default: ${DEFAULT-VALUE})")
    String table;

    @Option(names = "--timeout", converter = HumanDuration.class, defaultValue = "5m",
            description = "how long reading the topic may take (default: ${DEFAULT-VALUE})")
    Duration timeout;

    @Option(names = "--dry-run", description = "print the deletes, write none (default: false)")
    boolean dryRun;

    /** The environment the password is read from; tests replace it. */
    Map<String, String> env = System.getenv();

    /**
     * @return the exit status (see the class comment)
     * @throws IllegalArgumentException if the table name is not a plain (schema-qualified) identifier, or the password
     *                                  options are invalid
     */
    @Override
    public Integer call() {
        if (!table.matches("[A-Za-z_][A-Za-z0-9_]*(\\.[A-Za-z_][A-Za-z0-9_]*)?")) {
            throw new IllegalArgumentException("--table must be a plain table name, optionally schema-qualified: " + table);
        }
        String secret = login.password(env);
        KafkaClientConfig clientConfig = kafka.clientConfig();
        try (Admin admin = Admin.create(clientConfig.applyTo(
                Map.<String, Object>of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers())))) {
            TopicImage image = TopicImage.read(admin, kafka.bootstrapServers(), clientConfig, topic, timeout);
            Set<Long> ids = new HashSet<>();
            long lsn;
            try (Connection pg = DriverManager.getConnection(jdbcUrl, login.user(), secret);
                 Statement st = pg.createStatement()) {
                try (ResultSet rs = st.executeQuery("SELECT order_id FROM " + table)) {
                    while (rs.next()) {
                        ids.add(rs.getLong(1));
                    }
                }
                try (ResultSet rs = st.executeQuery("SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::bigint")) {
                    rs.next();
                    lsn = rs.getLong(1);
                }
            } catch (SQLException e) {
                System.err.println("reconcile: PostgreSQL refused (SQLSTATE " + e.getSQLState() + "), nothing written: "
                        + e.getMessage());
                return ExitStatus.PG_REFUSED;
            }
            MissingOrders.Found found = MissingOrders.find(image, topic, ids, lsn, System.currentTimeMillis());
            for (ProducerRecord<byte[], byte[]> d : found.deletes()) {
                System.out.println("delete order_id=" + new String(d.key(), java.nio.charset.StandardCharsets.UTF_8)
                        + " partition=" + d.partition());
            }
            if (!dryRun) {
                write(found.deletes(), clientConfig);
            }
            System.out.println("reconcile: read=" + image.records() + " live=" + found.live() + " unreadable="
                    + found.unreadable() + " in-postgresql=" + ids.size() + " deletes=" + found.deletes().size()
                    + (dryRun ? " not written (--dry-run)" : " written"));
            return ExitStatus.OK;
        } catch (KafkaException e) {
            System.err.println("reconcile: Kafka refused: " + e);
            return ExitStatus.FATAL_KAFKA;
        }
    }

    /** Writes the deletes and waits for every acknowledgement. */
    private void write(List<ProducerRecord<byte[], byte[]>> deletes, KafkaClientConfig clientConfig) {
        if (deletes.isEmpty()) {
            return;
        }
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        props.put(ProducerConfig.CLIENT_ID_CONFIG, "seams-reconcile");
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(clientConfig.applyTo(props))) {
            List<Future<RecordMetadata>> acks = deletes.stream().map(producer::send).toList();
            for (Future<RecordMetadata> ack : acks) {
                ack.get();
            }
        } catch (ExecutionException e) {
            throw e.getCause() instanceof KafkaException k ? k : new KafkaException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KafkaException(e);
        }
    }
}
