package dev.seams.faults;

import static org.awaitility.Awaitility.await;

import dev.seams.stand.ContainerControl;
import java.time.Duration;
import java.util.function.BooleanSupplier;
import org.testcontainers.containers.Network;

/**
 * The faults Docker itself can inflict on a container of the stand (claim B5), through
 * {@link ContainerControl} (docker-java, no shell): kill -9 and start, stop and start, pause beyond
 * a timeout, and a network cut. Each heals by the inverse operation and then waits (up to 3 min)
 * until {@code serving} says the service answers again.
 */
public final class ContainerFaults {

    private static final Duration HEAL_WAIT = Duration.ofMinutes(3);

    private ContainerFaults() {
    }

    /**
     * SIGKILL of the container's PID 1, then {@code docker start} of the same container at once.
     * Proof: exit code 137.
     */
    public static Fault kill(String name, ContainerControl target, BooleanSupplier serving) {
        return new Base(name, Duration.ZERO, serving) {
            @Override
            public Proof inject() {
                return Sigkill.proof(target.kill());
            }

            @Override
            void undo() {
                target.start();
            }
        };
    }

    /**
     * {@code docker stop} (SIGTERM, graceful), held down for {@code hold}, then {@code docker start}.
     * Proof: the container no longer runs.
     */
    public static Fault stop(String name, ContainerControl target, Duration hold, BooleanSupplier serving) {
        return stop(name, target, hold, Duration.ofSeconds(30), serving);
    }

    /**
     * {@code docker stop} with the given timeout (SIGTERM, SIGKILL after it: the exit code tells which ended
     * it), held down for {@code hold} from the moment it stopped, then {@code docker start}.
     * Proof: the container no longer runs.
     */
    public static Fault stop(String name, ContainerControl target, Duration hold, Duration stopTimeout, BooleanSupplier serving) {
        return new Base(name, hold, serving) {
            @Override
            public Proof inject() {
                int exit = target.stop(stopTimeout);
                return !target.isRunning() ? Proof.of("container stopped, exit code " + exit)
                        : Proof.missing("the container still runs after docker stop");
            }

            @Override
            void undo() {
                target.start();
            }
        };
    }

    /**
     * A restart by the service's own shutdown: the signal to PID 1 (e.g. {@code INT}, PostgreSQL's fast
     * shutdown: open transactions rolled back, clients disconnected, a checkpoint), wait until the
     * container stopped, then {@code docker start}. Proof: the container stopped, with exit code 0
     * (a clean shutdown, not a kill).
     */
    public static Fault restart(String name, ContainerControl target, String signal, BooleanSupplier serving) {
        return new Base(name, Duration.ZERO, serving) {
            @Override
            public Proof inject() {
                int exit = target.stopWith(signal, Duration.ofMinutes(1));
                String seen = "SIG" + signal + ": container stopped, exit code " + exit;
                return !target.isRunning() && exit == 0 ? Proof.of(seen) : Proof.missing(seen);
            }

            @Override
            void undo() {
                target.start();
            }
        };
    }

    /**
     * {@code docker pause} (every process frozen: connections stay open and hang) for {@code hold},
     * then unpause. Proof: Docker reports the container paused.
     */
    public static Fault pause(String name, ContainerControl target, Duration hold, BooleanSupplier serving) {
        return new Base(name, hold, serving) {
            @Override
            public Proof inject() {
                target.pause();
                return target.isPaused() ? Proof.of("docker reports the container paused")
                        : Proof.missing("docker does not report the container paused");
            }

            @Override
            void undo() {
                target.unpause();
            }
        };
    }

    /**
     * {@code docker network disconnect} from the stand's network for {@code hold}, then connect again
     * under the same alias. Proof: the network is gone from the container's settings.
     */
    public static Fault networkCut(String name, ContainerControl target, Network network, String alias, Duration hold,
                                   BooleanSupplier serving) {
        return new Base(name, hold, serving) {
            @Override
            public Proof inject() {
                target.disconnect(network);
                return target.address(network).isEmpty() ? Proof.of("the container has no address on the stand's network")
                        : Proof.missing("the container is still attached at " + target.address(network).orElseThrow());
            }

            @Override
            void undo() {
                target.connect(network, alias);
            }
        };
    }

    /**
     * Every packet between {@code target} and {@code peer} on the stand's network dropped for {@code hold}, then let through
     * again (Jepsen's partition nemesis): two iptables DROP rules in {@code target}'s network namespace, entered from the
     * Docker host ({@code nsenter}, as root). Their connections to each other hang; every other connection of either goes
     * on (e.g. the load's to PostgreSQL through its published port, where {@link #networkCut} stops it too). Proof: both
     * rules in place ({@code iptables -C}). Where the namespace cannot be entered (not root, a Docker engine on another
     * machine) the proof fails with the reason: UNVERIFIED, never PASS.
     *
     * @param targetName the target's name in the proof, e.g. {@code postgres}
     * @param peerName   the peer's, e.g. {@code connect}
     */
    public static Fault partition(String name, ContainerControl target, String targetName, ContainerControl peer,
                                  String peerName, Network network, Duration hold, BooleanSupplier serving) {
        return new Base(name, hold, serving) {
            private String[][] rules = new String[0][];

            @Override
            public Proof inject() {
                String ip = peer.address(network).orElse(null);
                if (ip == null) {
                    return Proof.missing(peerName + " has no address on the stand's network");
                }
                rules = new String[][] {{"INPUT", "-s", ip}, {"OUTPUT", "-d", ip}};
                try {
                    for (String[] rule : rules) {
                        iptables(target, "-I", rule);
                    }
                    for (String[] rule : rules) {
                        iptables(target, "-C", rule);
                    }
                } catch (IllegalStateException cannot) {
                    return Proof.missing("cannot drop packets in " + targetName + "'s network namespace: " + cannot.getMessage());
                }
                return Proof.of("packets between " + targetName + " and " + peerName + " (" + ip + ") dropped in " + targetName
                        + "'s network namespace (iptables INPUT and OUTPUT DROP rules in place)");
            }

            @Override
            void undo() {
                for (String[] rule : rules) {
                    iptables(target, "-D", rule);
                }
                rules = new String[0][];
            }
        };
    }

    /** Runs {@code iptables <op> <chain> <-s|-d> <ip> -j DROP} in the container's network namespace, from the host. */
    private static void iptables(ContainerControl container, String op, String[] rule) {
        long pid = container.pid();
        if (pid <= 0) {
            throw new IllegalStateException("the container does not run");
        }
        java.util.List<String> command = new java.util.ArrayList<>(java.util.List.of("nsenter", "-t", Long.toString(pid), "-n",
                "iptables", "-w", op, rule[0], rule[1], rule[2], "-j", "DROP"));
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            if (!p.waitFor(15, java.util.concurrent.TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IllegalStateException(String.join(" ", command) + " did not end within 15 s");
            }
            String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).strip();
            if (p.exitValue() != 0) {
                throw new IllegalStateException(String.join(" ", command) + " exited " + p.exitValue()
                        + (out.isEmpty() ? "" : ": " + out.lines().findFirst().orElse("")));
            }
        } catch (java.io.IOException e) {
            throw new IllegalStateException(String.join(" ", command) + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(String.join(" ", command) + " interrupted", e);
        }
    }

    /** The shared part: name, hold, and heal = undo + wait until serving (also of {@link ClusterFaults}). */
    abstract static class Base implements Fault {

        private final String name;
        private final Duration hold;
        private final BooleanSupplier serving;

        Base(String name, Duration hold, BooleanSupplier serving) {
            this.name = name;
            this.hold = hold;
            this.serving = serving;
        }

        abstract void undo();

        @Override
        public String name() {
            return name;
        }

        @Override
        public Duration hold() {
            return hold;
        }

        @Override
        public void heal() {
            undo();
            await(name + " healed: the service answers again").atMost(HEAL_WAIT).pollInterval(Duration.ofMillis(250))
                    .ignoreExceptions().until(serving::getAsBoolean);
        }
    }
}
