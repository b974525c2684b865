package dev.seams.streams;

import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiConsumer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The ds-streams process: runs {@link TotalsTopology} with {@link StreamsSettings} until the JVM is told to stop
 * (its command line is {@code cli.StreamsCommand}, {@code seams streams}).
 *
 * <p>Observable behaviour the claim tests rely on (G13, G14): every Kafka Streams state transition prints one stdout
 * line {@code streams state: OLD -> NEW}, the app being ready after {@code streams state: REBALANCING -> RUNNING};
 * SIGTERM/SIGINT close Kafka Streams gracefully (shutdown hook, up to 30 s); an uncaught exception in a stream thread
 * is logged and the thread replaced, at most {@value ThreadReplacements#DEFAULT_MAX} times within 10 minutes
 * ({@link ThreadReplacements}), a static member being removed from the group first ({@link StaticMemberRemoval}).
 */
public final class StreamsApp {

    private static final Logger log = LoggerFactory.getLogger(StreamsApp.class);
    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(30);

    private StreamsApp() {
    }

    /**
     * Starts Kafka Streams and blocks until it has been closed (shutdown hook) or failed.
     *
     * @param options the run's settings
     * @return 0 after a graceful shutdown, 1 if Kafka Streams reached state ERROR
     * @throws InterruptedException if interrupted while waiting
     */
    public static int run(StreamsOptions options) throws InterruptedException {
        String applicationId = options.applicationId();
        Properties props = StreamsSettings.properties(options);
        KafkaStreams streams = new KafkaStreams(TotalsTopology.build(options.topics()), props);
        CountDownLatch finished = new CountDownLatch(1);
        AtomicBoolean failed = new AtomicBoolean();
        streams.setStateListener((newState, oldState) -> {
            System.out.println("streams state: " + oldState + " -> " + newState);
            if (newState == KafkaStreams.State.ERROR) {
                failed.set(true);
                finished.countDown();
            } else if (newState == KafkaStreams.State.NOT_RUNNING) {
                finished.countDown();
            }
        });
        // created up front (not on the dying thread, during the outage), with the app's own client settings
        Admin admin = options.instanceId() == null ? null
                : Admin.create(new StreamsConfig(props).getAdminConfigs(applicationId + "-member-removal"));
        BiConsumer<String, Throwable> beforeReplace = admin == null ? (name, death) -> { }
                : new StaticMemberRemoval(() -> admin, applicationId, options.instanceId());
        streams.setUncaughtExceptionHandler(new ThreadReplacements(ThreadReplacements.DEFAULT_MAX,
                ThreadReplacements.DEFAULT_WINDOW, beforeReplace));
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            log.info("shutdown requested, closing Kafka Streams");
            streams.close(CLOSE_TIMEOUT);
        }, "ds-streams-shutdown"));

        log.info("starting {}", options);
        try {
            streams.start();
            finished.await();
            streams.close(CLOSE_TIMEOUT);
        } finally {
            if (admin != null) {
                admin.close(CLOSE_TIMEOUT);
            }
        }
        return failed.get() ? 1 : 0;
    }
}
