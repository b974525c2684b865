package dev.seams.consumer;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** A clock a unit test moves by hand (run windows, thread-replacement windows). */
public final class ManualClock extends Clock {

    private Instant now = Instant.parse("2026-12-01T10:00:00Z");

    /** Moves the clock forward. */
    public void advance(Duration by) {
        now = now.plus(by);
    }

    @Override
    public Instant instant() {
        return now;
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return this;
    }
}
