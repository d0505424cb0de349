package dev.depbloom.bench;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.font.FontRenderContext;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import javax.imageio.ImageIO;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.Marker;
import org.knowm.xchart.style.markers.SeriesMarkers;

/** A {@link ScheduleComparison}'s plots (XChart): AP against events/s, and AP against time. */
public final class ComparisonPlots {
  private ComparisonPlots() {}

  private static final int WIDTH = 960;
  private static final int MIN_HEIGHT = 580;

  /** Ten colours that stay apart (Tableau 10). */
  private static final Color[] PALETTE = {
    new Color(0x4e79a7), new Color(0xf28e2b), new Color(0xe15759),
    new Color(0x76b7b2), new Color(0x59a14f), new Color(0xedc948),
    new Color(0xb07aa1), new Color(0xff9da7), new Color(0x9c755f),
    new Color(0x7f7f7f)
  };

  /**
   * Best validation AP against events/s under {@code clock}, one colour per row: projected as a
   * large marker whose shape says the schedule (square sequential, circle disttgl, diamond
   * depbloom), and measured here as a cross of the same colour.
   */
  public static void plot(ScheduleComparison.Result r, String clock, String title, Path png) {
    XYChart chart =
        chart(
            title,
            "training events/s (marker: projected, '" + clock + "'; cross: measured here)",
            "#,##0",
            "best validation AP");
    chart.getStyler().setDefaultSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
    chart.getStyler().setMarkerSize(12);
    int i = 0;
    for (ScheduleComparison.Row row : r.rows()) {
      Color color = PALETTE[i++ % PALETTE.length];
      double ap = row.run().bestValAp();
      XYSeries projected =
          chart.addSeries(
              row.label(),
              new double[] {row.targets().get(clock).eventsPerSecond()},
              new double[] {ap});
      projected.setMarker(marker(row));
      projected.setMarkerColor(color);
      XYSeries measured =
          chart.addSeries(
              row.label() + " (measured)",
              new double[] {row.targets().get(Targets.HERE).eventsPerSecond()},
              new double[] {ap});
      measured.setMarker(SeriesMarkers.CROSS);
      measured.setMarkerColor(color);
      measured.setShowInLegend(false);
    }
    save(chart, png);
  }

  /**
   * Validation AP against training seconds under {@code clock}, one line per row through every
   * validation, with the target as a dashed line: where each row crosses it is its time to target.
   */
  public static void plotCurves(ScheduleComparison.Result r, String clock, String title, Path png) {
    XYChart chart = chart(title, "training seconds ('" + clock + "')", "0.###", "validation AP");
    chart.getStyler().setDefaultSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
    chart.getStyler().setMarkerSize(6);
    int i = 0;
    double longest = 0;
    for (ScheduleComparison.Row row : r.rows()) {
      List<RowRun.ValidationPoint> points = row.run().validations();
      if (points.isEmpty()) {
        continue;
      }
      double[] x = points.stream().mapToDouble(p -> Targets.time(p, clock)).toArray();
      double[] y = points.stream().mapToDouble(RowRun.ValidationPoint::valAp).toArray();
      longest = Math.max(longest, x[x.length - 1]);
      Color color = PALETTE[i++ % PALETTE.length];
      XYSeries s = chart.addSeries(row.label(), x, y);
      s.setLineColor(color);
      s.setMarkerColor(color);
      s.setMarker(marker(row));
    }
    XYSeries target =
        chart.addSeries(
            "target", new double[] {0, longest}, new double[] {r.targetValAp(), r.targetValAp()});
    target.setMarker(SeriesMarkers.NONE);
    target.setLineColor(Color.GRAY);
    target.setLineStyle(
        new BasicStroke(
            1.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {6f, 4f}, 0f));
    save(chart, png);
  }

  /**
   * A chart whose y axis is a validation AP. Both axes get fixed tick patterns: where an axis spans
   * a single value (one row, one validation) XChart's own ticks print it to sixteen digits.
   */
  static XYChart chart(String title, String xAxis, String xPattern, String yAxis) {
    XYChart chart =
        new XYChartBuilder()
            .width(WIDTH)
            .height(MIN_HEIGHT)
            .title(title)
            .xAxisTitle(xAxis)
            .yAxisTitle(yAxis)
            .build();
    chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
    chart.getStyler().setXAxisDecimalPattern(xPattern);
    chart.getStyler().setYAxisDecimalPattern("0.000");
    return chart;
  }

  /**
   * The height at which {@code chart}'s legend fits: XChart draws the legend right of the plot, one
   * entry a line (the larger of its label and its marker, the legend's padding between and around
   * them), centred on the chart, and runs it over the title and off the image when it is taller
   * than the chart (the default rows of a G = 8 bench are 37). The label's height is taken from its
   * font's line metrics, at least the glyphs' bounds that XChart measures.
   */
  static int height(XYChart chart) {
    Styler styler = chart.getStyler();
    double text =
        styler
            .getLegendFont()
            .getLineMetrics("Ag", new FontRenderContext(null, true, true))
            .getHeight();
    double entry = Math.max(text, styler.getMarkerSize()) + styler.getLegendPadding();
    long entries = chart.getSeriesMap().values().stream().filter(XYSeries::isShowInLegend).count();
    double legend = entries * entry + styler.getLegendPadding() + 2.0 * styler.getChartPadding();
    return Math.max(MIN_HEIGHT, (int) Math.ceil(legend));
  }

  /** The marker of a row's schedule: square sequential, circle disttgl, diamond depbloom. */
  private static Marker marker(ScheduleComparison.Row row) {
    return switch (row.schedule()) {
      case "sequential" -> SeriesMarkers.SQUARE;
      case "disttgl" -> SeriesMarkers.CIRCLE;
      default -> SeriesMarkers.DIAMOND;
    };
  }

  /**
   * Writes {@code chart} as a PNG as wide as always and as tall as its legend needs (as XChart's
   * BitmapEncoder would, which takes the size fixed at build).
   */
  static void save(XYChart chart, Path png) {
    int height = height(chart);
    BufferedImage image = new BufferedImage(WIDTH, height, BufferedImage.TYPE_INT_RGB);
    Graphics2D g = image.createGraphics();
    try {
      chart.paint(g, WIDTH, height);
    } finally {
      g.dispose();
    }
    try {
      if (!ImageIO.write(image, "png", png.toFile())) {
        throw new IOException("no PNG writer");
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + png, e);
    }
  }
}
