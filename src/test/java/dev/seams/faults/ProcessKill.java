package dev.seams.faults;

import dev.seams.sinks.RunningSink;
import dev.seams.stand.JvmProcess;
import dev.seams.stand.StreamsProcess;
import java.time.Duration;
import java.util.function.IntSupplier;

/**
 * SIGKILL of one of the stand's processes (ds-streams, or a sink run as its own JVM), healed by starting it again at
 * once, as a supervisor would: how G13, G14 and B9 kill them (CONTRIBUTING.md "Adding a fault"; a kill that must land
 * inside a transaction is {@link TransactionKill}'s). The proof is the exit status 137 ({@link Sigkill});
 * {@link #exitStatus()} keeps it for the claim's figures.
 */
public final class ProcessKill implements Fault {

    private final String name;
    private final IntSupplier kill;
    private final Runnable restart;
    private int exitStatus = -1;

    private ProcessKill(String name, IntSupplier kill, Runnable restart) {
        this.name = name;
        this.kill = kill;
        this.restart = restart;
    }

    /**
     * ds-streams killed; the heal starts it again with the same membership and returns once it is RUNNING.
     *
     * @param streams the stand's ds-streams
     * @return the fault {@code streams-kill}
     */
    public static ProcessKill streams(StreamsProcess streams) {
        return new ProcessKill("streams-kill", streams::kill, streams::start);
    }

    /**
     * ds-streams killed; the heal launches it again and returns at once (the claim measures its recovery itself, B9).
     *
     * @param streams the stand's ds-streams
     * @return the fault {@code streams-kill}
     */
    public static ProcessKill streamsRelaunched(StreamsProcess streams) {
        return new ProcessKill("streams-kill", streams::kill, streams::launch);
    }

    /**
     * A JVM of the stand's killed (e.g. the sink as its own process); the heal starts it again with the same command.
     *
     * @param name    the fault's name in the report, e.g. {@code sink-kill}
     * @param process the process
     * @return the fault
     */
    public static ProcessKill jvm(String name, JvmProcess process) {
        return new ProcessKill(name, process::kill, process::start);
    }

    /**
     * The sink under test killed -9 wherever the load finds it (claim B5 {@code sink-kill}: no crash point, no batch
     * boundary chosen); the heal starts its process again ({@link RunningSink#restart}).
     *
     * @param sink the sink under test, running
     * @return the fault {@code sink-kill}
     * @throws dev.seams.report.NotApplicableException at once, for a sink without a process of its own
     */
    public static ProcessKill sink(RunningSink sink) {
        String why = "kill -9 of its process at a point of the load";
        sink.process(why);   // its NOT_RUN before the load; each kill asks again (a restart may be a new container)
        return new ProcessKill("sink-kill", () -> sink.process(why).kill(), sink::restart);
    }

    @Override
    public String name() {
        return name;
    }

    /** Sends SIGKILL and waits for the process to end (at most 60 s); the proof is its exit status. */
    @Override
    public Proof inject() {
        exitStatus = kill.getAsInt();
        Proof proof = Sigkill.proof(exitStatus);
        return new Proof(proof.tookEffect(), name + ": " + proof.evidence());
    }

    /** @return zero: restarted at once, as a supervisor would */
    @Override
    public Duration hold() {
        return Duration.ZERO;
    }

    @Override
    public void heal() {
        restart.run();
    }

    /** @return the exit status of the last {@link #inject()} (137 after a SIGKILL), -1 before one */
    public int exitStatus() {
        return exitStatus;
    }
}
