package dev.seams.report;

import java.awt.Rectangle;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.jfree.chart.JFreeChart;
import org.jfree.svg.SVGGraphics2D;
import org.jfree.svg.SVGUtils;

/** Draws a JFreeChart chart into an SVG file (JFreeSVG), for the report's charts. */
final class Svg {

    private Svg() {
    }

    /**
     * @param file   target .svg file (parent directories are created)
     * @param chart  the chart
     * @param width  pixels
     * @param height pixels
     * @throws UncheckedIOException if the file cannot be written
     */
    static void write(Path file, JFreeChart chart, int width, int height) {
        SVGGraphics2D svg = new SVGGraphics2D(width, height);
        chart.draw(svg, new Rectangle(width, height));
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            SVGUtils.writeToSVG(file.toFile(), svg.getSVGElement());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }
}
