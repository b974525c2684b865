package dev.seams.cli;

import dev.seams.lag.LagProbe;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code seams lag}: a consumer group's lag per partition ({@link LagProbe}, claim G12). */
@Command(name = "lag", mixinStandardHelpOptions = true,
        description = "Lag per partition of consumer groups, with the last stable offset and control-marker check.")
public final class LagCommand implements Callable<Integer> {

    @Option(names = "--bootstrap-servers", required = true, description = "Kafka bootstrap servers")
    String bootstrapServers;

    @Option(names = "--group", defaultValue = "ds-streams,ds-sink", split = ",", description = "consumer groups")
    String[] groups;

    @Override
    public Integer call() {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers))) {
            LagProbe probe = new LagProbe(admin, bootstrapServers);
            for (String group : groups) {
                System.out.print(LagProbe.format(probe.describe(group)));
            }
        }
        return 0;
    }
}
