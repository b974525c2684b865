package dev.seams.cli.options;

import java.time.Duration;
import picocli.CommandLine.Option;

/**
 * The consumer group membership options every long-running command shares ({@code seams sink},
 * {@code seams inbox}, {@code seams streams}; claims B9, B12), as a picocli mixin.
 */
public final class Membership {

    @Option(names = "--instance-id", description = "static group membership (group.instance.id): a restarted process "
            + "takes its partitions back at once instead of waiting out the killed member's session")
    String instanceId;

    @Option(names = "--session-timeout", converter = HumanDuration.class,
            description = "consumer session timeout, e.g. 10s (Kafka's default 45s)")
    Duration sessionTimeout;

    /** Creates the mixin; picocli fills the options. */
    public Membership() {
    }

    /** @return {@code --instance-id}, or null when none was given (the command's default membership then applies) */
    public String instanceId() {
        return instanceId;
    }

    /** @return {@code --session-timeout}, or null for Kafka's default */
    public Duration sessionTimeout() {
        return sessionTimeout;
    }
}
