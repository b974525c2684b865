package dev.seams.faults;

import dev.seams.check.Reconciliation;
import dev.seams.fixture.StandContext;
import dev.seams.report.ClaimEvidence;
import dev.seams.seed.OrderSeeder;
import dev.seams.sink.SinkMode;
import dev.seams.sink.SinkSummary;
import dev.seams.truth.RunNames;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.kafka.common.TopicPartition;

/**
 * The end of a redelivery claim (B3, B17): the sink writes a run's order events again in both modes, and each order of
 * {@code order_dedup FINAL} and each customer of {@code customer_totals FINAL} is compared with PostgreSQL, while the
 * twin {@code order_counts_raw} counts every event, redelivered ones included.
 */
public final class FinalParity {

    private static final String SINK_GROUP = RunNames.SINK_GROUP;
    private static final String TWIN_SUM = "SELECT sum(cnt) FROM order_counts_raw";

    private FinalParity() {
    }

    /**
     * Writes {@code orders.events} from {@code from} into {@code order_counts_raw} and {@code order_dedup} (dedup-demo
     * mode), and {@code customer.totals} from its start into {@code customer_totals} (totals mode), each table emptied
     * first; records {@code order_counts_raw_sum_cnt} = {@code delivered} (check), {@code order_dedup FINAL} = PG for
     * {@code orders} (per order_id) and {@code customer_totals FINAL} = PG (per customer); then writes both order tables
     * again from the start of {@code orders.events}, so that they hold every order for the claims after this one.
     *
     * @param e         the claim's evidence
     * @param s         the stand, settled
     * @param from      the run's first offsets of {@code orders.events}
     * @param delivered events carrying an order in {@code orders.events} from {@code from}
     * @param orders    the run's orders; rows of others in {@code order_dedup FINAL} are counted apart
     */
    public static void record(ClaimEvidence e, StandContext s, Map<TopicPartition, Long> from, long delivered, Set<Long> orders) {
        s.ch().truncate("order_counts_raw", "order_dedup");
        s.topics().resetGroup(SINK_GROUP, from);
        e.figure("dedup_demo_summary", s.sink(SinkMode.DEDUP_DEMO, o -> o).line());
        e.check("order_counts_raw_sum_cnt", s.ch().scalar(TWIN_SUM)).isEqualTo(delivered,
                "the twin counts every delivered event, redeliveries included");
        List<OrderSeeder.Order> view = Reconciliation.orderRows(s.ch(), Reconciliation.ORDER_DEDUP_FINAL);
        Map<Long, OrderSeeder.Order> truth = new TreeMap<>(s.pg().orders());
        truth.keySet().retainAll(orders);
        e.figure("order_dedup_final_rows_of_other_orders", view.stream().filter(o -> !orders.contains(o.orderId())).count());
        Reconciliation.orders(truth, view.stream().filter(o -> orders.contains(o.orderId())).toList())
                .record(e, "PostgreSQL vs order_dedup FINAL, per order_id");

        s.settle();
        s.ch().truncate("raw_totals", "customer_totals");
        SinkSummary totals = s.sink(SinkMode.TOTALS, o -> o.withFromStart(true));
        e.figure("totals_summary", totals.line());
        Reconciliation.customerTotalsFinal(s.stand()).record(e, "PostgreSQL vs customer_totals FINAL");

        // the dedup view whole again: it held this run's orders only, and a later claim compares every order with PG
        s.ch().truncate("order_counts_raw", "order_dedup");
        s.sink(SinkMode.DEDUP_DEMO, o -> o.withFromStart(true));
    }
}
