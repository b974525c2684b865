package dev.seams.sink;

import java.time.Duration;

/**
 * When a consumer run ends ({@link PollSession}): exactly one of {@code --for},
 * {@code --until-idle} and {@code --until-caught-up}.
 *
 * @param runFor        stop this long after the start; or null
 * @param untilIdle     stop after this long with nothing read; or null
 * @param untilCaughtUp stop once the assigned partitions' end offsets read at the start are reached
 */
public record RunWindow(Duration runFor, Duration untilIdle, boolean untilCaughtUp) {

    /**
     * @throws IllegalArgumentException unless exactly one is set, or if a duration is negative
     */
    public RunWindow {
        int set = (runFor == null ? 0 : 1) + (untilIdle == null ? 0 : 1) + (untilCaughtUp ? 1 : 0);
        if (set != 1) {
            throw new IllegalArgumentException("exactly one of --for, --until-idle and --until-caught-up must be given");
        }
        if ((runFor != null && runFor.isNegative()) || (untilIdle != null && untilIdle.isNegative())) {
            throw new IllegalArgumentException("--for and --until-idle must not be negative");
        }
    }
}
