package dev.seams.inbox;

import java.util.Objects;

/**
 * FAULT INJECTION, TEST-ONLY: the inbox sink's crash windows and negative control (claim B4); {@link #NONE} in
 * production.
 *
 * @param crash        where the process halts, and after how many polls ({@code --crash-at}; {@link CrashSwitch#OFF})
 * @param keyByOrderId key the keys table by the record key (the order id, the seed's natural key) instead of the
 *                     change, which takes an UPDATE for a repeat — the negative control of B4
 */
public record InboxFaults(CrashSwitch crash, boolean keyByOrderId) {

    /** No fault: how the inbox runs. */
    public static final InboxFaults NONE = new InboxFaults(CrashSwitch.OFF, false);

    /** @throws NullPointerException if the crash switch is null */
    public InboxFaults {
        Objects.requireNonNull(crash, "crash");
    }
}
