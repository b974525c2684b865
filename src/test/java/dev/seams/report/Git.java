package dev.seams.report;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Runs {@code git -C <repo> ...} and returns its exit status and output: the one way the report code asks git
 * what a tree is ({@link Provenance}, {@link ReportProvenance}).
 */
final class Git {

    private Git() {
    }

    /**
     * What one git command answered.
     *
     * @param status its exit status, or -1 if it could not be started or did not end within 60 s
     * @param output its standard output, stripped (followed by its standard error when it failed)
     */
    record Result(int status, String output) {

        boolean ok() {
            return status == 0;
        }
    }

    /**
     * Reads both output streams at once, on threads of their own: the common pool has a single thread on two cores, where
     * a drain of stdout would wait for git to exit while git waits for its full stderr pipe to be read.
     */
    private static final ExecutorService DRAINS = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "git-output");
        t.setDaemon(true);
        return t;
    });

    private static String drain(InputStream stream) {
        try (stream) {
            return new String(stream.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }

    /**
     * @param repo a directory inside a git work tree
     * @param args the git command and its arguments
     * @return the exit status and output; never throws
     */
    static Result run(Path repo, String... args) {
        List<String> command = Stream.concat(Stream.of("git", "-C", repo.toString()), Stream.of(args)).toList();
        try {
            Process p = new ProcessBuilder(command).start();
            CompletableFuture<String> out = CompletableFuture.supplyAsync(() -> drain(p.getInputStream()), DRAINS);
            CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> drain(p.getErrorStream()), DRAINS);
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return new Result(-1, "git " + String.join(" ", args) + " did not end within 60 s");
            }
            String stdout = out.join().strip();
            return new Result(p.exitValue(), p.exitValue() == 0 ? stdout : (stdout + "\n" + err.join()).strip());
        } catch (IOException e) {
            return new Result(-1, "cannot run git: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Result(-1, "interrupted");
        }
    }
}
