package dev.seams.consumer;

import java.util.Objects;

/**
 * A failure's {@link ErrorClass} and a short name for the one log line per retry, e.g.
 * {@code retriable: connection refused} or {@code permanent: server error 60}.
 *
 * @param errorClass retriable or permanent
 * @param name       what happened, in a few words
 */
public record Classification(ErrorClass errorClass, String name) {

    /** @throws NullPointerException if a component is null */
    public Classification {
        Objects.requireNonNull(errorClass, "errorClass");
        Objects.requireNonNull(name, "name");
    }

    /** @return a retriable failure named {@code name} */
    public static Classification retriable(String name) {
        return new Classification(ErrorClass.RETRIABLE, name);
    }

    /** @return a permanent failure named {@code name} */
    public static Classification permanent(String name) {
        return new Classification(ErrorClass.PERMANENT, name);
    }

    /** @return whether the failure is retried */
    public boolean retriable() {
        return errorClass == ErrorClass.RETRIABLE;
    }

    /** @return {@code CLASS: NAME}, e.g. {@code retriable: socket timeout} */
    @Override
    public String toString() {
        return errorClass + ": " + name;
    }
}
