package dev.seams.check;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ProcessMemoryTest {

    private static final String STATUS = "Name:\tjava\nVmPeak:\t 3902112 kB\nVmHWM:\t  368300 kB\nVmRSS:\t  365788 kB\nThreads:\t72\n";

    @Test
    void readsPeakAndResidentInBytesAndTheLastHeapLimit() {
        ProcessMemory m = ProcessMemory.parse(STATUS, new String[] {"java", "-Xms256m", "-Xmx1g", "-XX:+UseG1GC", "-Xmx384M", "Main"});
        assertThat(m.peakBytes()).isEqualTo(368_300L * 1024);
        assertThat(m.residentBytes()).isEqualTo(365_788L * 1024);
        assertThat(m.maxHeapBytes()).as("the JVM applies the last -Xmx").isEqualTo(384L << 20);
        assertThat(m.bound(256L << 20)).isEqualTo(640L << 20);
        assertThat(m).hasToString("peak 359 MiB, now 357 MiB, -Xmx 384 MiB");
    }

    @Test
    void aProcessWithoutHeapLimitHasNoBound() {
        ProcessMemory m = ProcessMemory.parse(STATUS, new String[] {"postgres", "-D", "/data"});
        assertThat(m.maxHeapBytes()).isEqualTo(-1);
        assertThat(m.bound(1)).isEqualTo(-1);
        assertThat(ProcessMemory.parse(STATUS, new String[] {"java", "-Xmx2147483648"}).maxHeapBytes()).isEqualTo(2_147_483_648L);
    }

    @Test
    void aStatusWithoutTheFieldsIsAnError() {
        assertThatThrownBy(() -> ProcessMemory.parse("Name:\tkthreadd\n", new String[0]))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("VmHWM");
    }
}
