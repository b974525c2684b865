package dev.seams.report;

/**
 * What a claim's failure line is (docs/mutants.md "A kill is a check that fired"): a check that fired — a missed
 * expectation, an anomaly, an assertion of the test — or what the test met instead, a timeout or an exception. A line of
 * the latter two says so in its first words ({@link #of(Throwable)}), so that the mutation tier credits a kill only to a
 * check and records a timeout or a crash as what it is.
 */
public final class FailureLine {

    /** What a failure line is. */
    public enum Kind {
        /** A missed expectation, an anomaly, an assertion of the test: a check that fired. */
        CHECK,
        /** A wait that ran out: {@value FailureLine#TIMED_OUT}… */
        TIMEOUT,
        /** Anything else the test threw: {@value FailureLine#THREW}… */
        EXCEPTION
    }

    /** How the line of a wait that ran out starts. */
    public static final String TIMED_OUT = "timed out: ";
    /** How the line of an exception starts, followed by its type and where it was thrown. */
    public static final String THREW = "threw ";

    private FailureLine() {
    }

    /**
     * @param thrown what a claim test threw (not a {@link NotApplicableException}, {@link EnvironmentException} or
     *               {@link FaultNotObservedException}: those are verdicts of their own)
     * @return its failure line: a timeout (any {@code *TimeoutException} in its cause chain, e.g. Awaitility's, also one
     *     that ran out on an assertion) as {@code timed out: <message>}; an assertion (in the cause chain: a future or an
     *     executor may wrap it) as its message; anything else as
     *     {@code threw <Type> at <where>: <message>}
     */
    public static String of(Throwable thrown) {
        for (Throwable c = thrown; c != null; c = c.getCause()) {
            if (c.getClass().getSimpleName().endsWith("TimeoutException")) {
                return TIMED_OUT + message(c);
            }
        }
        for (Throwable c = thrown; c != null; c = c.getCause()) {   // also one a future or an executor wrapped
            if (c instanceof AssertionError) {
                return message(c);
            }
        }
        return THREW + thrown.getClass().getSimpleName() + " at " + where(thrown) + ": " + message(thrown);
    }

    /**
     * @param line a failure line of a report (also one written before the lines said what they are: a wait that ran out
     *             reads "didn't complete within")
     * @return what it is
     */
    public static Kind kind(String line) {
        if (line.startsWith(TIMED_OUT) || line.contains("didn't complete within")) {
            return Kind.TIMEOUT;
        }
        return line.startsWith(THREW) ? Kind.EXCEPTION : Kind.CHECK;
    }

    private static String message(Throwable t) {
        String m = t.getMessage();
        return m == null ? t.getClass().getName() : m.strip();
    }

    /** @return the first frame of this project's code, else the first frame, e.g. {@code SlotFaultIT.b14SlotDropped(SlotFaultIT.java:142)} */
    private static String where(Throwable t) {
        StackTraceElement[] frames = t.getStackTrace();
        for (StackTraceElement f : frames) {
            if (f.getClassName().startsWith("dev.seams.")) {
                return frame(f);
            }
        }
        return frames.length == 0 ? "(no stack)" : frame(frames[0]);
    }

    private static String frame(StackTraceElement f) {
        String type = f.getClassName().substring(f.getClassName().lastIndexOf('.') + 1);
        return type + "." + f.getMethodName() + "(" + f.getFileName() + ":" + f.getLineNumber() + ")";
    }
}
