package dev.seams.sinks;

import dev.seams.sink.Sink;
import dev.seams.sink.SinkOptions;
import dev.seams.sink.SinkSummary;
import dev.seams.truth.Endpoints;
import java.util.EnumSet;
import java.util.Set;

/**
 * This project's sink, {@code dev.seams.sink}, run in the test JVM with exactly the options given: every trait, the
 * default sink under test (docs/sinks.md).
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
}
