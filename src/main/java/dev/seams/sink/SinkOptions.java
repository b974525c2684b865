package dev.seams.sink;

import java.time.Duration;
import java.util.Objects;
import java.util.function.Consumer;

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
 * @param customers        accepted customer ids ({@code --customers}, mode totals; G10)
 * @param dlqTopic         where rejected records go ({@code --dlq-topic}; default
 *                         {@code <mode topic>.dlq}, i.e. {@code customer.totals.dlq}; G11)
 * @param maxValueBytes    largest accepted record value in bytes, mode totals ({@code --max-value-bytes},
 *                         default {@value TotalsValidator#DEFAULT_MAX_VALUE_BYTES})
 * @param validate         TEST-ONLY: {@code false} turns the totals contract off so that a negative
 *                         control can show what an unvalidated consumer inserts (G11; see
 *                         {@link TotalsMapper}); the CLI has no flag for it; always {@code true} otherwise
 */
public record SinkOptions(String bootstrapServers, ClickHouseTarget clickhouse, SinkMode mode, String groupId,
                          boolean fromStart, boolean dup, Duration runFor, Duration untilIdle,
                          String isolation, CustomerRange customers, String dlqTopic, int maxValueBytes,
                          boolean validate) {

    /** The sink's consumer group (DESIGN.md names). */
    public static final String DEFAULT_GROUP = "ds-sink";

    /**
     * @throws IllegalArgumentException if neither or both of runFor/untilIdle are set, isolation is
     *                                  unknown, or maxValueBytes < 1
     * @throws NullPointerException     if a required setting is null
     */
    public SinkOptions {
        Objects.requireNonNull(bootstrapServers, "bootstrapServers");
        Objects.requireNonNull(clickhouse, "clickhouse");
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(groupId, "groupId");
        Objects.requireNonNull(customers, "customers");
        Objects.requireNonNull(dlqTopic, "dlqTopic");
        if ((runFor == null) == (untilIdle == null)) {
            throw new IllegalArgumentException("exactly one of --for and --until-idle must be given");
        }
        if (!"read_committed".equals(isolation) && !"read_uncommitted".equals(isolation)) {
            throw new IllegalArgumentException("isolation must be read_committed or read_uncommitted, got " + isolation);
        }
        if (maxValueBytes < 1) {
            throw new IllegalArgumentException("max value bytes must be >= 1, got " + maxValueBytes);
        }
    }

    /**
     * The settings without the DLQ-era ones: DLQ topic {@code <mode topic>.dlq}, value limit
     * {@value TotalsValidator#DEFAULT_MAX_VALUE_BYTES} bytes, validation on.
     *
     * @throws IllegalArgumentException as the canonical constructor
     */
    public SinkOptions(String bootstrapServers, ClickHouseTarget clickhouse, SinkMode mode, String groupId,
                       boolean fromStart, boolean dup, Duration runFor, Duration untilIdle,
                       String isolation, CustomerRange customers) {
        this(bootstrapServers, clickhouse, mode, groupId, fromStart, dup, runFor, untilIdle, isolation, customers,
                defaultDlqTopic(mode), TotalsValidator.DEFAULT_MAX_VALUE_BYTES, true);
    }

    /**
     * Defaults for tests and programmatic use: group ds-sink, read_committed, customers 1..5,
     * until idle for 5 s, not from start, no dup, DLQ {@code <mode topic>.dlq}, validation on.
     */
    public static SinkOptions defaults(String bootstrapServers, ClickHouseTarget clickhouse, SinkMode mode) {
        return new SinkOptions(bootstrapServers, clickhouse, mode, DEFAULT_GROUP, false, false, null,
                Duration.ofSeconds(5), "read_committed", new CustomerRange(1, 5));
    }

    /**
     * @param mode a sink mode
     * @return its default dead-letter topic, {@code <topic>.dlq} ({@code customer.totals.dlq} for totals)
     */
    public static String defaultDlqTopic(SinkMode mode) {
        return mode.topic() + ".dlq";
    }

    /** @return a copy reading from the earliest offsets (or not) */
    public SinkOptions withFromStart(boolean value) {
        return copy(b -> b.fromStart = value);
    }

    /** @return a copy that inserts every record twice (or not) */
    public SinkOptions withDup(boolean value) {
        return copy(b -> b.dup = value);
    }

    /** @return a copy with another isolation level */
    public SinkOptions withIsolation(String value) {
        return copy(b -> b.isolation = value);
    }

    /** @return a copy that stops after the given idle time */
    public SinkOptions withUntilIdle(Duration value) {
        return copy(b -> {
            b.runFor = null;
            b.untilIdle = value;
        });
    }

    /** @return a copy that stops after running this long, busy or not ({@code --for}) */
    public SinkOptions withRunFor(Duration value) {
        return copy(b -> {
            b.runFor = value;
            b.untilIdle = null;
        });
    }

    /** @return a copy accepting another customer range ({@code --customers}) */
    public SinkOptions withCustomers(CustomerRange value) {
        return copy(b -> b.customers = value);
    }

    /** @return a copy writing rejected records to another topic ({@code --dlq-topic}) */
    public SinkOptions withDlqTopic(String value) {
        return copy(b -> b.dlqTopic = value);
    }

    /**
     * TEST-ONLY: a copy with the totals contract on or off. Off reproduces the seed's unvalidated
     * consumer for a negative control (G11); it must never be used to run the pipeline.
     *
     * @return the copy
     */
    public SinkOptions withValidation(boolean value) {
        return copy(b -> b.validate = value);
    }

    private SinkOptions copy(Consumer<Copy> change) {
        Copy c = new Copy(this);
        change.accept(c);
        return new SinkOptions(c.bootstrapServers, c.clickhouse, c.mode, c.groupId, c.fromStart, c.dup, c.runFor,
                c.untilIdle, c.isolation, c.customers, c.dlqTopic, c.maxValueBytes, c.validate);
    }

    /** The components of one copy, changed by a {@code with…} method before the copy is validated. */
    private static final class Copy {
        final String bootstrapServers;
        final ClickHouseTarget clickhouse;
        final SinkMode mode;
        final String groupId;
        boolean fromStart;
        boolean dup;
        Duration runFor;
        Duration untilIdle;
        String isolation;
        CustomerRange customers;
        String dlqTopic;
        final int maxValueBytes;
        boolean validate;

        Copy(SinkOptions o) {
            bootstrapServers = o.bootstrapServers;
            clickhouse = o.clickhouse;
            mode = o.mode;
            groupId = o.groupId;
            fromStart = o.fromStart;
            dup = o.dup;
            runFor = o.runFor;
            untilIdle = o.untilIdle;
            isolation = o.isolation;
            customers = o.customers;
            dlqTopic = o.dlqTopic;
            maxValueBytes = o.maxValueBytes;
            validate = o.validate;
        }
    }
}
