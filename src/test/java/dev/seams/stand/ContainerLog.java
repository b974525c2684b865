package dev.seams.stand;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.testcontainers.containers.output.OutputFrame;

/**
 * One start's output of a container ({@link JvmContainer}'s, an image sink's), stdout and stderr interleaved, appended
 * to a file as Testcontainers follows the container's log stream ({@code target/stand-logs/<name>-<n>.log}).
 * The stream ends when the container exits; {@link #awaitEnd(Duration)} lets the owner read the whole
 * output before it removes the container.
 */
public final class ContainerLog implements Consumer<OutputFrame> {

    private final Path file;
    private final CountDownLatch ended = new CountDownLatch(1);

    /**
     * @param file where this start's output goes; created (or emptied) now
     * @throws UncheckedIOException if it cannot be created
     */
    public ContainerLog(Path file) {
        this.file = file;
        try {
            Files.createDirectories(file.getParent());
            Files.write(file, new byte[0]);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + file, e);
        }
    }

    @Override
    public void accept(OutputFrame frame) {
        if (frame == OutputFrame.END) {
            ended.countDown();
            return;
        }
        try {
            Files.write(file, frame.getBytes(), StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot append to " + file, e);
        }
    }

    /**
     * Waits until the log stream has ended (the container exited and Docker sent its last bytes).
     *
     * @return whether it ended within the timeout
     */
    boolean awaitEnd(Duration timeout) {
        try {
            return ended.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** @return the output so far */
    public String text() {
        try {
            return new String(Files.readAllBytes(file), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }

    /** @return the log file */
    public Path file() {
        return file;
    }
}
