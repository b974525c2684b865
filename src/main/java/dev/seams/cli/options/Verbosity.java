package dev.seams.cli.options;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Option;

/**
 * {@code -v}/{@code --verbose} of the one-shot commands ({@code lag}, {@code seed}, {@code compare}, {@code reconcile},
 * {@code slot}): their result goes to stdout, and by default stderr holds warnings and errors only — not the Kafka
 * clients' configuration dumps nor progress lines, and of the Kafka clients' own log only errors (the command says in one
 * line what failed). {@code cli/SeamsCli} quiets the log around a command that has this mixin. The long-running processes ({@code streams}, {@code sink},
 * {@code inbox}) keep their INFO log: it is the record of their operation.
 */
public final class Verbosity {

    /** The mixin's name in a command ({@code @Mixin(name = MIXIN)}): the command line quiets the log around it. */
    public static final String MIXIN = "verbosity";
    private static final String KAFKA = "org.apache.kafka";

    @Option(names = {"-v", "--verbose"}, description = "log progress and the clients' configuration on stderr too "
            + "(default: warnings and errors only)")
    boolean verbose;

    /** Puts every logger's level back as it was before {@link #quiet()}. */
    public interface Quiet extends AutoCloseable {
        @Override
        void close();
    }

    /**
     * Lowers the log to warnings and errors (the Kafka clients' to errors) unless {@code --verbose} was given, until the
     * returned {@link Quiet} is closed: a command run inside another program (a test) leaves the log as it found it.
     *
     * @return what restores the levels
     */
    public Quiet quiet() {
        if (verbose || !(LoggerFactory.getILoggerFactory() instanceof ch.qos.logback.classic.LoggerContext context)) {
            return () -> { };
        }
        java.util.Map<Logger, Level> levels = new java.util.HashMap<>();
        context.getLoggerList().forEach(l -> levels.put(l, l.getLevel()));
        context.getLogger(Logger.ROOT_LOGGER_NAME).setLevel(Level.WARN);
        context.getLoggerList().stream().filter(l -> l.getLevel() != null && !l.getLevel().isGreaterOrEqual(Level.WARN))
                .forEach(l -> l.setLevel(Level.WARN));
        // the clients' own warnings (a broker not reachable yet, retried) repeat what the command says in one line
        context.getLoggerList().stream().filter(l -> l.getName().startsWith(KAFKA)).forEach(l -> l.setLevel(Level.ERROR));
        return () -> context.getLoggerList().forEach(l -> l.setLevel(levels.get(l)));
    }
}
