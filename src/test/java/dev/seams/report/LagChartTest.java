package dev.seams.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LagChartTest {

    @Test
    void countersGetTheirOwnAxisBesideTheLags(@TempDir Path dir) throws Exception {
        Path svg = dir.resolve("b5-x-lag.svg");
        LagChart.write(svg, "B5 x", "lag (offsets)", java.util.List.of("ds-sink on customer.totals"), List.of(
                new LagChart.Sample(0.0, Map.of("ds-sink on customer.totals", 0L), Map.of("rows in raw_totals", 10L)),
                new LagChart.Sample(1.0, Map.of("ds-sink on customer.totals", 40L), Map.of()),   // ClickHouse down: no count
                new LagChart.Sample(2.0, Map.of(), Map.of("rows in raw_totals", 90L))),          // broker down: no lag
                List.of(new LagChart.Mark(0.5, "x injected @10%"), new LagChart.Mark(1.5, "healed @10%")));
        assertThat(Files.readString(svg)).contains("ds-sink on customer.totals", "rows in raw_totals", "x injected @10%", "healed @10%");
    }

    @Test
    void aSeriesHasAGapWhereItsValueWasNotMeasuredAndWhereTheSamplerPaused() {
        List<LagChart.Sample> samples = List.of(
                new LagChart.Sample(0.0, Map.of("lag", 1L)), new LagChart.Sample(0.5, Map.of("lag", 2L)),
                new LagChart.Sample(1.0, Map.of()),                   // not measured
                new LagChart.Sample(1.5, Map.of("lag", 4L)),
                new LagChart.Sample(5.5, Map.of("lag", 5L)));        // 4 s after the last: the sampler paused
        var series = LagChart.series("lag", samples, s -> s.lags().get("lag"));
        assertThat(series.getItems()).extracting(i -> ((org.jfree.data.xy.XYDataItem) i).getXValue() + "=" + ((org.jfree.data.xy.XYDataItem) i).getY())
                .containsExactly("0.0=1", "0.5=2", "1.0=null", "1.5=4", "3.5=null", "5.5=5");
    }

    @Test
    void lagsAloneDrawNoCounter(@TempDir Path dir) throws Exception {
        Path svg = dir.resolve("g.svg");
        LagChart.write(svg, "G", "lag (offsets)", java.util.List.of("ds-sink on customer.totals"), List.of(new LagChart.Sample(0.0, Map.of("ds-sink on customer.totals", 3L))), List.of());
        assertThat(Files.readString(svg)).contains("ds-sink on customer.totals").doesNotContain("rows in raw_totals");
    }
}
