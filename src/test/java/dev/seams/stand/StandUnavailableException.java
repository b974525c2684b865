package dev.seams.stand;

/**
 * The stand could not start. The claims' fixture ({@code fixture.StandContext#running()}) turns it into the report's
 * environment failure, so that the affected claims are reported as {@code ENVIRONMENT}, not as failed (docs/claims.md
 * "Environment failure is not a claim failure").
 */
public final class StandUnavailableException extends RuntimeException {

    /** @param message what failed; @param cause the underlying error */
    public StandUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
