package dev.seams.inbox;

import java.io.IOException;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * TEST-ONLY fault injection for the inbox sink (claim B4): makes the process die by SIGKILL at a
 * named {@link CrashPoint} of its {@code afterPolls}-th non-empty poll, so a test can prove what
 * each window between the database commit and the Kafka offset commit does. Off by default
 * ({@link #OFF}); the CLI arms it with {@code --crash-at POINT --crash-after-polls N}.
 *
 * <p>Dying: one line {@code inbox: crash at POINT: DETAIL} goes to stdout (flushed; it is the
 * process's last line), then the process sends itself SIGKILL ({@code kill -KILL <pid>}), so no
 * finally block, shutdown hook or consumer close runs and the exit status is 137, exactly as after
 * an external {@code kill -9}. Where no {@code kill} command exists, {@link Runtime#halt(int)} with
 * 137 is the fallback (also skips every hook).
 *
 * @param point      where to die, or null when off
 * @param afterPolls the 1-based number of the non-empty poll (of this process) at which to die; 0 when off
 */
public record CrashSwitch(CrashPoint point, long afterPolls) {

    /** No crash. */
    public static final CrashSwitch OFF = new CrashSwitch(null, 0);

    /** The exit status of a process killed by SIGKILL (128 + 9). */
    public static final int SIGKILL_EXIT = 137;

    /** The first words of the crash line, followed by the point's name. */
    public static final String LINE_PREFIX = "inbox: crash at ";

    /**
     * @throws IllegalArgumentException if a point is given with afterPolls < 1, or none with afterPolls != 0
     */
    public CrashSwitch {
        if (point != null && afterPolls < 1) {
            throw new IllegalArgumentException("--crash-after-polls must be >= 1 with --crash-at, got " + afterPolls);
        }
        if (point == null && afterPolls != 0) {
            throw new IllegalArgumentException("--crash-after-polls needs --crash-at");
        }
    }

    /** @return whether this poll is the one at which the process dies (at some point) */
    public boolean armedFor(long poll) {
        return point != null && poll == afterPolls;
    }

    /** @return whether the process dies at this point of this poll */
    public boolean firesAt(CrashPoint at, long poll) {
        return armedFor(poll) && point == Objects.requireNonNull(at, "at");
    }

    /**
     * Dies at this point of this poll if armed for it; otherwise returns at once.
     *
     * @param at     the point the caller has reached
     * @param poll   the caller's 1-based non-empty poll number
     * @param detail what is in flight, for the crash line, e.g. {@code poll=5 txid=1234 records=100 new=100}
     */
    public void maybeCrash(CrashPoint at, long poll, String detail) {
        if (firesAt(at, poll)) {
            die(line(at, detail));
        }
    }

    /** @return the crash line for a point, e.g. {@code inbox: crash at after-db-commit: poll=5 txid=12} */
    public static String line(CrashPoint at, String detail) {
        return LINE_PREFIX + at.cliName() + ": " + detail;
    }

    private static void die(String line) {
        System.out.println(line);
        System.out.flush();
        try {
            Process kill = new ProcessBuilder("kill", "-KILL", Long.toString(ProcessHandle.current().pid()))
                    .redirectErrorStream(true).start();
            kill.waitFor(10, TimeUnit.SECONDS);
        } catch (IOException e) {
            // no kill command here: halt below
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        Runtime.getRuntime().halt(SIGKILL_EXIT);
    }
}
