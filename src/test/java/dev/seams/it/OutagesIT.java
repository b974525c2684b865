package dev.seams.it;

import dev.seams.faults.ContainerFaults;
import dev.seams.faults.FaultMatrix;
import dev.seams.faults.FaultSink;
import dev.seams.faults.SinkKill;
import dev.seams.fixture.StandContext;
import dev.seams.report.Claim;
import dev.seams.report.ClaimEvidence;
import dev.seams.sink.SinkCrash;
import dev.seams.sinks.RunningSink;
import dev.seams.stand.SinkContainer;
import dev.seams.truth.ClickHouse;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Claim B5 in the default tier (issue 21: "killed by the default tier wherever a cheap version of the needed fault
 * exists"): the two faults every sink change must survive, each once, at 50 % of a {@value FaultMatrix#QUICK_CHANGES}-change
 * load of real traffic, with the whole B5 checker ({@link FaultMatrix}: offsets never ahead of ClickHouse, every
 * changelog record position stored, FINAL = PG per customer and per order). So a sink that drops a batch it could not
 * write, or commits before it writes, turns {@code mvn verify} red without waiting for {@code -Pfaults}, whose matrix
 * runs the same faults at 10/50/90 % of 20,000 changes.
 * <ul>
 *   <li>{@code quick-clickhouse-stop}: ClickHouse stopped ({@code docker stop -t 0}: SIGKILL at once, inserts are
 *       refused, never buffered) and held down {@value #HOLD_S} s, then started; the sink must have logged failed
 *       writes meanwhile (proof) and lose nothing.</li>
 *   <li>{@code quick-sink-kill-mid-insert}: the sink process killed -9 while a batch's insert is in flight, started
 *       again; the batch must be written by the next run.</li>
 * </ul>
 */
@ExtendWith(StandContext.Resolver.class)
class OutagesIT {

    /** How long ClickHouse stays down, seconds: several of the sink's retries (200 ms doubling). */
    private static final long HOLD_S = 4;

    @RegisterExtension
    final FaultSink sinks = new FaultSink();

    @Test
    @Claim(id = "B5", variant = "quick-clickhouse-stop", title = "Faults lose nothing: ClickHouse down for a moment (default tier)",
            exercises = {"sink/Sink", "sink/ClickHouseErrors", "consumer/Backoff", "consumer/Batches", "consumer/OffsetCommitter"})
    void clickhouseStop(ClaimEvidence e, StandContext s) {
        ClickHouse ch = s.ch();
        RunningSink sink = sinks.start(s.stand());
        FaultMatrix.run(e, s, FaultMatrix.Plan.of("quick-clickhouse-stop", ContainerFaults.stop("quick-clickhouse-stop",
                s.stand().control("clickhouse"), Duration.ofSeconds(HOLD_S), Duration.ZERO, () -> ch.scalar("SELECT 1") == 1),
                5301, sink).retrying().quick());
    }

    @Test
    @Claim(id = "B5", variant = "quick-sink-kill-mid-insert", title = "Faults lose nothing: sink kill -9 mid-insert (default tier)",
            exercises = {"sink/Sink", "sink/SinkCrash", "sink/ClickHouseWriter", "consumer/OffsetCommitter", "cli/SinkCommand"})
    void sinkKillMidInsert(ClaimEvidence e, StandContext s) {
        SinkContainer sink = sinks.startCrashing(s.stand(), SinkCrash.Point.MID_INSERT);
        FaultMatrix.run(e, s, FaultMatrix.Plan.of("quick-sink-kill-mid-insert", new SinkKill("quick-sink-kill-mid-insert", sink,
                SinkCrash.Point.MID_INSERT, s.topics(), s.ch()), 5302, sink).quick());
    }
}
