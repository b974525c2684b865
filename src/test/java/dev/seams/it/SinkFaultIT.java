package dev.seams.it;

import dev.seams.faults.FaultMatrix;
import dev.seams.faults.FaultSink;
import dev.seams.faults.ProcessKill;
import dev.seams.faults.SinkKill;
import dev.seams.fixture.StandContext;
import dev.seams.report.Claim;
import dev.seams.report.ClaimEvidence;
import dev.seams.sink.SinkCrash;
import dev.seams.sinks.RunningSink;
import dev.seams.stand.SinkContainer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Claim B5, the sink's own faults (issue 12, fault 1; tier {@code faults}, {@code mvn verify -Pfaults}):
 * kill -9 of the sink process, as its own container, at 10/50/90 % of a 20,000-change load — after
 * ClickHouse acknowledged a batch's inserts but before its offsets were committed, and while the
 * insert request is in flight ({@link SinkCrash}). Each kill proven (exit 137, the crash line, raw
 * rows beyond the committed offsets); after the load: FINAL = PG per customer and per order, offsets
 * never ahead of ClickHouse, every changelog record stored; after the insert the raw twin shows the
 * redelivered rows (negative control). And the kill any sink under test is asked ({@code sink-kill}): its process
 * SIGKILLed wherever the load finds it, then started again.
 */
@ExtendWith(StandContext.Resolver.class)
class SinkFaultIT {

    @RegisterExtension
    final FaultSink sinks = new FaultSink();

    @Test
    @Claim(id = "B5", variant = "sink-kill-after-insert", title = "Faults lose nothing: sink kill -9 after the insert, before the offset commit",
            exercises = {"sink/Sink", "sink/SinkCrash", "consumer/OffsetCommitter", "cli/SinkCommand"})
    void sinkKillAfterInsert(ClaimEvidence e, StandContext s) {
        killSink(e, s, "sink-kill-after-insert", SinkCrash.Point.AFTER_INSERT, 5101, true);
    }

    @Test
    @Claim(id = "B5", variant = "sink-kill-mid-insert", title = "Faults lose nothing: sink kill -9 while the insert is in flight",
            exercises = {"sink/Sink", "sink/SinkCrash", "sink/ClickHouseWriter", "cli/SinkCommand"})
    void sinkKillMidInsert(ClaimEvidence e, StandContext s) {
        killSink(e, s, "sink-kill-mid-insert", SinkCrash.Point.MID_INSERT, 5102, false);
    }

    @Test
    @Claim(id = "B5", variant = "sink-kill", title = "Faults lose nothing: the sink under test killed -9 wherever the load finds it",
            exercises = {"sink/Sink", "consumer/OffsetCommitter", "consumer/Batches", "cli/SinkCommand"})
    void sinkKill(ClaimEvidence e, StandContext s) {
        RunningSink sink = sinks.start(s.stand());
        FaultMatrix.run(e, s, FaultMatrix.Plan.of("sink-kill", ProcessKill.sink(sink), 5103, sink));
        e.note("The sink under test (" + sink.name() + ") runs in its own container; at each point of the load its "
                + "container is SIGKILLed (docker kill) wherever its batch is — no crash point, so any sink with a process "
                + "is asked — and started again as a supervisor would (RunningSink.restart: ds-sink a new JVM with the same "
                + "static membership, an image sink docker start of its container); how long its group takes to hand it the "
                + "partitions back is the point's seconds_to_sink_caught_up_after_heal.");
    }

    private void killSink(ClaimEvidence e, StandContext s, String name, SinkCrash.Point point, long seed, boolean redelivery) {
        SinkContainer sink = sinks.startCrashing(s.stand(), point);
        FaultMatrix.run(e, s, redelivery ? FaultMatrix.Plan.of(name, new SinkKill(name, sink, point, s.topics(), s.ch()), seed, sink).redelivering()
                : FaultMatrix.Plan.of(name, new SinkKill(name, sink, point, s.topics(), s.ch()), seed, sink));
        e.note("The sink runs as its own JVM in a container (stand/SinkContainer, static membership " + SinkContainer.INSTANCE_ID
                + "); the test creates its crash trigger at the point of the load, the sink stops at " + point.cliName()
                + " of its next batch and prints its crash line, the test SIGKILLs the container (docker kill) and starts a "
                + "new one. Mid-insert: the batch's first table's request has half its body sent when the process dies; "
                + "the other table's request, sent concurrently, may have been acknowledged.");
    }
}
