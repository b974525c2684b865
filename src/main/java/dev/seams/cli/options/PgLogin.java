package dev.seams.cli.options;

import java.nio.file.Path;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * How a command logs in to PostgreSQL ({@code seams seed}, {@code seams inbox}), as a picocli mixin: {@code --user} and
 * the password from {@code --password-file}, {@value Secrets#PG_ENV} or {@code --password} ({@link Secrets}), with the
 * stand's {@code test}/{@code test} as defaults.
 */
public final class PgLogin {

    /** The password when none is given: the stand's. */
    public static final String DEFAULT_PASSWORD = "test";

    @Option(names = "--user", defaultValue = "test", description = "database user (default: ${DEFAULT-VALUE})")
    String user;

    @Option(names = "--password", description = "database password (visible to ps: prefer --password-file or "
            + Secrets.PG_ENV + "; default: test, the stand's)")
    String password;

    @Option(names = "--password-file", description = "file holding the database password")
    Path passwordFile;

    /** Creates the mixin; picocli fills the options. */
    public PgLogin() {
    }

    /** @return {@code --user} */
    public String user() {
        return user;
    }

    /**
     * @param env the environment ({@link System#getenv()}; tests pass their own)
     * @return the password ({@link Secrets#resolve})
     * @throws IllegalArgumentException if both a password and a password file are given, or the file cannot be read
     */
    public String password(Map<String, String> env) {
        return Secrets.resolve(password, passwordFile, Secrets.PG_ENV, env, DEFAULT_PASSWORD);
    }
}
