package dev.seams.cli.options;

import dev.seams.kafka.KafkaClientConfig;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * Where and how every command that talks to Kafka connects ({@code seams streams}, {@code sink}, {@code inbox},
 * {@code lag}), as a picocli mixin: the bootstrap servers and {@code --kafka-config FILE}, the client properties of a
 * secured cluster ({@link KafkaClientConfig}; the {@code --command-config} habit of {@code kafka-consumer-groups}).
 */
public final class KafkaConnection {

    @Option(names = {"--bootstrap-servers", "--bootstrap-server"}, required = true,
            description = "Kafka bootstrap servers, host:port[,host:port...] (--bootstrap-server, the Kafka tools' spelling, too)")
    String bootstrapServers;

    @Option(names = "--kafka-config", paramLabel = "FILE", description = "Kafka client properties for every client of "
            + "the command (security.protocol, sasl.*, ssl.*, ...), as kafka-consumer-groups --command-config; the "
            + "command's own settings (group.id, isolation.level, ...) cannot be changed there (default: none)")
    Path kafkaConfig;

    /** Creates the mixin; picocli fills the options. */
    public KafkaConnection() {
    }

    /** @return {@code --bootstrap-servers} */
    public String bootstrapServers() {
        return bootstrapServers;
    }

    /**
     * @return the properties of {@code --kafka-config}, empty without it
     * @throws IllegalArgumentException if the file cannot be read (exit status 2 through the CLI)
     */
    public KafkaClientConfig clientConfig() {
        return KafkaClientConfig.load(kafkaConfig);
    }
}
