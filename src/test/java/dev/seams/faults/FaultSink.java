package dev.seams.faults;

import dev.seams.sink.SinkCrash;
import dev.seams.stand.SinkContainer;
import dev.seams.stand.Stand;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The totals sink of a B5 fault test, as its own JVM in a container ({@link SinkContainer}), started
 * by the test and closed after it whatever happened. Register it on the test class:
 * {@code @RegisterExtension final FaultSink sink = new FaultSink();}, then {@code sink.start(stand, null)}.
 */
public final class FaultSink implements AfterEachCallback {

    private SinkContainer sink;

    /**
     * Starts the sink for this test.
     *
     * @param stand   the stand
     * @param crashAt the sink's test-only crash point, or null for none
     * @return the running sink
     */
    public SinkContainer start(Stand stand, SinkCrash.Point crashAt) {
        sink = new SinkContainer(stand, crashAt);
        sink.start();
        return sink;
    }

    @Override
    public void afterEach(ExtensionContext context) {
        if (sink != null) {
            sink.close();
            sink = null;
        }
    }
}
