package dev.seams.streams;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * ds-streams' static membership id ({@code group.instance.id}) when the command line gives none: static membership
 * is the default because it is the faster recovery (claim B9, docs/recovery.md). The id is kept in the state directory
 * ({@code <application id>.instance-id}, {@link #file}), made once as {@code <application id>-<8 random hex digits>} and read back by every later start on
 * that directory: stable across restarts of one instance, distinct between instances (each has its own state directory,
 * which Kafka Streams locks), so no two live processes fence each other and a restarted one takes its partitions back
 * at once. A start on a new, empty state directory gets a new id and recovers like a dynamic member.
 */
public final class StaticIdentity {

    /** The suffix of the file in the state directory that holds an application's id. */
    public static final String SUFFIX = ".instance-id";

    private static final SecureRandom RANDOM = new SecureRandom();

    private StaticIdentity() {
    }

    /**
     * @param stateDir      the app's {@code --state-dir}
     * @param applicationId the app's {@code --application-id}
     * @return the file that holds that application's id: one per application, as Kafka Streams keeps one state
     *     directory per application id under {@code --state-dir}
     */
    public static Path file(Path stateDir, String applicationId) {
        return stateDir.resolve(applicationId + SUFFIX);
    }

    /**
     * @param stateDir      the app's {@code --state-dir} (created if missing)
     * @param applicationId the app's {@code --application-id}, the id's prefix
     * @param explicit      {@code --instance-id}, or null
     * @param dynamic       {@code --dynamic-membership}
     * @return the static membership id to run with, or null for dynamic membership
     * @throws IllegalArgumentException if both {@code --instance-id} and {@code --dynamic-membership} are given, or the
     *                                  file holds no id
     * @throws IOException if the state directory cannot be read or written
     */
    public static String resolve(Path stateDir, String applicationId, String explicit, boolean dynamic) throws IOException {
        if (explicit != null && dynamic) {
            throw new IllegalArgumentException("--instance-id and --dynamic-membership exclude each other");
        }
        if (explicit != null) {
            return explicit;
        }
        if (dynamic) {
            return null;
        }
        Path file = file(stateDir, applicationId);
        if (Files.exists(file)) {
            String id = Files.readString(file, StandardCharsets.UTF_8).strip();
            if (id.isEmpty()) {
                throw new IllegalArgumentException(file + " holds no instance id: remove it to have a new one made");
            }
            return id;
        }
        Files.createDirectories(stateDir);
        byte[] random = new byte[4];
        RANDOM.nextBytes(random);
        String id = applicationId + "-" + HexFormat.of().formatHex(random);
        Path tmp = Files.createTempFile(stateDir, applicationId, ".tmp");
        Files.writeString(tmp, id + "\n", StandardCharsets.UTF_8);
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE);
        return id;
    }
}
