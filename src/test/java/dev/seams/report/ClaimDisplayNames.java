package dev.seams.report;

import java.lang.reflect.Method;
import java.util.List;
import org.junit.jupiter.api.DisplayNameGenerator;

/**
 * Display names that carry the claim entry a test records (issue 26: a CI dashboard reading JUnit's XML shows
 * {@code B12[commit interval 5s] Group membership changes stop nothing, with --commit-interval 5s}, not
 * {@code b12WithACommitInterval}): a {@link Claim} test is named by its entry id ({@code id[variant]}) and title; any
 * other test keeps JUnit's standard name. Set as the default generator in {@code junit-platform.properties}; failsafe
 * writes these names into its XML ({@code usePhrasedTestCaseMethodName}, pom.xml). A parameterized claim's
 * invocations keep their own names ({@code n=51}), which {@link ClaimExtension} appends to the entry id.
 */
public class ClaimDisplayNames extends DisplayNameGenerator.Standard {

    /**
     * @return {@code <entry id> <title>} for a {@link Claim} test, else JUnit's standard name
     */
    @Override
    public String generateDisplayNameForMethod(List<Class<?>> enclosingInstanceTypes, Class<?> testClass, Method testMethod) {
        Claim claim = testMethod.getAnnotation(Claim.class);
        if (claim == null) {
            return super.generateDisplayNameForMethod(enclosingInstanceTypes, testClass, testMethod);
        }
        return entryId(claim) + " " + claim.title();
    }

    /** @return the claim's entry id as {@link ClaimExtension} records it for a test that is not parameterized */
    static String entryId(Claim claim) {
        return claim.id() + (claim.variant().isEmpty() ? "" : "[" + claim.variant() + "]");
    }
}
