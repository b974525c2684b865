package dev.seams.bench;

import dev.seams.stand.ContainerControl;
import dev.seams.stand.Stand;
import java.lang.management.ManagementFactory;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;

/**
 * Who spent the CPU of a timed span (issue 13 P1: where the sink's time goes beside the direct
 * insert's on a 2-core machine): this JVM's process CPU time (exact, {@code OperatingSystemMXBean})
 * and each stand container's ({@link ContainerControl#cpuNanos()}, Docker's stats). A container's
 * reading is that of the moment Docker answers (≈ 2 s after the request): its window starts just
 * before the span and ends up to ~2 s after it, so it also holds that tail's background work — an
 * idle span of the same shape ({@link #measure} of nothing) shows how much.
 *
 * <p>Shape of a measurement: party → CPU seconds, parties in the order {@value #JVM} (this JVM: the sink or the direct insert), the Kafka
 * node(s), {@code connect}, {@code ds-streams}, {@code postgres}, {@code clickhouse}.
 */
final class CpuAccount {

    /** The party name of this JVM (the sink and the direct insert both run in it). */
    static final String JVM = "jvm";

    private final Map<String, ContainerControl> containers = new LinkedHashMap<>();

    /** @param stand the running stand whose containers are read */
    CpuAccount(Stand stand) {
        List<Integer> nodes = stand.kafka().nodeIds();
        for (int node : nodes) {
            containers.put(nodes.size() == 1 ? "kafka" : "kafka-" + node, stand.kafka().control(node));
        }
        containers.put("connect", stand.control("connect"));
        containers.put("ds-streams", stand.streams().container().control());
        containers.put("postgres", stand.control("postgres"));
        containers.put("clickhouse", stand.control("clickhouse"));
    }

    /**
     * Runs the span between two readings of every party.
     *
     * @param span what to measure; its value is returned in {@link Measured#value()}
     * @return the span's value and the CPU seconds per party between the readings
     * @throws Exception what the span throws; {@link IllegalStateException} if a container cannot be read
     */
    <T> Measured<T> measure(Callable<T> span) throws Exception {
        Map<String, Long> before = read();
        T value = span.call();
        Map<String, Long> after = read();
        Map<String, Double> seconds = new LinkedHashMap<>();
        before.forEach((party, nanos) -> seconds.put(party, (after.get(party) - nanos) / 1e9));
        return new Measured<>(value, seconds);
    }

    /** @return CPU nanoseconds per party now; the containers are read in parallel (each reading takes ≈ 2 s) */
    private Map<String, Long> read() {
        Map<String, CompletableFuture<Long>> readings = new LinkedHashMap<>();
        containers.forEach((party, control) -> readings.put(party, CompletableFuture.supplyAsync(control::cpuNanos)));
        Map<String, Long> nanos = new LinkedHashMap<>();
        nanos.put(JVM, processCpuNanos());
        readings.forEach((party, reading) -> nanos.put(party, reading.join()));
        return nanos;
    }

    private static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
    }

    /**
     * @param value   what the span returned
     * @param seconds party → CPU seconds between the readings
     */
    record Measured<T>(T value, Map<String, Double> seconds) {
    }
}
