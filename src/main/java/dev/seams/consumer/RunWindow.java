package dev.seams.consumer;

import java.time.Duration;

/**
 * When a consumer run ends ({@link PollSession}): at most one of {@code --for}, {@code --until-idle} and
 * {@code --until-caught-up}; none is {@link #UNTIL_STOPPED} ({@code --run-until-stopped}: a deployed sink, which ends
 * only when stopped — SIGTERM, {@code sink.Sink#stop()} — or at an error).
 *
 * @param runFor        stop this long after the start; or null
 * @param untilIdle     stop after this long with nothing read; or null
 * @param untilCaughtUp stop once the assigned partitions' end offsets read at the start are reached
 */
public record RunWindow(Duration runFor, Duration untilIdle, boolean untilCaughtUp) {

    /** No window: the run goes on until it is stopped, also while no partition is assigned (a spare member). */
    public static final RunWindow UNTIL_STOPPED = new RunWindow(null, null, false);

    /**
     * @throws IllegalArgumentException if more than one is set, or if a duration is negative
     */
    public RunWindow {
        int set = (runFor == null ? 0 : 1) + (untilIdle == null ? 0 : 1) + (untilCaughtUp ? 1 : 0);
        if (set > 1) {
            throw new IllegalArgumentException(
                    "at most one of --for, --until-idle, --until-caught-up and --run-until-stopped may be given");
        }
        if ((runFor != null && runFor.isNegative()) || (untilIdle != null && untilIdle.isNegative())) {
            throw new IllegalArgumentException("--for and --until-idle must not be negative");
        }
    }

    /** @return whether the run ends only when stopped (no window set) */
    public boolean untilStopped() {
        return runFor == null && untilIdle == null && !untilCaughtUp;
    }
}
