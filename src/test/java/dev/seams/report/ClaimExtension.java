package dev.seams.report;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.TestTemplate;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.LifecycleMethodExecutionExceptionHandler;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.jupiter.api.extension.TestExecutionExceptionHandler;
import org.junit.platform.commons.support.AnnotationSupport;
import org.opentest4j.TestAbortedException;

/**
 * The lifecycle of one {@link Claim} test: opens its {@link ClaimEvidence} before the test (so
 * even a stand that cannot start leaves an ENVIRONMENT entry), resolves it as a test parameter, and
 * after the test and its {@code @AfterEach} clean-up closes it with the verdict {@link Verdicts}
 * derives. The JUnit outcome follows the verdict: FAIL fails the test even when its body did not
 * throw (a missed {@link Check}, an anomaly); UNVERIFIED aborts it (reported as skipped, with the
 * reason); NOT_RUN ({@link NotApplicableException}: the claim cannot apply to what is under test) aborts it too,
 * with its reason, also when a {@code @BeforeEach} finds it; an {@code @AfterEach} that cannot apply (it restarts a
 * container of a stand the run does not control) has nothing to clean up; ENVIRONMENT fails it. Against a baseline ({@link Gate}, {@code -Dseams.gate}) every entry or part
 * that PASSed there and does not PASS now fails the test, whatever its verdict: a proof that vanished turns
 * the build red. With {@code -D}{@value #FAIL_FAST}{@code =true} (the mutation tier's builds) the claims after the first
 * one a check turned red are not run: the build is red from then on (one red only by timeouts or exceptions lets the run
 * go on to claims whose checks can still fire). A tier out of time ({@link TierClock}) starts
 * no more claims: each is NOT_RUN with the reason.
 */
public final class ClaimExtension implements BeforeEachCallback, ParameterResolver, TestExecutionExceptionHandler,
        LifecycleMethodExecutionExceptionHandler, AfterEachCallback, ExecutionCondition {

    /** The system property that stops a run at its first red claim (the mutation tier sets it; failsafe passes it). */
    public static final String FAIL_FAST = "seams.fail.fast";
    private static volatile String firstRed;

    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(ClaimExtension.class);
    private static final String KEY = "evidence";

    /** Forgets the run's first red claim (the extension's own tests run sample claims in one JVM). */
    static void resetFailFast() {
        firstRed = null;
    }

    /**
     * Disables every claim after the first red one under {@value #FAIL_FAST}, and every claim the tier has no time left
     * for ({@link TierClock}): such a claim is recorded NOT_RUN with the reason. A parameterized claim is judged per
     * invocation, where its entry id is known.
     */
    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
        String red = firstRed;
        if (context.getTestMethod().isEmpty()) {
            return ConditionEvaluationResult.enabled("");
        }
        if (red != null && Boolean.getBoolean(FAIL_FAST)) {
            return ConditionEvaluationResult.disabled("not run: " + red + " turned red first (-D" + FAIL_FAST + "=true)");
        }
        Method method = context.getRequiredTestMethod();
        Claim claim = method.getAnnotation(Claim.class);
        boolean template = AnnotationSupport.isAnnotated(method, TestTemplate.class)
                && context.getParent().flatMap(ExtensionContext::getTestMethod).isEmpty();
        if (claim == null || template) {
            return ConditionEvaluationResult.enabled("");
        }
        String id = entryId(claim, context);
        Optional<String> cut = TierClock.jvm().cut(id);
        if (cut.isEmpty()) {
            return ConditionEvaluationResult.enabled("");
        }
        ClaimEvidence notRun = new ClaimEvidence(id, claim.title(), test(context), List.of(claim.exercises()));
        Evidence.register(notRun);
        notRun.finish(new Verdicts.Outcome(Verdict.NOT_RUN, cut.get(), List.of()));
        return ConditionEvaluationResult.disabled("NOT_RUN: " + cut.get());
    }

    private static String test(ExtensionContext context) {
        return context.getRequiredTestClass().getSimpleName() + "#" + context.getRequiredTestMethod().getName();
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        Method method = context.getRequiredTestMethod();
        Claim claim = method.getAnnotation(Claim.class);
        String id = entryId(claim, context);
        ClaimEvidence evidence = new ClaimEvidence(id, claim.title(), test(context), List.of(claim.exercises()));
        Evidence.register(evidence);
        TierClock.jvm().started(id);
        context.getStore(NAMESPACE).put(KEY, evidence);
    }

    /** @return the entry's id: the claim's, with its variant or its parameter set's display name in brackets */
    private static String entryId(Claim claim, ExtensionContext context) {
        if (!claim.variant().isEmpty()) {
            return claim.id() + "[" + claim.variant() + "]";
        }
        boolean invocation = context.getParent().flatMap(ExtensionContext::getTestMethod).isPresent();
        return claim.id() + (invocation ? "[" + context.getDisplayName() + "]" : "");
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == ClaimEvidence.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        return evidence(context);
    }

    /**
     * @param context a {@link Claim} test's context (or a nested extension's)
     * @return the evidence opened for it
     * @throws IllegalStateException outside a {@link Claim} test
     */
    public static ClaimEvidence evidence(ExtensionContext context) {
        ClaimEvidence e = context.getStore(NAMESPACE).get(KEY, ClaimEvidence.class);
        if (e == null) {
            throw new IllegalStateException(context.getDisplayName() + " is not a @Claim test");
        }
        return e;
    }

    /** A {@code @BeforeEach} that cannot apply makes the claim NOT_RUN, as the claim's own body would. */
    @Override
    public void handleBeforeEachMethodExecutionException(ExtensionContext context, Throwable thrown) throws Throwable {
        handleTestExecutionException(context, thrown);
    }

    /**
     * An {@code @AfterEach} that cannot apply (e.g. it restarts a container of the suite's own stand, on an external
     * one) had nothing to clean up: the claim keeps its verdict.
     */
    @Override
    public void handleAfterEachMethodExecutionException(ExtensionContext context, Throwable thrown) throws Throwable {
        if (Verdicts.cause(thrown, NotApplicableException.class) == null) {
            throw thrown;
        }
    }

    @Override
    public void handleTestExecutionException(ExtensionContext context, Throwable thrown) throws Throwable {
        NotApplicableException notApplicable = Verdicts.cause(thrown, NotApplicableException.class);
        if (notApplicable != null) {
            throw new TestAbortedException("NOT_RUN: " + notApplicable.getMessage(), notApplicable);
        }
        if (Verdicts.hasCause(thrown, FaultNotObservedException.class)) {
            throw new TestAbortedException("UNVERIFIED: " + thrown.getMessage(), thrown);
        }
        throw thrown;
    }

    @Override
    public void afterEach(ExtensionContext context) {
        ClaimEvidence e = evidence(context);
        Optional<Throwable> thrown = context.getExecutionException();
        Verdicts.Outcome outcome = Verdicts.decide(e, thrown.orElse(null));
        e.finish(outcome);
        Gate gate = Gate.configured();
        List<String> failed = new ArrayList<>();
        List<String> regressed = new ArrayList<>();
        judge(e, outcome, gate, failed, regressed);
        for (ClaimEvidence part : e.parts()) {
            Verdicts.Outcome p = Verdicts.partOf(Verdicts.decide(part, thrown.orElse(null)), e.id(), outcome);
            part.finish(p);
            judge(part, p, gate, failed, regressed);
        }
        if (gate != null) {   // a part that passed in the baseline and this run of its claim no longer produced
            gate.vanishedParts(e.id(), e.parts().stream().map(ClaimEvidence::id).toList()).forEach(r -> regressed.add(r.line()));
        }
        boolean hardFailure = thrown.isPresent() && !(thrown.get() instanceof TestAbortedException);
        boolean red = hardFailure || !failed.isEmpty() || !regressed.isEmpty();
        if (red && !onlyTimeoutsOrCrashes(e, outcome, regressed) && firstRed == null) {
            firstRed = e.id();
        }
        if (!regressed.isEmpty() && !hardFailure) {
            failed.add("regression gate against " + gate.describe() + ":\n    " + String.join("\n    ", regressed));
        }
        if (thrown.isPresent() && (hardFailure || regressed.isEmpty())) {
            return;
        }
        if (!failed.isEmpty()) {
            throw new AssertionError("claim failed on its evidence:\n  " + String.join("\n  ", failed));
        }
        if (outcome.verdict() == Verdict.UNVERIFIED || outcome.verdict() == Verdict.NOT_RUN) {
            throw new TestAbortedException(outcome.verdict() + ": " + outcome.reason());
        }
    }

    /**
     * @return whether the entry is red only by timeouts and exceptions ({@link FailureLine.Kind}): under {@value
     *     #FAIL_FAST} the run goes on to the claims whose checks can still fire (a mutant is killed by a check, never by
     *     a timeout; docs/mutants.md), bounded by the tier's clock ({@link TierClock})
     */
    private static boolean onlyTimeoutsOrCrashes(ClaimEvidence e, Verdicts.Outcome outcome, List<String> regressed) {
        if (outcome.verdict() != Verdict.FAIL || !regressed.isEmpty()) {
            return false;
        }
        List<String> lines = new ArrayList<>(outcome.failures());
        e.parts().forEach(p -> {
            if (p.outcome() != null) {
                lines.addAll(p.outcome().failures());
            }
        });
        return !lines.isEmpty() && lines.stream().noneMatch(l -> FailureLine.kind(l) == FailureLine.Kind.CHECK);
    }

    /** Adds the entry's failures to {@code failed} and, against a gate, its regression to {@code regressed}. */
    private static void judge(ClaimEvidence entry, Verdicts.Outcome outcome, Gate gate, List<String> failed,
                              List<String> regressed) {
        if (outcome.verdict() == Verdict.FAIL) {
            failed.add(entry.id() + ": " + String.join("; ", outcome.failures()));
        }
        Gate.Regression r = gate == null ? null : gate.judge(entry.id(), outcome.verdict(), outcome.reason());
        if (r != null && outcome.verdict() != Verdict.FAIL) {
            regressed.add(r.line());
        }
    }
}
