package dev.depbloom.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.geom.Rectangle2D;
import java.awt.image.BufferedImage;
import java.lang.reflect.Method;
import java.nio.file.Path;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.internal.chartpart.Chart;

/** The comparison charts' size: a legend of every default row stays inside the image. */
class ComparisonPlotsTest {
  @TempDir Path dir;

  /** The legend's size as XChart lays it out (its legend is not public: read it reflectively). */
  private static Rectangle2D legend(XYChart chart) throws Exception {
    Method getLegend = Chart.class.getDeclaredMethod("getLegend");
    getLegend.setAccessible(true);
    Object legend = getLegend.invoke(chart);
    return (Rectangle2D) legend.getClass().getMethod("getBounds").invoke(legend);
  }

  /**
   * Three rows keep the usual 960 x 580; the 37 rows of a G = 8 bench's defaults (plus the target)
   * at the scatter's marker size make the image taller, and XChart's own legend fits inside it with
   * the chart's padding above and below (at a fixed 580 it ran over the title and off the image).
   */
  @Test
  void theLegendOfEveryDefaultRowFitsInsideTheImage() throws Exception {
    for (int rows : new int[] {3, 38}) {
      XYChart chart = ComparisonPlots.chart("t", "x", "0.###", "validation AP");
      chart.getStyler().setMarkerSize(12);
      for (int i = 0; i < rows; i++) {
        chart.addSeries(
            "depbloom prefill P=2 k=2 B=600 M=" + i, new double[] {i}, new double[] {0.5});
      }
      Path png = dir.resolve("chart-" + rows + ".png");
      ComparisonPlots.save(chart, png);
      BufferedImage image = ImageIO.read(png.toFile());
      assertEquals(960, image.getWidth());
      double needed = legend(chart).getHeight() + 2.0 * chart.getStyler().getChartPadding();
      assertTrue(
          needed <= image.getHeight(),
          rows + " rows: legend " + needed + " px in an image of " + image.getHeight());
      if (rows == 3) {
        assertEquals(580, image.getHeight());
      } else {
        assertTrue(image.getHeight() > 580, "38 rows need more than 580 px: " + image.getHeight());
      }
    }
  }
}
