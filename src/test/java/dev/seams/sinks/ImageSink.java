package dev.seams.sinks;

import dev.seams.project.Project;
import dev.seams.sink.SinkMode;
import dev.seams.sink.SinkOptions;
import dev.seams.sink.SinkSummary;
import dev.seams.stand.ContainerControl;
import dev.seams.stand.ContainerLog;
import dev.seams.stand.JvmContainer;
import dev.seams.stand.ExternalStand;
import dev.seams.stand.Stand;
import dev.seams.truth.ClickHouse;
import dev.seams.truth.Endpoints;
import dev.seams.truth.Groups;
import dev.seams.truth.Topics;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.TopicPartition;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.startupcheck.IsRunningStartupCheckStrategy;
import org.testcontainers.images.builder.Transferable;
import org.testcontainers.utility.DockerImageName;

/**
 * A user's sink as a container image ({@code -Dseams.sink=image:<ref>}; docs/sinks.md "A sink of your own"): started
 * per run on the stand's network with the contract's environment ({@link #environment}), stopped with SIGTERM once its
 * consumer group caught up (it must exit 0 or 143 within {@link #STOP_TIMEOUT}: a graceful stop), and for a fault
 * killed with SIGKILL. Its traits are those
 * its image declares in the label {@value #TRAITS_LABEL} (comma-separated {@link SinkTrait} names in lower case with
 * dashes, e.g. {@code dead-letter-queue,record-position}); a container is always a process of its own
 * ({@link SinkTrait#PROCESS}). ds-sink packaged so ({@code containers/ds-sink/Dockerfile}) is the proof that the
 * contract carries a real sink.
 */
public final class ImageSink implements SinkUnderTest {

    /** The prefix of {@code -Dseams.sink} that names an image. */
    public static final String PREFIX = "image:";
    /** The image label that lists the sink's traits. */
    public static final String TRAITS_LABEL = "dev.seams.sink.traits";
    /** Where the ClickHouse password file is mounted in the container. */
    static final String PASSWORD_FILE = "/run/secrets/seams-clickhouse-password";
    /** How long the sink may take to catch up with a stand's topic (thousands of records, not millions). */
    private static final Duration CATCH_UP_TIMEOUT = Duration.ofMinutes(2);
    /** How long a graceful stop may take after SIGTERM (the contract: the batch in hand written and committed). */
    static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);
    /**
     * Exit statuses of a graceful stop after SIGTERM: 0, or 143 (128 + 15: a JVM that ran its shutdown hooks exits so,
     * ds-sink included, docs/sink.md).
     */
    static final Set<Integer> GRACEFUL_EXIT = Set.of(0, 143);

    /**
     * Each image's traits, read once per JVM: {@link SinkUnderTest#configured()} makes a new instance at every call (a
     * claim asks several times), and each would otherwise inspect the image again.
     */
    private static final Map<String, Set<SinkTrait>> TRAITS = new java.util.concurrent.ConcurrentHashMap<>();

    /** The runs of image sinks in this JVM: each run's output goes to a file of its own. */
    private static final java.util.concurrent.atomic.AtomicInteger RUNS = new java.util.concurrent.atomic.AtomicInteger();

    private final String image;

    /** @param image the image reference, e.g. {@code registry.example.com/team/sink:1.4} */
    ImageSink(String image) {
        if (image.isBlank()) {
            throw new IllegalArgumentException("-D" + PROPERTY + "=" + PREFIX + " names no image (docs/sinks.md)");
        }
        this.image = image;
    }

    @Override
    public String name() {
        return PREFIX + image;
    }

    /**
     * @return the traits its image's label names, read once per JVM (the image pulled first if it is not here)
     * @throws IllegalArgumentException if the label names no trait
     */
    @Override
    public Set<SinkTrait> traits() {
        return TRAITS.computeIfAbsent(image, ImageSink::inspectTraits);
    }

    private static Set<SinkTrait> inspectTraits(String image) {
        var docker = DockerClientFactory.instance().client();
        try {
            docker.inspectImageCmd(image).exec();
        } catch (com.github.dockerjava.api.exception.NotFoundException e) {   // a registry's image, not pulled yet
            try {
                docker.pullImageCmd(image).start().awaitCompletion();
            } catch (InterruptedException ie) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while pulling " + image, ie);
            }
        }
        Map<String, String> labels = docker.inspectImageCmd(image).exec().getConfig().getLabels();
        return parseTraits(labels == null ? null : labels.get(TRAITS_LABEL));
    }

    /**
     * @param label the value of {@value #TRAITS_LABEL}, or null
     * @return the traits it names, and {@link SinkTrait#PROCESS}
     * @throws IllegalArgumentException for a name that is no trait, listing them
     */
    static Set<SinkTrait> parseTraits(String label) {
        Set<SinkTrait> parsed = EnumSet.of(SinkTrait.PROCESS);
        for (String name : label == null ? new String[0] : label.split(",")) {
            if (name.isBlank()) {
                continue;
            }
            String constant = name.strip().toUpperCase(Locale.ROOT).replace('-', '_');
            if (Arrays.stream(SinkTrait.values()).noneMatch(t -> t.name().equals(constant))) {
                throw new IllegalArgumentException("label " + TRAITS_LABEL + " names no trait \"" + name.strip() + "\"; traits: "
                        + Arrays.stream(SinkTrait.values()).map(t -> t.name().toLowerCase(Locale.ROOT).replace('_', '-')).toList());
            }
            parsed.add(SinkTrait.valueOf(constant));
        }
        return parsed;
    }

    @Override
    public SinkSummary drain(Endpoints endpoints, SinkOptions options) {
        Stand stand = ExternalStand.processControl(endpoints, "the image sink runs as a container on the suite's own Docker network");
        SinkOptions defaults = SinkOptions.defaults(stand.bootstrapServers(), options.clickhouse(), options.mode());
        Honoured.check(name(), traits(), options, defaults);
        String topic = options.source().topic();
        String group = options.membership().groupId();
        Topics topics = stand.topics();
        ClickHouse ch = ClickHouse.of(options.clickhouse());
        Map<TopicPartition, Long> target = topics.lastStableOffsets(topic);
        startGroup(stand, options);
        String dlq = options.rejects().dlqTopic();
        long rawBefore = ch.scalar("SELECT count() FROM " + options.clickhouse().database() + ".raw_totals");
        long dlqBefore = traits().contains(SinkTrait.DEAD_LETTER_QUEUE) ? topics.totalEndOffset(dlq) : 0;
        ContainerLog log = newLog();
        String whereItLogs = "its output is in " + Project.root().relativize(log.file());
        RuntimeException failed = null;
        try (GenericContainer<?> sink = container(stand, options, log)) {
            sink.start();
            ContainerControl control = new ContainerControl(sink.getContainerId());
            try {
                if (options.window().runFor() != null) {
                    CatchUp.runFor(name(), options.window().runFor(), control::isRunning);
                } else {
                    CatchUp.await(name(), topics, java.util.List.of(group), topic, target, CATCH_UP_TIMEOUT, whereItLogs);
                }
            } catch (RuntimeException e) {
                failed = e;
                throw e;
            } finally {
                int status = control.isRunning() ? control.stopWith("TERM", STOP_TIMEOUT) : control.exitCode();
                if (failed instanceof CatchUp.SinkStoppedException) {
                    CatchUp.moveGroupPast(stand, group, target);
                } else if (failed == null && !GRACEFUL_EXIT.contains(status)) {
                    throw new IllegalStateException(name() + " did not stop gracefully: exit status " + status
                            + " after SIGTERM (the contract: the batch in hand written and committed, then exit 0 or 143; "
                            + whereItLogs + ")");
                }
            }
        }
        long inserted = ch.scalar("SELECT count() FROM " + options.clickhouse().database() + ".raw_totals") - rawBefore;
        long bad = traits().contains(SinkTrait.DEAD_LETTER_QUEUE) ? topics.totalEndOffset(dlq) - dlqBefore : 0;
        return new SinkSummary(inserted, bad, 0, 0, 0, 0, false, options.fromStart(), options.mode().cliName());
    }

    /**
     * A fault run's sink (claim B5): the image with the shipped names, from its group's committed offsets (the topic's
     * start without any), until closed; returns once its group holds its partitions with a new member.
     *
     * @throws org.awaitility.core.ConditionTimeoutException if its group holds no partitions within 2 minutes
     */
    @Override
    public RunningSink start(Stand stand) {
        SinkOptions options = SinkOptions.defaults(stand.bootstrapServers(), stand.clickhouseTarget(), SinkMode.TOTALS);
        String group = options.membership().groupId();
        startGroup(stand, options);
        ContainerLog log = newLog();
        GenericContainer<?> sink = container(stand, options, log);
        Running running = new Running(sink, log, stand, group);
        try {
            Groups.of(stand.admin()).startHeldByNewMember(group, running::start, Duration.ofMinutes(2));
        } catch (RuntimeException e) {
            running.close();
            throw e;
        }
        return running;
    }

    /** The image running for a fault run ({@link #start}). */
    private final class Running implements RunningSink {
        private final GenericContainer<?> container;
        private final ContainerLog log;
        private final Stand stand;
        private final String group;
        private ContainerControl control;

        Running(GenericContainer<?> container, ContainerLog log, Stand stand, String group) {
            this.container = container;
            this.log = log;
            this.stand = stand;
            this.group = group;
        }

        void start() {
            container.start();
            control = new ContainerControl(container.getContainerId());
        }

        @Override
        public String name() {
            return ImageSink.this.name();
        }

        @Override
        public List<String> groups() {
            return ImageSink.this.groups(group);
        }

        @Override
        public String output() {
            return log.text();
        }

        /** @return false: the contract asks for no line per failed write */
        @Override
        public boolean logsRetries() {
            return false;
        }

        @Override
        public ContainerControl process(String why) {
            return control;
        }

        @Override
        public java.util.Optional<String> exited() {
            return RunningSink.exited(control, log.text());
        }

        @Override
        public boolean isConnected() {
            return control.address(stand.network()).isPresent();
        }

        /**
         * The same container started again ({@code docker start}: the contract's environment, a new process; its output
         * is not followed), as a supervisor would; returns once it runs. A dynamic member killed -9 keeps its partitions
         * until its session times out (45 s by Kafka's default): that is the fault's recovery, which the fault matrix
         * measures ({@code seconds_to_sink_caught_up_after_heal}), not a wait of the restart.
         *
         * @throws org.awaitility.core.ConditionTimeoutException if the container does not run within 30 s
         */
        @Override
        public void restart() {
            control.start();
            org.awaitility.Awaitility.await("the image sink's container runs again").atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(200)).until(control::isRunning);
        }

        /** SIGTERM (the contract's graceful stop, up to {@link #STOP_TIMEOUT}), then the container is removed. */
        @Override
        public void close() {
            try {
                if (control != null && control.isRunning()) {
                    control.stopWith("TERM", STOP_TIMEOUT);
                }
            } finally {
                container.close();
            }
        }
    }

    /**
     * The contract's start for a new group and for a run from the start: the group's offsets at the topic's start, so
     * that its committed offsets say how far this run got ({@code SEAMS_FROM_START} tells the sink too).
     */
    private static void startGroup(Stand stand, SinkOptions options) {
        CatchUp.startGroups(stand, List.of(options.membership().groupId()), options.source().topic(), options.fromStart());
    }

    /** @return a new file for one run's output, {@code target/stand-logs/image-sink-<n>.log} */
    private static ContainerLog newLog() {
        return new ContainerLog(Project.root().resolve("target/stand-logs/image-sink-" + RUNS.incrementAndGet() + ".log"));
    }

    /** @return the image's container for one run, on the stand's network with the contract's environment; not started */
    private GenericContainer<?> container(Stand stand, SinkOptions options, ContainerLog log) {
        return new GenericContainer<>(DockerImageName.parse(image))
                .withNetwork(stand.network()).withLabels(JvmContainer.labels())
                .withEnv(environment(stand.kafkaOnNetwork(), options, traits()))
                .withCopyToContainer(Transferable.of(options.clickhouse().password().getBytes(StandardCharsets.UTF_8), 0400), PASSWORD_FILE)
                .withStartupCheckStrategy(new IsRunningStartupCheckStrategy())
                .withLogConsumer(log);
    }

    /**
     * The contract's environment for one run (docs/sinks.md "A sink of your own"): {@code SEAMS_BOOTSTRAP_SERVERS},
     * {@code SEAMS_TOPIC}, {@code SEAMS_GROUP}, {@code SEAMS_FROM_START}, {@code SEAMS_CLICKHOUSE_URL},
     * {@code SEAMS_CLICKHOUSE_DATABASE}, {@code SEAMS_CLICKHOUSE_USER}, {@code SEAMS_CLICKHOUSE_PASSWORD_FILE},
     * {@code SEAMS_RAW_TABLE}, {@code SEAMS_TOTALS_TABLE}; {@code SEAMS_DLQ_TOPIC} for a sink with a dead-letter queue,
     * {@code SEAMS_ISOLATION} for one that chooses its isolation level.
     *
     * @param bootstrapServers the brokers as the stand's network reaches them
     * @return variable → value, in the order the docs list them
     */
    static Map<String, String> environment(String bootstrapServers, SinkOptions options, Set<SinkTrait> traits) {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("SEAMS_BOOTSTRAP_SERVERS", bootstrapServers);
        env.put("SEAMS_TOPIC", options.source().topic());
        env.put("SEAMS_GROUP", options.membership().groupId());
        env.put("SEAMS_FROM_START", Boolean.toString(options.fromStart()));
        env.put("SEAMS_CLICKHOUSE_URL", "http://clickhouse:8123");
        env.put("SEAMS_CLICKHOUSE_DATABASE", options.clickhouse().database());
        env.put("SEAMS_CLICKHOUSE_USER", options.clickhouse().user());
        env.put("SEAMS_CLICKHOUSE_PASSWORD_FILE", PASSWORD_FILE);
        env.put("SEAMS_RAW_TABLE", "raw_totals");
        env.put("SEAMS_TOTALS_TABLE", "customer_totals");
        if (traits.contains(SinkTrait.DEAD_LETTER_QUEUE)) {
            env.put("SEAMS_DLQ_TOPIC", options.rejects().dlqTopic());
        }
        if (traits.contains(SinkTrait.ISOLATION_CHOICE)) {
            env.put("SEAMS_ISOLATION", options.source().isolation());
        }
        return env;
    }
}
