package dev.seams.report;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Declares, once, which claim of docs/claims.md a test proves (CONTRIBUTING.md "Adding a claim": the claim declared once). The
 * {@link ClaimExtension} then opens the claim's evidence before anything can throw, hands it to the
 * test as a {@link ClaimEvidence} parameter, and derives the verdict when the test and its clean-up
 * ended ({@link Verdicts}).
 *
 * <pre>{@code
 * @Test
 * @Claim(id = "G1", title = "Baseline parity", exercises = {"sink/Sink", "containers/clickhouse/001-tables.sql"})
 * void g1BaselineParity(ClaimEvidence e) { ... }
 * }</pre>
 *
 * The entry's id is {@link #id()}, suffixed with {@code [variant]} when {@link #variant()} is set, or
 * with {@code [<display name>]} for each invocation of a parameterized test (so
 * {@code @ParameterizedTest(name = "n={0}")} gives {@code G3[n=51]}).
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@ExtendWith(ClaimExtension.class)
public @interface Claim {

    /** @return the claim id of docs/claims.md, e.g. {@code G3} */
    String id();

    /** @return the claim's title (docs/claims.md, possibly narrowed to what this test proves) */
    String title();

    /** @return a fixed suffix for a test that proves one facet of the claim, e.g. {@code 3 kills under load} */
    String variant() default "";

    /** @return the classes (relative to src/main/java/dev/seams, e.g. {@code sink/Sink}, or to src/test/java/dev/seams) or files it exercises ({@code ClaimExercisesTest}) */
    String[] exercises() default {};
}
