package dev.seams.faults;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seams.sinks.RunningSink;
import dev.seams.stand.ContainerControl;
import dev.seams.truth.RunNames;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A fault run's proof of a ClickHouse fault follows what the sink under test can show (claim B5, docs/sinks.md). */
class FaultPlanTest {

    private static RunningSink sink(boolean logsRetries, List<String> groups) {
        return new RunningSink() {
            @Override
            public String name() {
                return "test-sink";
            }

            @Override
            public List<String> groups() {
                return groups;
            }

            @Override
            public String output() {
                return "";
            }

            @Override
            public boolean logsRetries() {
                return logsRetries;
            }

            @Override
            public ContainerControl process(String why) {
                throw new UnsupportedOperationException(why);
            }

            @Override
            public boolean isConnected() {
                return true;
            }

            @Override
            public void close() {
            }
        };
    }

    @Test
    void aSinkThatLogsItsRetriesIsProvenByThem() {
        FaultMatrix.Plan plan = FaultMatrix.Plan.of("clickhouse-stop", null, 1, sink(true, List.of("g"))).retrying();

        assertThat(plan.retriesExpected()).isTrue();
        assertThat(plan.stalledGroup()).isNull();
    }

    @Test
    void aSinkThatLogsNoRetriesIsProvenByItsFirstGroupsLagGrowing() {
        FaultMatrix.Plan plan = FaultMatrix.Plan.of("clickhouse-stop", null, 1, sink(false, List.of("g", "g.customer_totals")))
                .retrying();

        assertThat(plan.retriesExpected()).isFalse();
        assertThat(plan.stalledGroup()).isEqualTo("g");
        assertThat(plan.stalledTopic()).isEqualTo(RunNames.CUSTOMER_TOTALS);
    }

    private static FaultSchedule.Shot<FaultMatrix.Injected> shot(java.util.Optional<String> nothingAtStake) {
        FaultMatrix.Injected in = new FaultMatrix.Injected(Fault.Proof.of("rules in place"), 30.5, 1.0, 1.0, 0, -1, -1,
                nothingAtStake);
        return new FaultSchedule.Shot<>(1, 0.5, 0.5, in);
    }

    @Test
    void aPointWithNothingAtStakeIsUnproven() {
        FaultMatrix.Plan plan = FaultMatrix.Plan.of("postgres-network-cut", null, 1, sink(true, List.of("g"))).quick();

        assertThat(FaultPoints.unproven(plan, shot(java.util.Optional.of("no WAL was waiting"))))
                .isEqualTo("nothing was at stake while the fault held: no WAL was waiting");
        assertThat(FaultPoints.unproven(plan, shot(java.util.Optional.empty()))).isNull();
    }
}
