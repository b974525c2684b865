package dev.seams.faults;

import dev.seams.sink.SinkCrash;
import dev.seams.sinks.RunningSink;
import dev.seams.sinks.SinkUnderTest;
import dev.seams.stand.SinkContainer;
import dev.seams.stand.Stand;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The totals sink of a B5 fault test, started by the test and closed after it whatever happened: the sink under test
 * ({@link SinkUnderTest#start}: ds-sink as its own JVM in a container, an image's container, or the Kafka engine's
 * tables), or ds-sink armed with one of its test-only crash points. Register it on the test class:
 * {@code @RegisterExtension final FaultSink sinks = new FaultSink();}, then {@code sinks.start(stand)}.
 */
public final class FaultSink implements AfterEachCallback {

    private RunningSink sink;

    /**
     * Starts the sink under test for this test.
     *
     * @param stand the stand
     * @return the running sink
     */
    public RunningSink start(Stand stand) {
        sink = SinkUnderTest.configured().start(stand);
        return sink;
    }

    /**
     * Starts ds-sink with a test-only crash point, for a fault that kills it there.
     *
     * @param stand   the stand
     * @param crashAt where it stops once armed
     * @return the running sink
     * @throws dev.seams.report.NotApplicableException under another sink under test (the crash points are ds-sink's)
     */
    public SinkContainer startCrashing(Stand stand, SinkCrash.Point crashAt) {
        SinkContainer crashing = new SinkContainer(stand, crashAt);
        crashing.start();
        sink = crashing;
        return crashing;
    }

    @Override
    public void afterEach(ExtensionContext context) {
        if (sink != null) {
            sink.close();
            sink = null;
        }
    }
}
