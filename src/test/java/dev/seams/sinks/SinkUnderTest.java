package dev.seams.sinks;

import dev.seams.report.NotApplicableException;
import dev.seams.sink.SinkMode;
import dev.seams.sink.SinkOptions;
import dev.seams.sink.SinkSummary;
import dev.seams.truth.Endpoints;
import java.util.Set;

/**
 * The sink under test (docs/sinks.md): what every claim that concerns the sink talks to, never {@code dev.seams.sink}
 * directly. Chosen per run with {@code -D}{@value #PROPERTY} ({@link #configured()}): {@code ds-sink} (this project's
 * sink, the default), {@code kafka-engine} (ClickHouse's Kafka table engine with materialized views into the same
 * tables) or {@code image:<ref>} (a user's sink as a container image honouring the contract's environment). A run drains its topic into the stand's tables until it has caught up with the end offsets read at its
 * start (read_committed: the last stable offsets), judged from the consumer group's committed offsets, and then stops
 * gracefully. The options are ds-sink's ({@link SinkOptions}); a sink that cannot honour one the claim set throws
 * {@link NotApplicableException} naming the {@link SinkTrait} it lacks, and the claim is NOT_RUN with that reason.
 */
public interface SinkUnderTest {

    /** The system property that chooses the sink under test: {@code ds-sink} (default), {@code kafka-engine} or {@code image:<ref>}. */
    String PROPERTY = "seams.sink";

    /** @return its name as {@value #PROPERTY} spells it, and as the report's header names it */
    String name();

    /** @return what it has ({@link SinkTrait}) */
    Set<SinkTrait> traits();

    /**
     * Drains {@code options.source().topic()} into {@code options.clickhouse()}'s tables: from the group's committed
     * offsets (from the topic's start without any, or with {@link SinkOptions#fromStart()}) until caught up with the end
     * offsets read at its start, or for {@link SinkOptions#window()}'s {@code runFor}; then stops gracefully.
     *
     * @param stand   the running stand
     * @param options ds-sink's options for this run ({@code dev.seams.fixture.Pipeline#sinkOptions})
     * @return what the run did; a sink that does not count something reports 0 for it
     * @throws NotApplicableException if an option the run needs is one this sink cannot honour
     */
    SinkSummary drain(Endpoints stand, SinkOptions options);

    /**
     * Starts the sink for a fault run on the suite's own stand (claim B5): the shipped names (group {@code ds-sink},
     * topic {@code customer.totals}, the stand's tables), from its groups' committed offsets (from the topic's start
     * without any), running until {@link RunningSink#close()}.
     *
     * @param stand the suite's own stand
     * @return the running sink, its partitions assigned or its tables attached
     */
    RunningSink start(dev.seams.stand.Stand stand);

    /**
     * @param group the run's consumer group
     * @return every group the sink commits offsets in for a run in that group (ds-sink: that one)
     */
    default java.util.List<String> groups(String group) {
        return java.util.List.of(group);
    }

    /**
     * @param trait what the claim needs
     * @param why   what the claim needs it for, e.g. {@code G11 counts rejected records in the DLQ}
     * @throws NotApplicableException if this sink lacks it: the claim is NOT_RUN with the reason
     */
    default void require(SinkTrait trait, String why) {
        if (!traits().contains(trait)) {
            throw trait.missingFrom(name(), why);
        }
    }

    /**
     * For a claim that drives ds-sink's own code — its command line, its process in a container, its consumer's
     * membership, the isolation level its consumer logs — rather than asking the sink under test through this contract.
     *
     * @param why what the claim drives, e.g. {@code the claim kills ds-sink's process mid-insert}
     * @throws NotApplicableException under any other sink: the claim is NOT_RUN with the reason, never run against
     *                                ds-sink in its place
     */
    static void requireDsSink(String why) {
        SinkUnderTest sink = configured();
        if (!(sink instanceof DsSink)) {
            throw new NotApplicableException(sink.name() + ": the claim drives ds-sink's own code (" + why + "), not the "
                    + "sink under test through its contract (docs/sinks.md)");
        }
    }

    /**
     * @return the sink chosen with {@value #PROPERTY}
     * @throws IllegalArgumentException for a name that is none of them, listing them
     */
    static SinkUnderTest configured() {
        return named(System.getProperty(PROPERTY, DsSink.NAME));
    }

    /**
     * @param name {@code ds-sink}, {@code kafka-engine} or {@code image:<ref>}
     * @return that sink
     * @throws IllegalArgumentException for any other name, listing the known ones
     */
    static SinkUnderTest named(String name) {
        String n = name.isBlank() ? DsSink.NAME : name.strip();
        if (n.startsWith(ImageSink.PREFIX)) {
            return new ImageSink(n.substring(ImageSink.PREFIX.length()));
        }
        return switch (n) {
            case DsSink.NAME -> new DsSink();
            case KafkaEngineSink.NAME -> new KafkaEngineSink();
            default -> throw new IllegalArgumentException("unknown sink under test -D" + PROPERTY + "=" + name + ": one of "
                    + DsSink.NAME + ", " + KafkaEngineSink.NAME + ", " + ImageSink.PREFIX + "<image> (docs/sinks.md)");
        };
    }
}
