package dev.seams.report;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Rectangle;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.jfree.chart.ChartFactory;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.plot.ValueMarker;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.chart.ui.RectangleAnchor;
import org.jfree.chart.ui.TextAnchor;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;
import org.jfree.svg.SVGGraphics2D;

/**
 * Lag over time as an SVG chart (JFreeChart drawn on JFreeSVG): time in seconds on x, lag in
 * offsets per consumer group and topic on the left y axis, the sampler's counters (e.g. rows stored
 * in ClickHouse), if any, on a right y axis, each mark (kill -9, restart, a fault injected or healed)
 * as a labelled vertical line: red for a kill or an injection, green otherwise. Where nothing was measured the line
 * has a gap ({@link #series}).
 */
public final class LagChart {

    /**
     * One sample: seconds since sampling started, the lag per series (offsets) and the value of
     * each counter (e.g. rows stored in ClickHouse); a series or counter that could not be read at
     * that moment is absent.
     */
    public record Sample(double seconds, Map<String, Long> lags, Map<String, Long> counts) {

        /** A sample of lags only. */
        public Sample(double seconds, Map<String, Long> lags) {
            this(seconds, lags, Map.of());
        }
    }

    /** An event on the time axis (e.g. "kill -9", "restart"). */
    public record Mark(double seconds, String label) {
    }


    private static final int WIDTH = 900;
    private static final int HEIGHT = 420;

    private LagChart() {
    }

    /** A pause between two samples longer than this many times their median interval is drawn as a gap. */
    static final double GAP_FACTOR = 3;

    /**
     * One line of the chart, with gaps where nothing was measured (issue 37, "lag charts with gaps where no sample was
     * taken"): a sample without this series' value (e.g. the lag while the broker is down, the rows while ClickHouse
     * is) is a gap at its time, and so is a pause between samples longer than {@value #GAP_FACTOR} times their median
     * interval (the sampler itself held up); a line never joins two measured points across either.
     *
     * @param name    the series' name
     * @param samples the samples, in time order
     * @param value   the series' value in a sample, or null where it was not measured
     * @return the series: a null value at each gap
     */
    static XYSeries series(String name, List<Sample> samples, java.util.function.Function<Sample, Long> value) {
        double[] intervals = java.util.stream.IntStream.range(1, samples.size())
                .mapToDouble(i -> samples.get(i).seconds() - samples.get(i - 1).seconds()).sorted().toArray();
        double median = intervals.length == 0 ? 0 : intervals[intervals.length / 2];
        XYSeries series = new XYSeries(name);
        for (int i = 0; i < samples.size(); i++) {
            Sample sample = samples.get(i);
            if (i > 0 && median > 0 && sample.seconds() - samples.get(i - 1).seconds() > GAP_FACTOR * median) {
                series.add((sample.seconds() + samples.get(i - 1).seconds()) / 2, null);
            }
            series.add(sample.seconds(), value.apply(sample));
        }
        return series;
    }

    /**
     * Writes a chart of any sampled series on the same clock (e.g. WAL retained behind replication slots, B14).
     *
     * @param file      target .svg file (parent directories are created)
     * @param title     chart title
     * @param valueAxis the left y axis' label, with its unit
     * @param seriesNames the series to draw, in order: keys of {@link Sample#lags()}
     * @param samples   the samples
     * @param marks     events to draw as vertical lines
     */
    public static void write(Path file, String title, String valueAxis, java.util.Collection<String> seriesNames,
                             List<Sample> samples, List<Mark> marks) {
        XYSeriesCollection data = new XYSeriesCollection();
        for (String name : seriesNames) {
            data.addSeries(series(name, samples, sample -> sample.lags().get(name)));
        }
        XYSeriesCollection counts = new XYSeriesCollection();
        samples.stream().flatMap(s -> s.counts().keySet().stream()).distinct()
                .forEach(name -> counts.addSeries(series(name, samples, sample -> sample.counts().get(name))));
        JFreeChart chart = ChartFactory.createXYLineChart(title, "seconds", valueAxis, data);
        if (counts.getSeriesCount() > 0) {
            XYPlot p = chart.getXYPlot();
            p.setDataset(1, counts);
            p.setRangeAxis(1, new NumberAxis("rows"));
            p.mapDatasetToRangeAxis(1, 1);
            XYLineAndShapeRenderer renderer = new XYLineAndShapeRenderer(true, false);
            for (int i = 0; i < counts.getSeriesCount(); i++) {
                renderer.setSeriesStroke(i, new BasicStroke(1.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {2f, 3f}, 0f));
                renderer.setSeriesPaint(i, Color.DARK_GRAY);
            }
            p.setRenderer(1, renderer);
        }
        chart.setBackgroundPaint(Color.WHITE);
        XYPlot plot = chart.getXYPlot();
        plot.setBackgroundPaint(Color.WHITE);
        plot.setDomainGridlinePaint(Color.LIGHT_GRAY);
        plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
        for (int i = 0; i < data.getSeriesCount(); i++) {
            plot.getRenderer().setSeriesStroke(i, new BasicStroke(2f));
        }
        plot.getDomainAxis().setUpperMargin(0.08);
        int index = 0;
        for (Mark mark : marks) {
            ValueMarker marker = new ValueMarker(mark.seconds());
            marker.setPaint(mark.label().startsWith("kill") || mark.label().contains("injected") ? Color.RED : new Color(0, 128, 0));
            marker.setStroke(new BasicStroke(1.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {6f, 4f}, 0f));
            marker.setLabel(mark.label());
            marker.setLabelFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
            // alternate label heights so marks close in time stay readable
            marker.setLabelAnchor(index % 2 == 0 ? RectangleAnchor.TOP_RIGHT : RectangleAnchor.RIGHT);
            marker.setLabelTextAnchor(index % 2 == 0 ? TextAnchor.TOP_LEFT : TextAnchor.CENTER_LEFT);
            index++;
            plot.addDomainMarker(marker);
        }
        SVGGraphics2D svg = new SVGGraphics2D(WIDTH, HEIGHT);
        chart.draw(svg, new Rectangle(0, 0, WIDTH, HEIGHT));
        try {
            Files.createDirectories(file.getParent());
            Files.writeString(file, svg.getSVGDocument());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }
}
