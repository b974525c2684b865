package dev.seams.stand;

import dev.seams.report.EnvironmentException;

/**
 * The stand could not start or became unhealthy: the affected claims are reported as
 * {@code ENVIRONMENT}, not as failed (docs/claims.md "Environment failure is not a claim failure").
 */
public final class StandUnavailableException extends EnvironmentException {

    /** @param message what failed; @param cause the underlying error */
    public StandUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
