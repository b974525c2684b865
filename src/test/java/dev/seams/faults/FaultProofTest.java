package dev.seams.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** A fault's proof carries what the injection measured, some of it completed only while the fault heals (claim B5). */
class FaultProofTest {

    @Test
    void figuresKeepTheirOrderAndFuturesAreRecordedOnceComplete() {
        CompletableFuture<Object> later = new CompletableFuture<>();
        Fault.Proof proof = Fault.Proof.of("exit code 137").with("seconds_to_new_leader", 9.4).with("seconds_to_streams_commit_after_kill", later);
        assertThat(proof.tookEffect()).isTrue();
        assertThat(proof.figures()).containsKeys("seconds_to_new_leader", "seconds_to_streams_commit_after_kill");
        later.complete(12.1);
        assertThat(proof.measured()).containsExactly(
                entry("seconds_to_new_leader", 9.4),
                entry("seconds_to_streams_commit_after_kill", 12.1));
        assertThat(Fault.Proof.missing("exit code 0").figures()).isEmpty();
    }
}
