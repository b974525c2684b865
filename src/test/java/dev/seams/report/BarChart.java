package dev.seams.report;

import java.awt.Color;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Map;
import org.jfree.chart.ChartFactory;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.plot.ValueMarker;
import org.jfree.chart.renderer.category.BarRenderer;
import org.jfree.chart.renderer.category.StandardBarPainter;
import org.jfree.data.category.DefaultCategoryDataset;

/**
 * Grouped bars as an SVG chart (JFreeChart drawn on JFreeSVG, like {@link LagChart} and
 * {@link LatencyChart}): one group per category (e.g. a repetition, a hop), one bar per series
 * (e.g. a contender, a percentile), and optional horizontal lines (e.g. a goal ratio).
 */
public final class BarChart {

    private static final int WIDTH = 900;
    private static final int HEIGHT = 420;

    private BarChart() {
    }

    /**
     * Writes the chart.
     *
     * @param file      target .svg file (parent directories are created)
     * @param title     chart title
     * @param valueAxis label of the value axis, with its unit, e.g. {@code rows/s}
     * @param bars      series → (category → value), in display order
     * @param lines     label → value to draw as a horizontal line (e.g. {@code goal 0.8 → 0.8}); may be empty
     * @throws UncheckedIOException if the file cannot be written
     */
    public static void write(Path file, String title, String valueAxis, Map<String, Map<String, ? extends Number>> bars,
                             Map<String, Double> lines) {
        DefaultCategoryDataset data = new DefaultCategoryDataset();
        bars.forEach((series, values) -> values.forEach((category, value) -> data.addValue(value, series, category)));
        JFreeChart chart = ChartFactory.createBarChart(title, null, valueAxis, data, PlotOrientation.VERTICAL,
                true, false, false);
        chart.setBackgroundPaint(Color.WHITE);
        CategoryPlot plot = chart.getCategoryPlot();
        plot.setBackgroundPaint(Color.WHITE);
        plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
        BarRenderer renderer = (BarRenderer) plot.getRenderer();
        renderer.setBarPainter(new StandardBarPainter());
        renderer.setShadowVisible(false);
        lines.forEach((label, value) -> {
            ValueMarker marker = new ValueMarker(value);
            marker.setPaint(Color.RED);
            marker.setLabel(label);
            plot.addRangeMarker(marker);
        });
        Svg.write(file, chart, WIDTH, HEIGHT);
    }
}
