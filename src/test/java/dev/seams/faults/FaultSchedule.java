package dev.seams.faults;

import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.DoubleSupplier;

/**
 * One fault injected at several points of a load's progress (docs/claims.md "Repeat the fault": at
 * least three times, e.g. at 10/50/90 % of a load; one {@code FaultSchedule.atProgress(0.1,
 * 0.5, 0.9)}, after Kafka's transaction system test, which bounces its copiers at a progress
 * percentage). The schedule knows nothing of the fault: each point runs the test's
 * {@link Injector}, which injects, proves, heals and returns what it measured; the schedule records
 * where in the load each injection fired.
 *
 * <pre>{@code
 * List<Shot<Kill>> kills = FaultSchedule.atProgress(streamsProgress, 0.1, 0.5, 0.9).run(target -> killAndRestart());
 * }</pre>
 *
 * Two ways to reach a point:
 * <ul>
 *   <li>{@link #run}: the load advances by itself (a loader thread, Debezium, Streams working
 *       through a backlog); the schedule waits until the progress reaches the point, then injects;</li>
 *   <li>{@link #drive}: the injection itself advances the load to the point (a process armed to die
 *       at a given poll); the schedule injects at once.</li>
 * </ul>
 */
public final class FaultSchedule {

    /**
     * How far from its point an injection may land and still carry that point's name: 5 points of the
     * load (issue 21: an entry named {@code @50%} that landed at 58.8 % is mislabelled). An entry whose
     * shot is {@linkplain Shot#offPoint() off its point} is UNVERIFIED with that reason.
     */
    public static final double TOLERANCE = 0.05;

    /**
     * Injects the fault at one point and returns its proof (exit status, lag, crash line...).
     *
     * @param <T> what the injection measured
     */
    @FunctionalInterface
    public interface Injector<T> {

        /**
         * @param target the point of the load, in (0, 1)
         * @return what happened
         * @throws Exception anything the injection could not do (the schedule stops, the test fails)
         */
        T inject(double target) throws Exception;
    }

    /**
     * One injection.
     *
     * @param number   1-based
     * @param target   the point of the load it was scheduled at, in (0, 1)
     * @param progress the load's progress read right before the injection (above 1 if the load
     *                 ran past its planned size)
     * @param result   what the injection returned
     * @param <T>      what the injection measured
     */
    public record Shot<T>(int number, double target, double progress, T result) {

        /** @return whether the injection fired before the end of the load (progress strictly below 100 %) */
        public boolean midLoad() {
            return progress < 1.0;
        }

        /**
         * @return whether the injection landed within {@link #TOLERANCE} of its target, on either side
         *     (a {@link #drive driven} injection reads its progress before it drives the load to the point)
         */
        public boolean onPoint() {
            return offPoint() == null;
        }

        /**
         * @return why the shot does not carry its point's name ({@code "landed at 58.8% of the load, outside ±5 points
         *     of its point 50%"}), or {@code null} when it is {@linkplain #onPoint() on its point}
         */
        public String offPoint() {
            return FaultSchedule.offPoint(target, progress);
        }

        /** @return the target as a label, e.g. {@code @10%} */
        public String label() {
            return "@" + percent(target);
        }
    }

    private final DoubleSupplier progress;
    private final double[] points;
    private Duration timeout = Duration.ofMinutes(5);
    private Duration pollInterval = Duration.ofMillis(20);
    private java.util.function.BooleanSupplier ended = () -> false;

    private FaultSchedule(DoubleSupplier progress, double[] points) {
        this.progress = progress;
        this.points = points;
    }

    /**
     * @param progress the load's progress, 0 at its start and 1 at its end (read at each call)
     * @param points   where to inject, ascending, each in (0, 1)
     * @return the schedule
     * @throws IllegalArgumentException if no point is given or they are not ascending in (0, 1)
     */
    public static FaultSchedule atProgress(DoubleSupplier progress, double... points) {
        if (points.length == 0) {
            throw new IllegalArgumentException("no point of progress given");
        }
        for (int i = 0; i < points.length; i++) {
            if (!(points[i] > 0 && points[i] < 1) || (i > 0 && points[i] <= points[i - 1])) {
                throw new IllegalArgumentException("points must ascend in (0, 1): " + Arrays.toString(points));
            }
        }
        return new FaultSchedule(progress, points.clone());
    }

    /**
     * @param maxWait how long {@link #run} waits for the load to reach each point (default 5 min)
     * @return this
     */
    public FaultSchedule within(Duration maxWait) {
        this.timeout = maxWait;
        return this;
    }

    /**
     * @param loadEnded true once the load can move no further (e.g. the process that drives it ended): {@link #run} then
     *                  stops waiting and returns the points reached so far, so that the claim's checks say what differs
     *                  at once, rather than a wait running out (docs/gate.md: a regression fails fast, by a check)
     * @return this
     */
    public FaultSchedule endedWhen(java.util.function.BooleanSupplier loadEnded) {
        this.ended = loadEnded;
        return this;
    }

    /**
     * @param interval how often {@link #run} reads the progress while it waits (default 20 ms)
     * @return this
     */
    public FaultSchedule pollEvery(Duration interval) {
        this.pollInterval = interval;
        return this;
    }

    /**
     * For each point: waits until the progress reaches it, reads it once more and injects.
     *
     * @return one shot per point, in order; fewer when the load ended before a point ({@link #endedWhen})
     * @throws org.awaitility.core.ConditionTimeoutException if the load does not reach a point in time
     * @throws IllegalStateException                         if an injection threw
     */
    public <T> List<Shot<T>> run(Injector<T> injector) {
        return inject(injector, true);
    }

    /**
     * For each point: reads the progress and injects at once (the injection drives the load to
     * the point itself).
     *
     * @return one shot per point, in order
     * @throws IllegalStateException if an injection threw
     */
    public <T> List<Shot<T>> drive(Injector<T> injector) {
        return inject(injector, false);
    }

    private <T> List<Shot<T>> inject(Injector<T> injector, boolean wait) {
        List<Shot<T>> shots = new ArrayList<>();
        for (double target : points) {
            if (wait) {
                await("progress reaches " + percent(target)).atMost(timeout).pollInterval(pollInterval)
                        .until(() -> progress.getAsDouble() >= target || ended.getAsBoolean());
                if (progress.getAsDouble() < target) {   // the load ended short of the point: no more shots
                    break;
                }
            }
            double at = progress.getAsDouble();
            T result;
            try {
                result = injector.inject(target);
            } catch (RuntimeException e) {
                throw e;
            } catch (Exception e) {
                throw new IllegalStateException("the injection " + percent(target) + " failed: " + e, e);
            }
            shots.add(new Shot<>(shots.size() + 1, target, at, result));
        }
        return shots;
    }

    /**
     * The point rule ({@link #TOLERANCE}) for an injection whose landing the injector measured itself
     * (e.g. a kill that waits for a moment to strike: its landing is where the load was when it struck).
     *
     * @param target the point, in (0, 1)
     * @param landed the load's progress when the fault took effect
     * @return why it does not carry the point's name, or {@code null} when it lies within ±5 points of it
     */
    public static String offPoint(double target, double landed) {
        return Math.abs(landed - target) <= TOLERANCE + 1e-9 ? null : "landed at " + percent(landed) + " of the load, outside ±"
                + percent(TOLERANCE).replace("%", "") + " points of its point " + percent(target);
    }

    /** @return e.g. {@code 10%} for 0.1, {@code 49.7%} for 0.497 */
    public static String percent(double fraction) {
        double p = Math.round(fraction * 1000) / 10.0;   // 0.55 * 100 is 55.00000000000001: entry ids must not depend on that
        return p == Math.rint(p) ? String.format(Locale.ROOT, "%.0f%%", p) : String.format(Locale.ROOT, "%.1f%%", p);
    }
}
