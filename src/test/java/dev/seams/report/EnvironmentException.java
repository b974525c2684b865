package dev.seams.report;

/**
 * The environment, not the claim, failed (the stand could not start or became unhealthy): the
 * affected claims are reported as {@link Verdict#ENVIRONMENT} (docs/claims.md "Environment failure is
 * not a claim failure"). Subclassed by the stand's own exception.
 */
public class EnvironmentException extends RuntimeException {

    /** @param message what failed; @param cause the underlying error */
    public EnvironmentException(String message, Throwable cause) {
        super(message, cause);
    }
}
