package dev.seams.it;

import dev.seams.faults.ContainerFaults;
import dev.seams.faults.FaultMatrix;
import dev.seams.faults.FaultSink;
import dev.seams.fixture.StandContext;
import dev.seams.report.Claim;
import dev.seams.report.ClaimEvidence;
import dev.seams.sinks.RunningSink;
import dev.seams.stand.Stand;
import dev.seams.truth.RunNames;
import dev.seams.truth.Topics;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Claim B5, broker kill -9 and restart on the single-broker stand (issue 12, fault 3; tier
 * {@code faults}): at 10/50/90 % of a 20,000-change load the broker's container is SIGKILLed and
 * started again at once (same container, its log directory and its fixed host port, so the advertised
 * host listener stays valid; the containers reach it as {@code kafka:19092}, {@link Stand#kafkaOnNetwork()}). Proof: exit
 * code 137. ds-streams, Kafka Connect and both sinks reconnect by themselves (the test restarts
 * none); a transaction open at the kill is completed or aborted, none stays open once the run settled
 * (last stable offset = log end, {@link OpenTransactions}), an aborted one stays invisible (no raw row at a position that
 * holds no committed record); FINAL = PG per customer and per order.
 */
@ExtendWith(StandContext.Resolver.class)
class BrokerFaultIT {

    @RegisterExtension
    final FaultSink sinks = new FaultSink();

    @Test
    @Claim(id = "B5", variant = "broker-kill", title = "Faults lose nothing: broker kill -9 and restart",
            exercises = {"streams/StreamsApp", "cli/StreamsCommand", "streams/ThreadReplacements", "sink/Sink", "consumer/OffsetCommitter", "consumer/KafkaErrors"})
    void brokerKill(ClaimEvidence e, StandContext s) {
        RunningSink sink = sinks.start(s.stand());
        Topics topics = s.topics();
        FaultMatrix.run(e, s, FaultMatrix.Plan.of("broker-kill", ContainerFaults.kill("broker-kill", s.stand().control("kafka"),
                () -> !topics.endOffsets(RunNames.CUSTOMER_TOTALS).isEmpty()), 5301, sink));
        OpenTransactions.checkEnded(e, s.stand());
        e.figure("streams_alive_after", s.stand().streams().isAlive());
    }
}
