package dev.seams.inbox;

import java.util.Objects;

/**
 * The PostgreSQL database the inbox sink writes ({@code --jdbc-url}, {@code --user}, {@code --password},
 * {@code --password-file} or {@code SEAMS_PG_PASSWORD}). {@link #toString()} never shows the password.
 *
 * @param jdbcUrl  the target database, e.g. {@code jdbc:postgresql://localhost:5432/ledger?currentSchema=inbox}
 * @param user     its user
 * @param password its password
 */
public record InboxTarget(String jdbcUrl, String user, String password) {

    /** @throws NullPointerException if a setting is null */
    public InboxTarget {
        Objects.requireNonNull(jdbcUrl, "jdbcUrl");
        Objects.requireNonNull(user, "user");
        Objects.requireNonNull(password, "password");
    }

    /** @return the target with the password masked */
    @Override
    public String toString() {
        return "InboxTarget[jdbcUrl=" + jdbcUrl + ", user=" + user + ", password=" + (password.isEmpty() ? "" : "***") + "]";
    }
}
