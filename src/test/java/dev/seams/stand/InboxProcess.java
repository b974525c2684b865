package dev.seams.stand;

import dev.seams.inbox.CrashPoint;
import dev.seams.inbox.CrashSwitch;
import dev.seams.inbox.InboxMode;
import dev.seams.inbox.InboxSink;
import dev.seams.inbox.InboxSummary;
import dev.seams.project.Project;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code seams inbox} (claim B4) run as its own JVM against the stand's broker and a target
 * database, so a test can let it die by SIGKILL at a named point ({@code --crash-at}) and read
 * what each run printed: its summary line, its crash line, where it resumed, and what it skipped.
 * Every run of one {@code InboxProcess} uses the same consumer group (static membership, so a
 * restart takes the partitions back at once) and the same target.
 */
public final class InboxProcess {

    /** Longest a single run may take before the test gives up on it. */
    public static final Duration RUN_TIMEOUT = Duration.ofMinutes(2);

    private static final Pattern SUMMARY_FIELD = Pattern.compile(" ([a-z_]+)=(\\d+)");
    private static final Pattern TXID = Pattern.compile(" txid=(-?\\d+)");
    private static final Pattern ROWS = Pattern.compile(" rows=(\\d+)");
    private static final Pattern SKIP_LINE = Pattern.compile("\\((\\d+) below the stored offsets, (\\d+) re-sent changes\\)");
    private static final Pattern OFFSET = Pattern.compile("(\\d+)=(\\d+)");

    private final List<String> args;
    private final String group;

    /**
     * @param stand        the stand (its broker)
     * @param jdbcUrl      the target database, its schema selected ({@code currentSchema})
     * @param user         its user
     * @param password     its password (handed over in a file, never on the command line)
     * @param topic        the topic to consume
     * @param group        the consumer group; also the static member id ({@code <group>-1})
     * @param mode         inbox or plain
     * @param commitSize   {@code --commit-size}
     * @param keepFactor   {@code --keep-factor}
     * @param keyByOrderId FAULT INJECTION: {@code --key-by-order-id} (B4's negative control)
     */
    public InboxProcess(Stand stand, String jdbcUrl, String user, String password, String topic, String group,
                        InboxMode mode, int commitSize, int keepFactor, boolean keyByOrderId) {
        this.group = group;
        List<String> a = new ArrayList<>(List.of("inbox",
                "--bootstrap-servers", stand.bootstrapServers(),
                "--jdbc-url", jdbcUrl, "--user", user, "--password-file", passwordFile(password).toString(),
                "--topic", topic, "--group", group, "--instance-id", group + "-1", "--session-timeout", "10s",
                "--mode", mode.cliName(), "--commit-size", Integer.toString(commitSize),
                "--keep-factor", Integer.toString(keepFactor)));
        if (keyByOrderId) {
            a.add("--key-by-order-id");
        }
        this.args = List.copyOf(a);
    }

    /** @return the consumer group of every run */
    public String group() {
        return group;
    }

    /**
     * Runs the sink until it has caught up with the end offsets of its topic as read when it started ({@code
     * --until-caught-up}), or dies: every run is started once what it must read is in the topic.
     *
     * @param name names the run's log file ({@code target/stand-logs/<name>-1.log})
     * @return what it did
     */
    public Run run(String name) {
        return start(name, List.of("--until-caught-up"));
    }

    /**
     * Runs the sink armed to die by SIGKILL at {@code point} of its {@code poll}-th non-empty poll.
     *
     * @return what it did (exit 137 and the crash line if the switch fired)
     */
    public Run crash(String name, CrashPoint point, long poll) {
        // idle, not caught up: a run that caught up before its poll-th poll would end without the crash it is armed for
        return start(name, List.of("--crash-at", point.cliName(), "--crash-after-polls", Long.toString(poll), "--until-idle", "3s"));
    }

    private Run start(String name, List<String> extra) {
        List<String> all = new ArrayList<>(args);
        all.addAll(extra);
        JvmProcess process = new JvmProcess(name, "dev.seams.cli.SeamsCli", all, Project.root().resolve("target/stand-logs"));
        process.start();
        int exit = process.awaitExit(RUN_TIMEOUT);
        return new Run(exit, process.output());
    }

    private static Path passwordFile(String password) {
        try {
            Path file = Files.createTempFile("seams-inbox-", ".pw");
            file.toFile().deleteOnExit();
            Files.writeString(file, password, StandardCharsets.UTF_8);
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the password file", e);
        }
    }

    /**
     * One run: its exit status and its output (stdout and stderr), read by the methods below.
     *
     * @param exit   the exit status (137 after SIGKILL)
     * @param output everything it printed
     */
    public record Run(int exit, String output) {

        /** @return the last non-blank line (the crash line after {@code --crash-at} fired) */
        public String lastLine() {
            return output.lines().filter(l -> !l.isBlank()).reduce((a, b) -> b).orElse("");
        }

        /** @return whether it died by SIGKILL with the crash line of {@code point} as its last line */
        public boolean crashedAt(CrashPoint point) {
            return exit == CrashSwitch.SIGKILL_EXIT && lastLine().startsWith(CrashSwitch.LINE_PREFIX + point.cliName() + ":");
        }

        /** @return the transaction id the crash line names, or -1 */
        public long txid() {
            Matcher m = TXID.matcher(lastLine());
            return m.find() ? Long.parseLong(m.group(1)) : -1;
        }

        /** @return the ledger rows of the poll the crash line names (written, committed or not), or -1 */
        public long rowsInFlight() {
            Matcher m = ROWS.matcher(lastLine());
            return m.find() ? Long.parseLong(m.group(1)) : -1;
        }

        /** @return the summary line, or a description of its absence */
        public String summary() {
            return output.lines().filter(l -> l.startsWith(InboxSummary.LINE_PREFIX)).reduce((a, b) -> b)
                    .orElse("no summary line, exit " + exit + ": " + lastLine());
        }

        /**
         * @param field a count of the summary line, e.g. {@code skipped}
         * @return its value, or -1 without a summary line
         */
        public long count(String field) {
            Matcher m = SUMMARY_FIELD.matcher(summary());
            while (m.find()) {
                if (m.group(1).equals(field)) {
                    return Long.parseLong(m.group(2));
                }
            }
            return -1;
        }

        /**
         * @return partition → the stored offset the run was sought to on its (first) assignment
         *     ({@link InboxSink#RESUME_LINE}); empty if it logged no such line
         */
        public Map<Integer, Long> resumedAt() {
            Map<Integer, Long> at = new TreeMap<>();
            output.lines().filter(l -> l.contains(InboxSink.RESUME_LINE)).findFirst().ifPresent(line -> {
                String map = line.substring(line.indexOf(InboxSink.RESUME_LINE) + InboxSink.RESUME_LINE.length());
                Matcher m = OFFSET.matcher(map.substring(0, map.indexOf('}') + 1));
                while (m.find()) {
                    at.put(Integer.parseInt(m.group(1)), Long.parseLong(m.group(2)));
                }
            });
            return at;
        }

        /** @return records its polls dropped as below the stored offsets (Kafka redeliveries), from its per-poll lines */
        public long belowStoredOffsets() {
            return skipLines(1);
        }

        /** @return changes its polls dropped as already processed (re-sends the keys table caught), from its per-poll lines */
        public long resentSkipped() {
            return skipLines(2);
        }

        private long skipLines(int group) {
            long n = 0;
            Matcher m = SKIP_LINE.matcher(output);
            while (m.find()) {
                n += Long.parseLong(m.group(group));
            }
            return n;
        }
    }
}
