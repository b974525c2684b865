package dev.seams.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The B6 latency histogram is a standalone SVG document with the percentile lines labelled. */
class LatencyChartTest {

    @Test
    void writesAnSvgWithTheMarks(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("sub/latency.svg");
        Map<String, Long> marks = new LinkedHashMap<>();
        marks.put("p50", 610L);
        marks.put("p99", 1480L);
        LatencyChart.write(file, "B6 test", new double[] {500, 610, 620, 700, 1480, 1500}, marks);

        String svg = Files.readString(file);
        assertThat(svg).contains("<svg").contains("</svg>").contains("p50 610 ms").contains("p99 1480 ms").contains("B6 test");
    }

    @Test
    void refusesAnEmptySample(@TempDir Path dir) {
        assertThatThrownBy(() -> LatencyChart.write(dir.resolve("x.svg"), "t", new double[0], Map.of()))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
