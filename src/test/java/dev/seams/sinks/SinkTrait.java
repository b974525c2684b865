package dev.seams.sinks;

import dev.seams.report.NotApplicableException;

/**
 * What a sink under test has, as the claims that concern the sink need it (docs/sinks.md "The contract"). A claim that
 * needs a trait the chosen sink lacks is NOT_RUN with the reason {@link SinkUnderTest#require} gives, never skipped in
 * silence.
 */
public enum SinkTrait {
    /** Rejects what ds-streams cannot have written, with a reason, into a dead-letter topic (G10, G11, B11). */
    DEAD_LETTER_QUEUE("no dead-letter queue: a record it cannot read is not rejected with a reason into a topic"),
    /** Keeps each row's record position ({@code raw_totals.kafka_partition}, {@code kafka_offset}; G14, B5). */
    RECORD_POSITION("no record position in raw_totals (kafka_partition and kafka_offset are -1)"),
    /** A process of its own that the suite starts, stops gracefully and kills (B5's sink faults, B9, B12). */
    PROCESS("no process of its own to stop or kill: it runs inside ClickHouse"),
    /** Reads Debezium's change events ({@code orders.events}) into {@code order_dedup} and {@code order_counts_raw} (G3). */
    DEDUP_DEMO("no dedup-demo mode: it does not read Debezium's change events into order_dedup"),
    /** Reads with another isolation level than read_committed when told to (G15's read_uncommitted twin). */
    ISOLATION_CHOICE("no choice of isolation level per run"),
    /**
     * ds-sink's own options: its test-only switches (--dup, validation off, offset as version, injected faults) that
     * negative controls use, its opt-in rules (--customers, --max-value-bytes) and its consumer tuning (batching,
     * commit interval, static membership, session timeout, client properties).
     */
    DS_SINK_OPTIONS("none of ds-sink's own options (test-only switches, opt-in rules, consumer tuning)");

    private final String lacking;

    SinkTrait(String lacking) {
        this.lacking = lacking;
    }

    /** @return what a sink without this trait lacks, the reason of a NOT_RUN claim */
    public String lacking() {
        return lacking;
    }

    /**
     * @param sink the sink without this trait
     * @param why  what the claim needs it for
     * @return the claim's NOT_RUN: {@code <sink>: <what it lacks> (<why>)}
     */
    NotApplicableException missingFrom(String sink, String why) {
        return new NotApplicableException(sink + ": " + lacking + " (" + why + ")");
    }
}
