package dev.seams.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
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
     * @param output its standard output and error, stripped
     */
    record Result(int status, String output) {

        boolean ok() {
            return status == 0;
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
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return new Result(-1, "git " + String.join(" ", args) + " did not end within 60 s");
            }
            return new Result(p.exitValue(), out);
        } catch (IOException e) {
            return new Result(-1, "cannot run git: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Result(-1, "interrupted");
        }
    }
}
