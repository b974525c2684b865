package dev.seams.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingFile;

/**
 * A JDK Flight Recorder profile of code run in this JVM (issue 13: profile the sink under P1):
 * {@code jdk.ExecutionSample} (threads running Java code, every {@value #PERIOD_MS} ms) and
 * {@code jdk.NativeMethodSample} (threads in native code — for the sink, mostly waiting on a
 * socket for ClickHouse's or the broker's answer), summarised for one thread as the methods on top
 * of the stack (self) and the project's methods anywhere on it (inclusive). The recording is kept
 * as a file ({@code jfr print --events jdk.ExecutionSample <file>} reads it).
 */
public final class JfrProfile {

    /** Sampling period, milliseconds: JFR's shortest, so that a sink run of under a second gives hundreds of samples, not tens. */
    static final int PERIOD_MS = 1;
    private static final String CPU = "jdk.ExecutionSample";
    private static final String NATIVE = "jdk.NativeMethodSample";

    /**
     * One method's samples.
     *
     * @param method    {@code class.method}
     * @param samples   samples in which it was on top (self) or anywhere on the stack (inclusive)
     * @param share     samples / all samples of the thread, 0..1
     */
    public record Line(String method, long samples, double share) {
    }

    /**
     * What the recording shows for the selected threads.
     *
     * @param file          the recording
     * @param cpuSamples    Java-code samples of the thread
     * @param nativeSamples native-code samples of the thread
     * @param selfCpu       top methods of the Java-code samples
     * @param selfNative    top methods of the native samples (what the thread waited in)
     * @param inclusive     the project's methods ({@code dev.seams}) by samples of either kind they are on the stack of
     */
    public record Summary(Path file, long cpuSamples, long nativeSamples, List<Line> selfCpu, List<Line> selfNative,
                          List<Line> inclusive) {
    }

    private JfrProfile() {
    }

    /**
     * Runs the work under a recording.
     *
     * @param file   where the recording goes
     * @param thread the threads to summarise: those whose name starts with one of these, comma-separated
     * @param top    lines per list
     * @param work   what to profile
     * @return the summary
     */
    public static Summary profile(Path file, String thread, int top, ThrowingRunnable work) throws Exception {
        try (Recording recording = new Recording()) {
            recording.enable(CPU).withPeriod(Duration.ofMillis(PERIOD_MS));
            recording.enable(NATIVE).withPeriod(Duration.ofMillis(PERIOD_MS));
            recording.start();
            work.run();
            recording.stop();
            Files.createDirectories(file.toAbsolutePath().getParent());
            recording.dump(file);
        }
        return summarise(file, thread, top);
    }

    /** Work that may throw. */
    @FunctionalInterface
    public interface ThrowingRunnable {
        /** Does the work. */
        void run() throws Exception;
    }

    static Summary summarise(Path file, String thread, int top) throws IOException {
        Map<String, Long> selfCpu = new HashMap<>();
        Map<String, Long> selfNative = new HashMap<>();
        Map<String, Long> inclusive = new HashMap<>();
        long[] counts = new long[2];
        for (RecordedEvent event : RecordingFile.readAllEvents(file)) {
            String type = event.getEventType().getName();
            boolean cpu = CPU.equals(type);
            if ((!cpu && !NATIVE.equals(type)) || event.getStackTrace() == null
                    || !matches(thread, event.getThread("sampledThread").getJavaName())) {
                continue;
            }
            counts[cpu ? 0 : 1]++;
            List<RecordedFrame> frames = event.getStackTrace().getFrames();
            if (!frames.isEmpty()) {
                (cpu ? selfCpu : selfNative).merge(name(frames.get(0)), 1L, Long::sum);
            }
            Set<String> seen = new HashSet<>();
            for (RecordedFrame frame : frames) {
                String name = name(frame);
                if (name.startsWith("dev.seams.") && !name.startsWith("dev.seams.bench.") && seen.add(name)) {
                    inclusive.merge(name, 1L, Long::sum);
                }
            }
        }
        long all = counts[0] + counts[1];
        return new Summary(file, counts[0], counts[1], top(selfCpu, top, all), top(selfNative, top, all), top(inclusive, top, all));
    }

    private static boolean matches(String threads, String name) {
        for (String prefix : threads.split(",")) {
            if (name != null && name.startsWith(prefix)) {
                return true;
            }
        }
        return false;
    }

    private static String name(RecordedFrame frame) {
        return frame.getMethod().getType().getName() + "." + frame.getMethod().getName();
    }

    private static List<Line> top(Map<String, Long> samples, int top, long all) {
        List<Line> lines = new ArrayList<>();
        samples.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed()).limit(top)
                .forEach(e -> lines.add(new Line(e.getKey(), e.getValue(), all == 0 ? 0 : e.getValue() / (double) all)));
        return lines;
    }

    /** @return the summary's lists as report table rows: list, method, samples, share in % */
    public static List<List<Object>> rows(Summary s) {
        Map<String, List<Line>> lists = new LinkedHashMap<>();
        lists.put("self, Java code", s.selfCpu());
        lists.put("self, native (waiting)", s.selfNative());
        lists.put("inclusive, dev.seams", s.inclusive());
        List<List<Object>> rows = new ArrayList<>();
        lists.forEach((list, lines) -> lines.forEach(l ->
                rows.add(List.of(list, l.method(), l.samples(), Spread.round(100 * l.share(), 1)))));
        return rows;
    }
}
