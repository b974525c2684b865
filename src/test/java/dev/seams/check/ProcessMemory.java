package dev.seams.check;

import dev.seams.stand.ContainerControl;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * The resident memory of a container's main process (PID 1: the JVM of Connect, ds-streams, the sink) as the kernel
 * accounts it, and the heap limit on its command line (claim B16: a big source transaction must not make a link hold
 * more memory than it is given).
 *
 * @param peakBytes     {@code VmHWM} of {@code /proc/1/status}: the most resident memory the process has held since it
 *                      started, bytes
 * @param residentBytes {@code VmRSS}: what it holds now, bytes
 * @param maxHeapBytes  the last {@code -Xmx} of {@code /proc/1/cmdline} (the one the JVM applies), bytes; -1 if none
 */
public record ProcessMemory(long peakBytes, long residentBytes, long maxHeapBytes) {

    private static final long KIB = 1024;

    /**
     * Reads PID 1 of the running container.
     *
     * @throws IllegalStateException if the files cannot be read or lack the fields
     */
    public static ProcessMemory of(ContainerControl container) {
        return parse(new String(container.readFile("/proc/1/status"), StandardCharsets.UTF_8),
                new String(container.readFile("/proc/1/cmdline"), StandardCharsets.UTF_8).split("\0"));
    }

    /**
     * @param status  the text of {@code /proc/PID/status}
     * @param cmdline the arguments of {@code /proc/PID/cmdline}
     * @throws IllegalStateException if {@code VmHWM} or {@code VmRSS} is missing
     */
    static ProcessMemory parse(String status, String[] cmdline) {
        long maxHeap = -1;
        for (String arg : cmdline) {
            if (arg.startsWith("-Xmx")) {
                maxHeap = bytes(arg.substring(4));
            }
        }
        return new ProcessMemory(field(status, "VmHWM"), field(status, "VmRSS"), maxHeap);
    }

    /** @return the limit a JVM's resident memory stays under: its heap limit plus {@code offHeapBytes}; -1 without a heap limit */
    public long bound(long offHeapBytes) {
        return maxHeapBytes < 0 ? -1 : maxHeapBytes + offHeapBytes;
    }

    /** @return e.g. {@code peak 412 MiB, now 398 MiB, -Xmx 1024 MiB} */
    @Override
    public String toString() {
        return "peak " + mib(peakBytes) + ", now " + mib(residentBytes) + (maxHeapBytes < 0 ? "" : ", -Xmx " + mib(maxHeapBytes));
    }

    /** @return the bytes as whole MiB, e.g. {@code 412 MiB} */
    public static String mib(long bytes) {
        return bytes / (KIB * KIB) + " MiB";
    }

    private static long field(String status, String name) {
        return status.lines().filter(l -> l.startsWith(name + ":")).findFirst()
                .map(l -> Long.parseLong(l.substring(name.length() + 1).trim().split("\\s+")[0]) * KIB)   // "VmHWM:   368300 kB"
                .orElseThrow(() -> new IllegalStateException("no " + name + " in the process status"));
    }

    /** The JVM's size syntax: digits with an optional k, m, g or t (either case), else bytes. */
    private static long bytes(String size) {
        String s = size.toLowerCase(Locale.ROOT);
        char unit = s.charAt(s.length() - 1);
        int shift = switch (unit) {
            case 'k' -> 10;
            case 'm' -> 20;
            case 'g' -> 30;
            case 't' -> 40;
            default -> 0;
        };
        return Long.parseLong(shift == 0 ? s : s.substring(0, s.length() - 1)) << shift;
    }
}
