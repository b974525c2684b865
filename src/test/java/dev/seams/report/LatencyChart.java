package dev.seams.report;

import java.awt.BasicStroke;
import java.awt.Color;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Map;
import org.jfree.chart.ChartFactory;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.plot.ValueMarker;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.StandardXYBarPainter;
import org.jfree.chart.renderer.xy.XYBarRenderer;
import org.jfree.chart.ui.RectangleAnchor;
import org.jfree.chart.ui.TextAnchor;
import org.jfree.data.statistics.HistogramDataset;

/**
 * A latency histogram as an SVG chart (JFreeChart drawn on JFreeSVG): latency in milliseconds on x,
 * number of events per bin on y, and the percentiles as labelled vertical lines (claim B6).
 */
public final class LatencyChart {

    private static final int WIDTH = 900;
    private static final int HEIGHT = 420;
    private static final int MAX_BINS = 40;

    private LatencyChart() {
    }

    /**
     * Writes the chart.
     *
     * @param file        target .svg file (parent directories are created)
     * @param title       chart title
     * @param latenciesMs one latency per event, in milliseconds; at least one
     * @param marks       label → latency in ms to draw as a vertical line (e.g. {@code p50 → 640})
     * @throws IllegalArgumentException if there is no latency
     * @throws UncheckedIOException     if the file cannot be written
     */
    public static void write(Path file, String title, double[] latenciesMs, Map<String, Long> marks) {
        if (latenciesMs.length == 0) {
            throw new IllegalArgumentException("no latency to chart");
        }
        HistogramDataset data = new HistogramDataset();
        data.addSeries("events", latenciesMs, Math.max(1, Math.min(MAX_BINS, latenciesMs.length / 3)));
        JFreeChart chart = ChartFactory.createHistogram(title, "latency (ms)", "events", data,
                PlotOrientation.VERTICAL, false, false, false);
        chart.setBackgroundPaint(Color.WHITE);
        XYPlot plot = chart.getXYPlot();
        plot.setBackgroundPaint(Color.WHITE);
        plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
        plot.getDomainAxis().setUpperMargin(0.15);   // room for the labels of the rightmost lines
        XYBarRenderer bars = (XYBarRenderer) plot.getRenderer();
        bars.setBarPainter(new StandardXYBarPainter());
        bars.setShadowVisible(false);
        bars.setSeriesPaint(0, new Color(70, 110, 180));
        int index = 0;
        for (Map.Entry<String, Long> mark : marks.entrySet()) {
            ValueMarker marker = new ValueMarker(mark.getValue());
            marker.setPaint(Color.RED);
            marker.setStroke(new BasicStroke(1.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {6f, 4f}, 0f));
            marker.setLabel(mark.getKey() + " " + mark.getValue() + " ms");
            marker.setLabelAnchor(index % 2 == 0 ? RectangleAnchor.TOP_RIGHT : RectangleAnchor.RIGHT);
            marker.setLabelTextAnchor(index % 2 == 0 ? TextAnchor.TOP_LEFT : TextAnchor.CENTER_LEFT);
            plot.addDomainMarker(marker);
            index++;
        }
        Svg.write(file, chart, WIDTH, HEIGHT);
    }
}
