package dev.seams.report;

import dev.seams.stand.StandUnavailableException;
import java.util.Optional;
import org.junit.jupiter.api.extension.AfterTestExecutionCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Closes the claim evidence a test opened, with the verdict its outcome implies: no exception →
 * PASS; {@link StandUnavailableException} → ENVIRONMENT; {@link FaultNotObservedException} →
 * UNVERIFIED; anything else → FAIL with the message (CLAIMS.md "Rules every claim test follows").
 */
public final class EvidenceExtension implements AfterTestExecutionCallback {

    @Override
    public void afterTestExecution(ExtensionContext context) {
        ClaimEvidence evidence = Evidence.takeCurrent();
        if (evidence == null) {
            return;
        }
        Optional<Throwable> thrown = context.getExecutionException();
        if (thrown.isEmpty()) {
            evidence.finish(Verdict.PASS, null);
            return;
        }
        Throwable t = thrown.get();
        Verdict verdict = hasCause(t, StandUnavailableException.class) ? Verdict.ENVIRONMENT
                : hasCause(t, FaultNotObservedException.class) ? Verdict.UNVERIFIED
                : Verdict.FAIL;
        evidence.finish(verdict, String.valueOf(t.getMessage()));
    }

    private static boolean hasCause(Throwable t, Class<? extends Throwable> type) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (type.isInstance(c)) {
                return true;
            }
        }
        return false;
    }
}
