package dev.depbloom.bench;

import dev.depbloom.observe.DeviceProjection;
import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.Marker;
import org.knowm.xchart.style.markers.SeriesMarkers;

/** A {@link ScheduleComparison} as a markdown table and a plot of AP against events/s. */
public final class ComparisonReport {
  private ComparisonReport() {}

  /** The rows as a markdown table (times in seconds; "-" where the target was not reached). */
  public static String markdown(
      ScheduleComparison.Result r, DeviceProjection.Link link, int validationsPerEpoch) {
    StringBuilder b = new StringBuilder();
    b.append(
        String.format(
            Locale.ROOT,
            "Target validation AP %.4f (sequential's final minus 0.5 points), checked %d times"
                + " an epoch. Projection: each logical device costs its item as measured on one"
                + " worker here; ring all-reduce and memory writes over a link of %.0f us latency,"
                + " %.0f GB/s.%n%n",
            r.targetValAp(),
            validationsPerEpoch,
            link.latencySeconds() * 1e6,
            link.bytesPerSecond() / 1e9));
    b.append(
        "| row | schedule | G | W | val AP | test AP | events/s here | events/s projected"
            + " | time to target here (s) | projected (s) | speedup over disttgl"
            + " | projected (s) until it stays at the target | sustained speedup |\n");
    b.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (List<ScheduleComparison.Row> rows : List.of(r.rows(), r.checks())) {
      for (ScheduleComparison.Row row : rows) {
        b.append(
            String.format(
                Locale.ROOT,
                "| %s | %s | %d | %d | %.4f | %.4f | %,.0f | %,.0f | %s | %s | %s | %s | %s |%n",
                row.label(),
                row.describe().replace("|", "/"),
                row.devices(),
                row.workers(),
                row.valAp(),
                row.testAp(),
                row.eventsPerSecond(),
                row.projectedEventsPerSecond(),
                seconds(row.timeToTargetSeconds()),
                seconds(row.projectedTimeToTargetSeconds()),
                times(row.speedupOverDisttgl()),
                seconds(row.projectedSustainedTimeToTargetSeconds()),
                times(row.sustainedSpeedupOverDisttgl())));
      }
    }
    for (ScheduleComparison.Row check : r.checks()) {
      b.append(
          String.format(
              Locale.ROOT,
              "%nProjection check, %s on %d workers: measured %,.0f events/s, projected with this"
                  + " machine's gradient sum and no link %,.0f (%.2fx).",
              check.label(),
              check.workers(),
              check.eventsPerSecond(),
              check.projectedOnThisMachineEventsPerSecond(),
              check.projectedOnThisMachineEventsPerSecond() / check.eventsPerSecond()));
    }
    return b.append('\n').toString();
  }

  private static String times(Double x) {
    return x == null ? "-" : String.format(Locale.ROOT, "%.2fx", x);
  }

  private static String seconds(Double s) {
    return s == null ? "-" : String.format(Locale.ROOT, "%.1f", s);
  }

  /** Ten colours that stay apart (Tableau 10). */
  private static final Color[] PALETTE = {
    new Color(0x4e79a7), new Color(0xf28e2b), new Color(0xe15759),
    new Color(0x76b7b2), new Color(0x59a14f), new Color(0xedc948),
    new Color(0xb07aa1), new Color(0xff9da7), new Color(0x9c755f),
    new Color(0x7f7f7f)
  };

  /**
   * Final validation AP against events/s, one colour per row: projected to G devices as a large
   * marker whose shape says the schedule (square sequential, circle disttgl, diamond depbloom), and
   * measured here as a cross of the same colour.
   */
  public static void plot(ScheduleComparison.Result r, String title, Path png) {
    XYChart chart =
        chart(
            title,
            "training events/s (marker: projected to G devices; cross: measured here)",
            "validation AP after the last epoch");
    chart.getStyler().setDefaultSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
    chart.getStyler().setMarkerSize(12);
    int i = 0;
    for (ScheduleComparison.Row row : r.rows()) {
      Color color = PALETTE[i++ % PALETTE.length];
      XYSeries projected =
          chart.addSeries(
              row.label(),
              new double[] {row.projectedEventsPerSecond()},
              new double[] {row.valAp()});
      projected.setMarker(marker(row));
      projected.setMarkerColor(color);
      XYSeries measured =
          chart.addSeries(
              row.label() + " (measured)",
              new double[] {row.eventsPerSecond()},
              new double[] {row.valAp()});
      measured.setMarker(SeriesMarkers.CROSS);
      measured.setMarkerColor(color);
      measured.setShowInLegend(false);
    }
    save(chart, png);
  }

  /**
   * Validation AP against projected training seconds, one line per row through every validation
   * (inside epochs and at their ends), with the target as a dashed line: where each row crosses it
   * is its projected time to target.
   */
  public static void plotCurves(ScheduleComparison.Result r, String title, Path png) {
    XYChart chart = chart(title, "training seconds projected to G devices", "validation AP");
    chart.getStyler().setDefaultSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
    chart.getStyler().setMarkerSize(6);
    int i = 0;
    double longest = 0;
    for (ScheduleComparison.Row row : r.rows()) {
      List<ScheduleComparison.ValidationPoint> points = row.validations();
      if (points.isEmpty()) {
        continue;
      }
      double[] x =
          points.stream()
              .mapToDouble(ScheduleComparison.ValidationPoint::projectedSeconds)
              .toArray();
      double[] y = points.stream().mapToDouble(ScheduleComparison.ValidationPoint::valAp).toArray();
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

  private static XYChart chart(String title, String xAxis, String yAxis) {
    XYChart chart =
        new XYChartBuilder()
            .width(960)
            .height(580)
            .title(title)
            .xAxisTitle(xAxis)
            .yAxisTitle(yAxis)
            .build();
    chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
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
