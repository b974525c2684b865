package dev.seams.it;

import dev.seams.faults.ContainerFaults;
import dev.seams.faults.FaultMatrix;
import dev.seams.faults.FaultSink;
import dev.seams.fixture.Pipeline;
import dev.seams.fixture.StandContext;
import dev.seams.report.Claim;
import dev.seams.report.ClaimEvidence;
import dev.seams.sinks.RunningSink;
import dev.seams.sinks.SinkTrait;
import dev.seams.stand.JvmContainer;
import dev.seams.truth.RunNames;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Claim B5, network cuts (issue 12, fault 4; tier {@code faults}): at 10/50/90 % of a 20,000-change
 * load, the sink's and, separately, ds-streams' container is disconnected from the stand's network
 * for 30 s ({@code docker network disconnect}: its connections hang, nothing reaches either end) and
 * connected again under its alias. Both processes run in containers whose only route to the broker
 * is that network, so the cut is a cut from the broker (the sink also loses ClickHouse, which is on
 * the same network). Proof: Docker lists no address of the container on the network, and the
 * group's lag grew while it was cut. Nothing is restarted by the test: the processes reconnect by
 * themselves; FINAL = PG per customer and per order.
 */
@ExtendWith(StandContext.Resolver.class)
class NetworkFaultIT {

    private static final Duration HOLD = Duration.ofSeconds(30);

    @RegisterExtension
    final FaultSink sinks = new FaultSink();

    @Test
    @Claim(id = "B5", variant = "sink-network-cut", title = "Faults lose nothing: the sink cut off the broker for 30 s",
            exercises = {"sink/Sink", "consumer/PollSession", "consumer/OffsetCommitter", "consumer/KafkaErrors"})
    void sinkNetworkCut(ClaimEvidence e, StandContext s) {
        String why = "the fault cuts the sink's process off the broker";
        s.requireSink(SinkTrait.PROCESS, why);
        RunningSink sink = sinks.start(s.stand());
        FaultMatrix.run(e, s, FaultMatrix.Plan.of("sink-network-cut", ContainerFaults.networkCut("sink-network-cut",
                        sink.process(why), s.stand().network(), "sink", HOLD, sink::isConnected), 5401, sink)
                .stalling(sink.groups().get(0), RunNames.CUSTOMER_TOTALS).paced(FaultMatrix.HELD_CHANGES_PER_SECOND));
    }

    @Test
    @Claim(id = "B5", variant = "streams-network-cut", title = "Faults lose nothing: ds-streams cut off the broker for 30 s",
            exercises = {"streams/StreamsApp", "cli/StreamsCommand", "streams/StreamsSettings", "streams/ThreadReplacements"})
    void streamsNetworkCut(ClaimEvidence e, StandContext s) {
        RunningSink sink = sinks.start(s.stand());
        JvmContainer target = s.stand().streams().container();
        FaultMatrix.run(e, s, FaultMatrix.Plan.of("streams-network-cut", ContainerFaults.networkCut("streams-network-cut",
                        target.control(), s.stand().network(), "streams", HOLD, target::isConnected), 5402, sink)
                .stalling(Pipeline.STREAMS_GROUP, RunNames.ORDERS_EVENTS).paced(FaultMatrix.HELD_CHANGES_PER_SECOND));
        e.figure("streams_alive_after", s.stand().streams().isAlive());
    }
}
