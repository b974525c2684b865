package dev.seams.cli.options;

import dev.seams.consumer.RunWindow;
import java.time.Duration;
import picocli.CommandLine.Option;

/**
 * When a consumer command's run ends ({@code seams sink}, {@code seams inbox}), as a picocli mixin: at most one of
 * {@code --for}, {@code --until-idle}, {@code --until-caught-up} and {@code --run-until-stopped}; none given is
 * {@code --until-idle 5s}, a batch run (docs/sink.md "Run windows"). {@code --run-until-stopped} is how a sink is
 * deployed: it ends only on SIGTERM (gracefully: the batch in hand written and committed) or at an error.
 */
public final class RunWindowOptions {

    /** The window when none is given: {@code --until-idle 5s}. */
    public static final Duration DEFAULT_IDLE = Duration.ofSeconds(5);

    @Option(names = "--for", converter = HumanDuration.class, description = "run this long, e.g. 15s (default: none; without a window option the run stops after 5s idle)")
    Duration runFor;

    @Option(names = "--until-idle", converter = HumanDuration.class,
            description = "stop after this long with nothing to read, e.g. 5s (the default: 5s)")
    Duration untilIdle;

    @Option(names = "--until-caught-up", description = "stop once the end offsets (read_committed: last stable "
            + "offsets) of the assigned partitions, as read at the start, are reached")
    boolean untilCaughtUp;

    @Option(names = "--run-until-stopped", description = "run until SIGTERM (graceful: the batch in hand written and "
            + "committed) or an error, also while no partition is assigned: a deployed sink")
    boolean untilStopped;

    /** Creates the mixin; picocli fills the options. */
    public RunWindowOptions() {
    }

    /**
     * @return the window given, {@code --until-idle 5s} when none
     * @throws IllegalArgumentException if more than one was given (exit status 2 through the CLI)
     */
    public RunWindow window() {
        if (untilStopped) {
            if (runFor != null || untilIdle != null || untilCaughtUp) {
                throw new IllegalArgumentException(
                        "at most one of --for, --until-idle, --until-caught-up and --run-until-stopped may be given");
            }
            return RunWindow.UNTIL_STOPPED;
        }
        RunWindow given = new RunWindow(runFor, untilIdle, untilCaughtUp);
        return given.untilStopped() ? new RunWindow(null, DEFAULT_IDLE, false) : given;
    }
}
