package dev.seams.stand;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A project main class run as its own JVM (the test JVM's java and classpath), so a test can
 * SIGKILL it and prove the kill by its exit status (137 = 128 + SIGKILL; docs/claims.md "The fault took
 * effect"). Each start writes its output to {@code <logDir>/<name>-<n>.log}.
 */
public final class JvmProcess {

    /** Exit status of a process killed by SIGKILL: 128 + 9 (a container's exit code after {@code docker kill} too). */
    public static final int SIGKILL_EXIT = 137;

    private final String name;
    private final List<String> command;
    private final Path logDir;
    private Process process;
    private Path log;
    private int starts;

    /**
     * @param name      a short name for the log files, e.g. {@code streams}
     * @param mainClass the class to run
     * @param args      its arguments
     * @param logDir    where each start's output goes
     */
    public JvmProcess(String name, String mainClass, List<String> args, Path logDir) {
        this.name = name;
        this.logDir = logDir;
        List<String> c = new ArrayList<>();
        c.add(ProcessHandle.current().info().command().orElse("java"));
        c.add("-Xmx512m");
        c.add("-cp");
        c.add(System.getProperty("java.class.path"));
        c.add(mainClass);
        c.addAll(args);
        this.command = List.copyOf(c);
    }

    /**
     * Starts the process without waiting for anything.
     *
     * @throws IllegalStateException if it is already running
     */
    public synchronized void start() {
        if (process != null && process.isAlive()) {
            throw new IllegalStateException(name + " is already running (pid " + process.pid() + ")");
        }
        starts++;
        log = logDir.resolve(name + "-" + starts + ".log");
        try {
            Files.createDirectories(logDir);
            process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + name, e);
        }
    }

    /**
     * Waits until the current start's output contains the text.
     *
     * @throws IllegalStateException if the process exits first
     * @throws org.awaitility.core.ConditionTimeoutException after the timeout
     */
    public void awaitOutput(String text, Duration timeout) {
        Process started;
        Path startLog;
        synchronized (this) {
            started = process;
            startLog = log;
        }
        await(name + " prints '" + text + "' (log " + startLog + ")").atMost(timeout).pollInterval(Duration.ofMillis(250))
                .until(() -> {
                    if (read(startLog).contains(text)) {
                        return true;
                    }
                    if (!started.isAlive()) {
                        throw new IllegalStateException(name + " exited with " + started.exitValue() + ", see " + startLog);
                    }
                    return false;
                });
    }

    /**
     * Waits for the process to end by itself.
     *
     * @return its exit status
     * @throws IllegalStateException if it is still running after the timeout
     */
    public int awaitExit(Duration timeout) {
        Process p;
        synchronized (this) {
            p = process;
        }
        try {
            if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new IllegalStateException(name + " still runs after " + timeout);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        return p.exitValue();
    }

    /**
     * Sends SIGKILL (kill -9) and waits for the process to end.
     *
     * @return the exit status the OS reported: 137 proves the kill took effect
     */
    public synchronized int kill() {
        if (process == null) {
            throw new IllegalStateException(name + " was never started");
        }
        process.destroyForcibly();
        return awaitExit(Duration.ofSeconds(60));
    }

    /** Stops the process gracefully (SIGTERM), SIGKILL after 60 s. */
    public synchronized void stop() {
        if (process == null || !process.isAlive()) {
            return;
        }
        process.destroy();
        try {
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** @return whether the process is alive */
    public synchronized boolean isAlive() {
        return process != null && process.isAlive();
    }

    /** @return the current start's output so far */
    public synchronized String output() {
        return log == null ? "" : read(log);
    }

    private static String read(Path file) {
        try {
            return Files.exists(file) ? new String(Files.readAllBytes(file), StandardCharsets.UTF_8) : "";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
