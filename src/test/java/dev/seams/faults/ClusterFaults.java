package dev.seams.faults;

import static org.awaitility.Awaitility.await;

import dev.seams.fixture.Pipeline;
import dev.seams.stand.ContainerControl;
import dev.seams.stand.Stand;
import dev.seams.truth.ClusterView;
import dev.seams.truth.RunNames;
import dev.seams.truth.Topics;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.function.Supplier;
import org.awaitility.core.ConditionTimeoutException;

/**
 * The faults of a three-broker cluster (claim B5, {@code it/ClusterFaultIT}; the stand with
 * {@code -Dseams.kafka.brokers=3}): kill -9 of the node that holds something the pipeline needs — the
 * leadership of {@code customer.totals} partitions, or the transaction coordination of ds-streams'
 * exactly-once producer — chosen at each injection from the Admin API's metadata ({@link ClusterView},
 * {@link BrokerTargets}), then {@code docker start} of the same container.
 *
 * <p>Proof that the fault took effect: the killed container's exit code 137, and everything the node held
 * held by another node, read back with the Admin API within {@value #ELECTION_WAIT_S} s; the time from the
 * kill to that reading is the point's {@code seconds_to_new_leader} (the controller fences a node that
 * stopped heartbeating after {@code broker.session.timeout.ms}, 9 s by default, and elects a leader among
 * the in-sync replicas). Healed ({@code docker start}) right after that reading, and done when the node is
 * back in the in-sync replicas of every partition of every topic (no partition under-replicated).
 *
 * <p>Measured besides, from the kill: the seconds until ds-streams and the sink committed again
 * ({@code seconds_to_streams_commit_after_kill}, {@code seconds_to_sink_commit_after_kill}): how long the
 * pipeline stalled. A client whose connection to the killed node was open waits up to its
 * {@code request.timeout.ms} (30 s) for an answer, as nothing tells it the node died; a ds-streams thread
 * that dies of the failed commit is replaced under a new static member id and waits for the dead one's
 * session to expire (measured on the coordinator kill: {@code InvalidTxnStateException} on the commit,
 * about 45 s more).
 */
public final class ClusterFaults {

    /** How long the cluster has to elect new leaders after a kill, seconds. */
    static final long ELECTION_WAIT_S = 60;
    /** How long the cluster has to say who holds what before a kill, seconds. */
    private static final long READ_WAIT_S = 30;

    private ClusterFaults() {
    }

    /**
     * kill -9 of the node leading the most {@code customer.totals} partitions, sparing the transaction
     * coordinator of ds-streams where another node leads one (that is {@link #coordinatorKill}'s).
     *
     * @param name  the fault's name, e.g. {@code cluster-leader-kill}
     * @param stand a stand running a cluster
     * @return the fault
     */
    public static Fault leaderKill(String name, Stand stand) {
        ClusterView view = ClusterView.of(stand.admin());
        return new NodeKill<>(name, stand, "leader of " + RunNames.CUSTOMER_TOTALS + " partitions",
                () -> new Holdings<>(view.leaders(RunNames.CUSTOMER_TOTALS),
                        Set.copyOf(view.transactionCoordinators(view.transactionalIds(streamsTransactions())).values())),
                partitions -> view.leaders(RunNames.CUSTOMER_TOTALS));
    }

    /**
     * kill -9 of the transaction coordinator of ds-streams' transactional id(s) (the node coordinating
     * the most of them; Kafka Streams runs one exactly-once producer per stream thread).
     *
     * @param name  the fault's name, e.g. {@code cluster-coordinator-kill}
     * @param stand a stand running a cluster
     * @return the fault
     */
    public static Fault coordinatorKill(String name, Stand stand) {
        ClusterView view = ClusterView.of(stand.admin());
        return new NodeKill<>(name, stand, "transaction coordinator of " + streamsTransactions() + "*",
                () -> new Holdings<>(view.transactionCoordinators(view.transactionalIds(streamsTransactions())), Set.of()),
                view::transactionCoordinators);
    }

    /**
     * Who holds what before a kill.
     *
     * @param holders what is held → its node
     * @param spare   nodes to spare if another one holds something ({@link BrokerTargets#busiest})
     */
    private record Holdings<K>(Map<K, Integer> holders, Set<Integer> spare) {
    }

    /** @return the start of ds-streams' transactional ids: {@code <application.id>-} */
    static String streamsTransactions() {
        return Pipeline.STREAMS_GROUP + "-";
    }

    /** kill -9 of the node holding the most, proof by exit code and by what it held having moved. */
    private static final class NodeKill<K extends Comparable<K>> extends ContainerFaults.Base {

        private final Stand stand;
        private final String role;
        private final Supplier<Holdings<K>> holdings;
        private final Function<Set<K>, Map<K, Integer>> reread;
        private ContainerControl killed;

        /**
         * @param holdings who holds what before the kill, read while every node runs (retried: see
         *                 {@link ClusterView#transactionalIds})
         * @param reread   who holds these items now, read while a node is down
         */
        NodeKill(String name, Stand stand, String role, Supplier<Holdings<K>> holdings, Function<Set<K>, Map<K, Integer>> reread) {
            super(name, Duration.ZERO, () -> ClusterView.of(stand.admin()).underReplicatedPartitions() == 0);
            this.stand = stand;
            this.role = role;
            this.holdings = holdings;
            this.reread = reread;
        }

        @Override
        public Proof inject() {
            killed = null;
            AtomicReference<Holdings<K>> read = new AtomicReference<>();
            await(name() + ": who holds what before the kill").atMost(Duration.ofSeconds(READ_WAIT_S)).pollDelay(Duration.ZERO)
                    .pollInterval(Duration.ofMillis(500)).ignoreExceptions().until(() -> {
                        read.set(holdings.get());
                        return true;
                    });
            Map<K, Integer> before = read.get().holders();
            int node = BrokerTargets.busiest(before, read.get().spare()).orElse(-1);
            if (node < 0) {
                return Proof.missing("no node is " + role + ": " + before);
            }
            boolean controller = ClusterView.of(stand.admin()).controller() == node;
            String target = "node " + node + " (" + role + " " + BrokerTargets.heldBy(before, node)
                    + (controller ? ", the active controller" : "") + ")";
            killed = stand.kafka().control(node);
            long t0 = System.nanoTime();
            int exit = killed.kill();
            if (exit != Sigkill.EXIT) {
                return Proof.missing("exit code " + exit + " of " + target + ", not " + Sigkill.EXIT);
            }
            Progress streams = new Progress(stand, Pipeline.STREAMS_GROUP, RunNames.ORDERS_EVENTS, t0);
            Progress sink = new Progress(stand, RunNames.SINK_GROUP, RunNames.CUSTOMER_TOTALS, t0);
            AtomicReference<Map<K, Integer>> now = new AtomicReference<>(before);
            try {
                await(name() + ": another node took over from node " + node).atMost(Duration.ofSeconds(ELECTION_WAIT_S))
                        .pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(100)).ignoreExceptions()
                        .until(() -> {
                            now.set(reread.apply(before.keySet()));
                            return BrokerTargets.moved(before, now.get(), node);
                        });
            } catch (ConditionTimeoutException e) {
                return Proof.missing("exit code 137 of " + target + ", but after " + ELECTION_WAIT_S + " s: " + now.get());
            }
            double election = Math.round((System.nanoTime() - t0) / 1e8) / 10.0;
            return Proof.of("exit code 137 of " + target + "; " + election + " s later: " + now.get())
                    .with("killed_node", node)
                    .with("killed_node_was_controller", controller)
                    .with("held_before_kill", before.toString())
                    .with("held_after_election", now.get().toString())
                    .with("seconds_to_new_leader", election)
                    .with("seconds_to_streams_commit_after_kill", streams.seconds())   // still measured while the node heals
                    .with("seconds_to_sink_commit_after_kill", sink.seconds());
        }

        @Override
        void undo() {
            if (killed != null) {   // null: no node was chosen, nothing was killed
                killed.start();
            }
        }
    }

    /**
     * Whether a group commits again once a node died: its committed offsets on a topic, summed, read from
     * right after the kill (or, if the group coordinator was the node killed, as soon as another one answers)
     * until they grow — a transaction of ds-streams committed, or a batch of the sink, with two brokers left
     * (with the load running there is always more to commit). Read on a thread of its own, so that a read
     * waiting for a new group coordinator delays neither the election's reading nor the other group's.
     */
    private static final class Progress {

        private final CompletableFuture<Object> seconds;

        /**
         * @param killedAt {@link System#nanoTime()} of the kill
         */
        Progress(Stand stand, String group, String topic, long killedAt) {
            Topics topics = stand.topics();
            long[] base = {-1};
            seconds = CompletableFuture.supplyAsync(() -> {
                try {
                    await(group + " commits on " + topic + " after the kill").atMost(Duration.ofSeconds(2 * ELECTION_WAIT_S))
                            .pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(100)).ignoreExceptions().until(() -> {
                                long sum = topics.committed(group, topic).values().stream().mapToLong(Long::longValue).sum();
                                if (base[0] < 0) {
                                    base[0] = sum;
                                    return false;
                                }
                                return sum > base[0];
                            });
                    return (Object) (Math.round((System.nanoTime() - killedAt) / 1e8) / 10.0);
                } catch (ConditionTimeoutException e) {
                    return "no commit within " + 2 * ELECTION_WAIT_S + " s of the kill";
                }
            }, runnable -> {
                Thread t = new Thread(runnable, "progress-" + group);
                t.setDaemon(true);
                t.start();
            });
        }

        /** @return seconds from the kill until the group committed beyond its first reading, or why not, once known */
        CompletableFuture<Object> seconds() {
            return seconds;
        }
    }
}
