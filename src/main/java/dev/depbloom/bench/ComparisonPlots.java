package dev.depbloom.bench;

import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.Marker;
import org.knowm.xchart.style.markers.SeriesMarkers;

/** A {@link ScheduleComparison}'s plots (XChart): AP against events/s, and AP against time. */
public final class ComparisonPlots {
  private ComparisonPlots() {}

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
  private static XYChart chart(String title, String xAxis, String xPattern, String yAxis) {
    XYChart chart =
        new XYChartBuilder()
            .width(960)
            .height(580)
            .title(title)
            .xAxisTitle(xAxis)
            .yAxisTitle(yAxis)
            .build();
    chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
    chart.getStyler().setXAxisDecimalPattern(xPattern);
    chart.getStyler().setYAxisDecimalPattern("0.000");
    return chart;
  }

  /** The marker of a row's schedule: square sequential, circle disttgl, diamond depbloom. */
  private static Marker marker(ScheduleComparison.Row row) {
    return switch (row.schedule()) {
      case "sequential" -> SeriesMarkers.SQUARE;
      case "disttgl" -> SeriesMarkers.CIRCLE;
      default -> SeriesMarkers.DIAMOND;
    };
  }

  private static void save(XYChart chart, Path png) {
    try {
      BitmapEncoder.saveBitmap(chart, png.toString(), BitmapEncoder.BitmapFormat.PNG);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + png, e);
    }
  }
}
