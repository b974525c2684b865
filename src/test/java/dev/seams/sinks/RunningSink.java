package dev.seams.sinks;

import dev.seams.report.NotApplicableException;
import dev.seams.stand.ContainerControl;
import java.util.List;
import java.util.Optional;

/**
 * The sink under test running for the length of a fault run (claim B5; docs/sinks.md "The contract"): started on the
 * suite's own stand with the shipped names ({@link SinkUnderTest#start}), it reads {@code customer.totals} from its
 * consumer groups' committed offsets into the stand's tables until it is closed. A fault reaches it through its
 * process ({@link #process}); the fault matrix judges it by what the tables hold and how far its groups got.
 */
public interface RunningSink extends AutoCloseable {

    /** @return the sink under test's name ({@link SinkUnderTest#name()}) */
    String name();

    /** @return every consumer group it commits offsets in ({@link SinkUnderTest#groups} of the stand's sink group) */
    List<String> groups();

    /**
     * @return its output so far: ds-sink's log, an image's container output (of its first start: a restarted container's
     *     is not followed); empty for a sink that runs inside ClickHouse
     */
    String output();

    /**
     * @return whether its output has a line for each write that failed and committed nothing ({@code nothing committed},
     *     ds-sink's): B5 then proves a ClickHouse fault by those lines, otherwise by the lag of its first group growing
     */
    boolean logsRetries();

    /**
     * @param why what the fault does to it, for the NOT_RUN reason
     * @return its process's container, to kill, stop, pause or cut off the network
     * @throws NotApplicableException for a sink without a process of its own ({@link SinkTrait#PROCESS})
     */
    ContainerControl process(String why);

    /**
     * Starts its process again after a kill -9 ({@link #process}), as a supervisor would, and returns once it runs
     * (ds-sink's, a static member, once its group handed it the partitions back). How long a dynamic member's group
     * takes to do so is the fault's recovery, measured by the fault matrix, not part of the restart.
     *
     * @throws NotApplicableException for a sink without a process of its own ({@link SinkTrait#PROCESS})
     * @throws org.awaitility.core.ConditionTimeoutException if it does not run (ds-sink: hold its partitions) in time
     */
    default void restart() {
        throw SinkTrait.PROCESS.missingFrom(name(), "restart after a kill");
    }

    /**
     * @return how its process ended, when it has (exit code and the last line of its output): a sink that exited while a
     *     claim waits for it to catch up is a finding at once, not a wait; empty while it runs, or without a process
     */
    default Optional<String> exited() {
        return Optional.empty();
    }

    /**
     * @param control its process's container
     * @param output  its output
     * @return {@link #exited()} of a sink run by that container
     */
    static Optional<String> exited(ContainerControl control, String output) {
        if (control == null || control.isRunning()) {
            return Optional.empty();
        }
        String[] lines = output.strip().split("\n");
        return Optional.of("exited with " + control.exitCode() + (lines[lines.length - 1].isBlank() ? ""
                : "; its last output line: " + lines[lines.length - 1]));
    }

    /** @return whether its process is attached to the stand's network (a network cut's proof and heal); true without one */
    boolean isConnected();

    /** Stops it gracefully; what it wrote stays. */
    @Override
    void close();
}
