package dev.seams.faults;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.IntPredicate;

/**
 * Which node of a Kafka cluster a fault of claim B5 kills, and whether what it held moved, decided from
 * Admin metadata only ({@code truth/ClusterView}): a pure function of who holds what, so that it is
 * unit-tested apart from the cluster.
 *
 * <p>A holding is a map from what is held (a partition of {@code customer.totals}, a transactional id)
 * to the node id holding it (its leader, its transaction coordinator); {@code -1} means no node holds
 * it (an election in progress).
 */
final class BrokerTargets {

    private BrokerTargets() {
    }

    /**
     * @param holders what is held → the node holding it
     * @param avoid   nodes to spare when another one holds something too (e.g. the transaction coordinator
     *                of ds-streams, so that a leader's kill is not also a coordinator's); ignored when only
     *                nodes in it hold anything
     * @return the node holding the most, ties to the one holding the first item in key order; empty when no
     *     node holds anything
     * @param <K> what is held, ordered (partition numbers, transactional ids)
     */
    static <K extends Comparable<K>> Optional<Integer> busiest(Map<K, Integer> holders, Set<Integer> avoid) {
        Map<Integer, Integer> held = new LinkedHashMap<>();   // node → items it holds, in the order of its first item
        new TreeMap<>(holders).values().stream().filter(node -> node >= 0).forEach(node -> held.merge(node, 1, Integer::sum));
        Optional<Integer> spared = mostHeld(held, node -> !avoid.contains(node));
        return spared.isPresent() ? spared : mostHeld(held, node -> true);
    }

    /**
     * @param before what was held before the kill → its node
     * @param now    the same, read now
     * @param killed the killed node
     * @return whether everything the killed node held is now held by another, live node (a node ≥ 0 other
     *     than {@code killed}), and it held something
     */
    static <K> boolean moved(Map<K, Integer> before, Map<K, Integer> now, int killed) {
        boolean held = false;
        for (Map.Entry<K, Integer> en : before.entrySet()) {
            if (en.getValue() == killed) {
                held = true;
                Integer holder = now.get(en.getKey());
                if (holder == null || holder < 0 || holder == killed) {
                    return false;
                }
            }
        }
        return held;
    }

    /**
     * @return the items {@code node} holds, in key order, e.g. {@code [0, 2]}
     */
    static <K extends Comparable<K>> Set<K> heldBy(Map<K, Integer> holders, int node) {
        Set<K> held = new TreeSet<>();
        holders.forEach((k, n) -> {
            if (n == node) {
                held.add(k);
            }
        });
        return held;
    }

    /** @return the eligible node holding the most items, the first one on a tie */
    private static Optional<Integer> mostHeld(Map<Integer, Integer> held, IntPredicate eligible) {
        Integer best = null;
        for (Map.Entry<Integer, Integer> en : held.entrySet()) {
            if (eligible.test(en.getKey()) && (best == null || en.getValue() > held.get(best))) {
                best = en.getKey();
            }
        }
        return Optional.ofNullable(best);
    }
}
