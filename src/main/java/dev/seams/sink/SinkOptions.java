package dev.seams.sink;

import java.time.Duration;
import java.util.Objects;

/**
 * One sink run's settings (the CLI's flags, DESIGN.md "The sink").
 *
 * @param bootstrapServers Kafka bootstrap servers, {@code host:port[,host:port]}
 * @param clickhouse       where to write
 * @param mode             what to read and write
 * @param groupId          consumer group, {@code ds-sink} by default
 * @param fromStart        start from the earliest offsets instead of the group's committed ones
 * @param dup              insert every record twice in the same batch (the source's {@code -dup})
 * @param runFor           stop after this long ({@code --for 15s}); null if {@link #untilIdle} is set
 * @param untilIdle        stop after this long with nothing to read ({@code --until-idle 5s})
 * @param isolation        {@code read_committed} (the EOS contract, G15) or {@code read_uncommitted}
 * @param customers        accepted customer ids
 */
public record SinkOptions(String bootstrapServers, ClickHouseTarget clickhouse, SinkMode mode, String groupId,
                          boolean fromStart, boolean dup, Duration runFor, Duration untilIdle,
                          String isolation, CustomerRange customers) {

    /** The sink's consumer group (DESIGN.md names). */
    public static final String DEFAULT_GROUP = "ds-sink";

    /** @throws IllegalArgumentException if neither or both of runFor/untilIdle are set, or isolation is unknown */
    public SinkOptions {
        Objects.requireNonNull(bootstrapServers, "bootstrapServers");
        Objects.requireNonNull(clickhouse, "clickhouse");
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(groupId, "groupId");
        Objects.requireNonNull(customers, "customers");
        if ((runFor == null) == (untilIdle == null)) {
            throw new IllegalArgumentException("exactly one of --for and --until-idle must be given");
        }
        if (!"read_committed".equals(isolation) && !"read_uncommitted".equals(isolation)) {
            throw new IllegalArgumentException("isolation must be read_committed or read_uncommitted, got " + isolation);
        }
    }

    /**
     * Defaults for tests and programmatic use: group ds-sink, read_committed, customers 1..5,
     * until idle for 5 s, not from start, no dup.
     */
    public static SinkOptions defaults(String bootstrapServers, ClickHouseTarget clickhouse, SinkMode mode) {
        return new SinkOptions(bootstrapServers, clickhouse, mode, DEFAULT_GROUP, false, false, null,
                Duration.ofSeconds(5), "read_committed", new CustomerRange(1, 5));
    }

    /** @return a copy reading from the earliest offsets (or not) */
    public SinkOptions withFromStart(boolean value) {
        return new SinkOptions(bootstrapServers, clickhouse, mode, groupId, value, dup, runFor, untilIdle, isolation, customers);
    }

    /** @return a copy that inserts every record twice (or not) */
    public SinkOptions withDup(boolean value) {
        return new SinkOptions(bootstrapServers, clickhouse, mode, groupId, fromStart, value, runFor, untilIdle, isolation, customers);
    }

    /** @return a copy with another isolation level */
    public SinkOptions withIsolation(String value) {
        return new SinkOptions(bootstrapServers, clickhouse, mode, groupId, fromStart, dup, runFor, untilIdle, value, customers);
    }

    /** @return a copy that stops after the given idle time */
    public SinkOptions withUntilIdle(Duration value) {
        return new SinkOptions(bootstrapServers, clickhouse, mode, groupId, fromStart, dup, null, value, isolation, customers);
    }
}
