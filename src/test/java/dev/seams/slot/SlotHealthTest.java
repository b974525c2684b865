package dev.seams.slot;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** A slot's verdict from what {@code pg_replication_slots} says (claim B14). */
class SlotHealthTest {

    private static final long MIB = 1 << 20;

    @Test
    void aMissingOrInvalidatedSlotIsLostWhateverElseItSays() {
        assertThat(new SlotHealth("s", false, false, null, -1).verdict(Long.MAX_VALUE)).isEqualTo(SlotHealth.Verdict.LOST);
        assertThat(new SlotHealth("s", true, true, "lost", -1).verdict(Long.MAX_VALUE)).isEqualTo(SlotHealth.Verdict.LOST);
    }

    @Test
    void anUnreservedSlotOrOneAboveTheBoundIsAtRisk() {
        assertThat(new SlotHealth("s", true, true, "unreserved", MIB).verdict(Long.MAX_VALUE)).isEqualTo(SlotHealth.Verdict.AT_RISK);
        assertThat(new SlotHealth("s", true, true, "extended", 65 * MIB).verdict(64 * MIB)).isEqualTo(SlotHealth.Verdict.AT_RISK);
    }

    @Test
    void aReservedOrExtendedSlotWithinTheBoundIsHealthyActiveOrNot() {
        assertThat(new SlotHealth("s", true, false, "reserved", 64 * MIB).verdict(64 * MIB)).isEqualTo(SlotHealth.Verdict.HEALTHY);
        assertThat(new SlotHealth("s", true, true, "extended", -1).verdict(0)).isEqualTo(SlotHealth.Verdict.HEALTHY);
    }

    @Test
    void itsLineNamesTheSlotAndWhatPostgresSaid() {
        assertThat(new SlotHealth("seams_orders", true, false, "lost", -1)).hasToString(
                "slot seams_orders: exists inactive wal_status=lost retained_bytes=unknown");
        assertThat(new SlotHealth("seams_orders", false, false, null, -1)).hasToString("slot seams_orders: does not exist");
    }
}
