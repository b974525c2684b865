package dev.seams.cli.options;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * Where a command's password comes from (docs/sink.md: secrets come from the environment
 * or a file, never only argv, which {@code ps} shows to every user). In this order:
 * <ol>
 *   <li>the option itself ({@code --clickhouse-password}, {@code --password}), kept for
 *       compatibility and tests;</li>
 *   <li>a file ({@code --clickhouse-password-file}, {@code --password-file}): its UTF-8 content
 *       without the trailing line break(s), e.g. a Docker or Kubernetes secret mount;</li>
 *   <li>an environment variable ({@value #CLICKHOUSE_ENV}, {@value #PG_ENV});</li>
 *   <li>the option's default.</li>
 * </ol>
 */
public final class Secrets {

    /** The ClickHouse password of {@code seams sink}. */
    public static final String CLICKHOUSE_ENV = "SEAMS_CLICKHOUSE_PASSWORD";
    /** The PostgreSQL password of {@code seams inbox} and {@code seams seed}. */
    public static final String PG_ENV = "SEAMS_PG_PASSWORD";

    private Secrets() {
    }

    /**
     * @param option   the option's value, or null if not given
     * @param file     the file option's value, or null if not given
     * @param envName  the environment variable to read
     * @param env      the environment ({@link System#getenv()})
     * @param fallback the value when none of the three is given
     * @return the password
     * @throws IllegalArgumentException if both the option and the file are given, or the file cannot be read
     */
    public static String resolve(String option, Path file, String envName, Map<String, String> env, String fallback) {
        if (option != null && file != null) {
            throw new IllegalArgumentException("give the password or the password file, not both");
        }
        if (option != null) {
            return option;
        }
        if (file != null) {
            try {
                return Files.readString(file, StandardCharsets.UTF_8).replaceAll("[\\r\\n]+$", "");
            } catch (IOException e) {
                throw new IllegalArgumentException("cannot read the password file " + file + ": " + e, e);
            }
        }
        String fromEnv = env.get(envName);
        return fromEnv != null ? fromEnv : fallback;
    }
}
