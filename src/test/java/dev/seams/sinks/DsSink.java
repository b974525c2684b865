package dev.seams.sinks;

import dev.seams.sink.Sink;
import dev.seams.sink.SinkOptions;
import dev.seams.sink.SinkSummary;
import dev.seams.stand.SinkContainer;
import dev.seams.stand.Stand;
import dev.seams.truth.Endpoints;
import java.util.EnumSet;
import java.util.Set;

/**
 * This project's sink, {@code dev.seams.sink}, run in the test JVM with exactly the options given: every trait, the
 * default sink under test (docs/sinks.md). A fault run's sink is its command line in a container of its own
 * ({@link SinkContainer}).
 */
public final class DsSink implements SinkUnderTest {

    /** Its name for {@code -Dseams.sink}. */
    public static final String NAME = "ds-sink";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Set<SinkTrait> traits() {
        return EnumSet.allOf(SinkTrait.class);
    }

    @Override
    public SinkSummary drain(Endpoints stand, SinkOptions options) {
        return new Sink(options).run();
    }

    /** @return ds-sink's command line as its own JVM in a container ({@link SinkContainer}), its partitions held */
    @Override
    public RunningSink start(Stand stand) {
        SinkContainer sink = new SinkContainer(stand, null);
        sink.start();
        return sink;
    }
}
