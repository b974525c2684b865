package dev.seams.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.seams.consumer.Classification;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** The one write in flight of the sink (issue 26): its outcome, the order it enforces, and what a failure becomes. */
class InFlightWriteTest {

    @Test
    void anAcknowledgedWriteGivesItsBatchBackWithoutAFailure() {
        try (InFlightWrite<String> inFlight = new InFlightWrite<>()) {
            CompletableFuture<Void> write = new CompletableFuture<>();
            inFlight.start("batch 1", () -> write);
            assertThat(inFlight.isEmpty()).isFalse();

            write.complete(null);
            InFlightWrite.Outcome<String> done = inFlight.await();

            assertThat(done.batch()).isEqualTo("batch 1");
            assertThat(done.failure()).isNull();
            assertThat(inFlight.isEmpty()).isTrue();
            assertThat(inFlight.await()).as("nothing in flight any more").isNull();
        }
    }

    @Test
    void aRefusedWriteGivesItsFailureBackAsItWas() {
        try (InFlightWrite<String> inFlight = new InFlightWrite<>()) {
            WriteFailedException refused = new WriteFailedException("insert of 1000 rows into raw_totals",
                    Classification.retriable("connection refused"), null);
            inFlight.start("batch 1", () -> CompletableFuture.failedFuture(refused));

            InFlightWrite.Outcome<String> done = inFlight.await();

            assertThat(done.batch()).isEqualTo("batch 1");
            assertThat(done.failure()).isSameAs(refused);
        }
    }

    @Test
    void anythingElseAWriteThrowsIsAPermanentFailureOfItsBatch() {
        try (InFlightWrite<String> inFlight = new InFlightWrite<>()) {
            inFlight.start("batch 1", () -> CompletableFuture.runAsync(() -> {
                throw new IllegalStateException("a bug");
            }));

            InFlightWrite.Outcome<String> done = inFlight.await();

            assertThat(done.failure()).isNotNull();
            assertThat(done.failure().classification().retriable()).as("never carried on past").isFalse();
            assertThat(done.failure()).hasRootCauseInstanceOf(IllegalStateException.class);
        }
    }

    @Test
    void aSecondWriteDoesNotStartWhileOneIsInFlight() {
        try (InFlightWrite<String> inFlight = new InFlightWrite<>()) {
            CompletableFuture<Void> first = new CompletableFuture<>();
            inFlight.start("batch 1", () -> first);
            AtomicBoolean started = new AtomicBoolean();

            assertThatThrownBy(() -> inFlight.start("batch 2", () -> {
                started.set(true);
                return CompletableFuture.completedFuture(null);
            })).isInstanceOf(IllegalStateException.class);

            assertThat(started).as("the second write was not started").isFalse();
            first.complete(null);
            assertThat(inFlight.await().batch()).isEqualTo("batch 1");
        }
    }
}
