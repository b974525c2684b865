package dev.seams.stand;

import dev.seams.sink.SinkMode;
import dev.seams.sink.SinkOptions;
import dev.seams.sink.SinkSummary;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * What a claim test works with, handed to it as a parameter instead of a copied preamble (CONTRIBUTING.md
 * "Adding a claim"): the per-JVM {@link Stand} and readers of its truths — PostgreSQL
 * ({@link Pg}), ClickHouse ({@link ClickHouse}) and Kafka ({@link Topics}). The stand starts on the
 * first call of {@link #stand()} (or of a reader), inside the test, so that a stand that cannot
 * start makes the claim ENVIRONMENT. Register {@link Resolver} on the test class:
 *
 * <pre>{@code
 * @ExtendWith(StandContext.Resolver.class)
 * class ChangelogIT {
 *     @Test
 *     @Claim(id = "G1", title = "Baseline parity")
 *     void g1(ClaimEvidence e, StandContext s) { s.pg().seed(51, 5, 1); s.settle(); ... }
 * }
 * }</pre>
 */
public final class StandContext {

    /** Resolves a {@link StandContext} parameter. */
    public static final class Resolver implements ParameterResolver {

        @Override
        public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
            return parameter.getParameter().getType() == StandContext.class;
        }

        @Override
        public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
            return new StandContext();
        }
    }

    private StandContext() {
    }

    /**
     * @return the running stand, started on first use
     * @throws StandUnavailableException if it cannot start
     */
    public Stand stand() {
        return Stand.get();
    }

    /** @return the source of truth, read at the moment of each call */
    public Pg pg() {
        return Pg.of(stand());
    }

    /** @return the ClickHouse of the stand */
    public ClickHouse ch() {
        return ClickHouse.of(stand());
    }

    /** @return the broker's topics, groups and offsets */
    public Topics topics() {
        return Topics.of(stand());
    }

    /** Waits until ds-streams has caught up and its latest snapshot of every customer equals PG ({@link Pipeline#awaitStreamsMatchesPg}). */
    public void settle() {
        Pipeline.awaitStreamsMatchesPg(stand());
    }

    /**
     * Waits as {@link #settle()} does, but returns, instead of failing, once the pipeline stopped moving without
     * matching PG ({@link Pipeline#awaitStreamsDrained}): for a claim whose own checks compare with PostgreSQL.
     *
     * @return whether ds-streams matched PG, and how not
     */
    public Pipeline.Settle drain() {
        return Pipeline.awaitStreamsDrained(stand());
    }

    /**
     * Runs the sink in this JVM until it caught up with the end offsets read at its start ({@link Pipeline#sink}).
     *
     * @param tweak adjusts the default options (another run window: {@code o -> o.withUntilIdle(...)})
     * @return its summary
     */
    public SinkSummary sink(SinkMode mode, UnaryOperator<SinkOptions> tweak) {
        return Pipeline.sink(stand(), mode, tweak);
    }
}
