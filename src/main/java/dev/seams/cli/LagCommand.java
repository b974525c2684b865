package dev.seams.cli;

import dev.seams.cli.options.HumanDuration;
import dev.seams.cli.options.KafkaConnection;
import dev.seams.cli.options.Verbosity;
import dev.seams.kafka.KafkaClientConfig;
import dev.seams.lag.LagProbe;
import dev.seams.lag.PartitionLag;
import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code seams lag}: consumer groups' lag per partition ({@link LagProbe}, claim G12), in the columns of
 * {@code kafka-consumer-groups --describe} and their order, then the last stable offset, the lag against it and the
 * data records behind. The table goes to stdout. Exit status: 0, or {@value ExitStatus#LAG_ABOVE} when a group's lag
 * is above {@code --fail-above} (a CI threshold); {@value ExitStatus#FATAL_KAFKA} when Kafka refused the client (its
 * authentication or authorization, {@code --kafka-config}); {@value ExitStatus#UNAVAILABLE} when the cluster did not
 * answer within {@code --timeout} (one line naming it); {@value ExitStatus#UNEXPECTED} for an unexpected error;
 * {@value ExitStatus#USAGE} for an invalid command line.
 */
@Command(name = "lag", mixinStandardHelpOptions = true, versionProvider = BuildVersion.class, sortOptions = false,
        description = "Lag per partition of consumer groups (kafka-consumer-groups --describe's columns first), with the "
                + "last stable offset and the data records behind: a lag made only of transaction markers is marked.",
        footer = {"", "Exit status: 0 every group at or below --fail-above (or no threshold);",
            "2 usage error; 4 Kafka refused the client (authentication or authorization,", "--kafka-config);",
            "6 a group's lag above --fail-above;", "69 the cluster did not answer within --timeout;", "70 unexpected error."})
public final class LagCommand implements Callable<Integer> {

    @Mixin(name = Verbosity.MIXIN)
    Verbosity verbosity = new Verbosity();

    @Mixin
    KafkaConnection kafka = new KafkaConnection();

    @Option(names = "--group", defaultValue = "ds-streams,ds-sink", split = ",", description = "consumer groups (default: ${DEFAULT-VALUE})")
    String[] groups;

    @Option(names = "--fail-above", paramLabel = "N",
            description = "exit 6 when a group's lag (LAG summed over its partitions) is above N offsets (default: no threshold)")
    Long failAbove;

    @Option(names = "--max-read", paramLabel = "N", defaultValue = "10000",
            description = "count the data records behind only where the gap is at most N offsets; further behind shows - "
                    + "(default: ${DEFAULT-VALUE})")
    long maxRead;

    @Option(names = "--timeout", converter = HumanDuration.class, defaultValue = "5s", paramLabel = "DURATION",
            description = "how long each request may wait for the cluster before the command gives up with exit 69, e.g. "
                    + "5s, 1m; counting the data records behind may take 60 s (default: ${DEFAULT-VALUE})")
    Duration timeout;

    /** What lag sets on its clients itself: its figures depend on them ({@code --kafka-config} may not set them). */
    static final java.util.Set<String> OWNED = java.util.Set.of("isolation.level", "group.id", "enable.auto.commit",
            "key.deserializer", "value.deserializer");

    @Override
    public Integer call() {
        if (failAbove != null && failAbove < 0) {
            throw new IllegalArgumentException("--fail-above must not be negative, got " + failAbove);
        }
        int status = ExitStatus.OK;
        KafkaClientConfig clientConfig = kafka.clientConfig().refusing("lag", OWNED);
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("--timeout must be above 0, got " + timeout);
        }
        Map<String, Object> own = new java.util.HashMap<>(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()));
        int ms = (int) Math.min(Integer.MAX_VALUE, timeout.toMillis());
        for (String key : List.of(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG)) {
            if (!clientConfig.properties().containsKey(key)) {   // the file's own timeouts stand (docs/sink.md)
                own.put(key, ms);
            }
        }
        try (Admin admin = Admin.create(clientConfig.applyTo(own))) {
            LagProbe probe = new LagProbe(admin, kafka.bootstrapServers(), maxRead, clientConfig, timeout);
            for (String group : groups) {
                List<PartitionLag> lags = probe.describe(group);
                System.out.print(LagProbe.format(group, lags, probe.owners(group)));
                status = Math.max(status, judge(group, lags, failAbove, System.err));
            }
        } catch (LagProbe.UnansweredException unanswered) {
            System.err.println("seams lag: " + unanswered.getMessage());
            return ExitStatus.UNAVAILABLE;
        }
        return status;
    }

    /**
     * @param threshold the largest lag allowed, or null for none
     * @param err       where a group above it is named
     * @return {@value ExitStatus#LAG_ABOVE} if the group's lag is above the threshold, else {@value ExitStatus#OK}
     */
    static int judge(String group, List<PartitionLag> lags, Long threshold, PrintStream err) {
        long lag = lags.stream().mapToLong(PartitionLag::lag).sum();
        if (threshold == null || lag <= threshold) {
            return ExitStatus.OK;
        }
        err.println("group " + group + ": lag " + lag + " above --fail-above " + threshold);
        return ExitStatus.LAG_ABOVE;
    }
}
