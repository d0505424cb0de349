package dev.depbloom.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.depbloom.bench.ComparisonPlots;
import dev.depbloom.bench.ScheduleComparison;
import dev.depbloom.projection.DeviceModel;
import dev.depbloom.train.TrainingRun;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What {@code bench schedules} writes: {@code comparison.md}, {@code comparison.json} (settings,
 * target, every row with its validations, grid and targets per clock), and per projected clock
 * {@code comparison-CLOCK.png} (best validation AP against events/s) and {@code
 * comparison-CLOCK-curves.png} (validation AP against training time).
 */
final class ComparisonOutput {
  private ComparisonOutput() {}

  static Map<String, Object> summary(TrainingRun base, ScheduleComparison.Result r) {
    ScheduleComparison.Settings s = r.settings();
    Map<String, Object> summary = new LinkedHashMap<>();
    summary.put("data", base.dataSource());
    summary.put("model", base.config().name());
    summary.put("devices", s.devices());
    summary.put("mode", s.mode());
    summary.put("epochs", s.mode() == ScheduleComparison.Mode.EPOCHS ? s.epochs() : null);
    summary.put("checkEverySplits", s.checkEvery());
    summary.put("patience", s.patience());
    summary.put("maxTrainedSplits", s.maxTrained());
    summary.put("learningRateGrid", s.grid().multipliers());
    summary.put("learningRateScreenSplits", s.lrScreen());
    summary.put("baseLearningRate", base.model().train().learningRate());
    summary.put("trainEvents", base.split().trainEnd());
    summary.put("workers", base.threads().workers());
    summary.put("rowGroups", s.groups());
    summary.put("linkLatencySeconds", s.link().latencySeconds());
    summary.put("linkBytesPerSecond", s.link().bytesPerSecond());
    summary.put("deviceModels", s.gpus().stream().map(ComparisonOutput::model).toList());
    summary.put("targetValAp", r.targetValAp());
    summary.put("rows", r.rows());
    summary.put("checks", r.checks());
    return summary;
  }

  /** A device model as the summary names it: its name and every parameter with its source. */
  private static Map<String, Object> model(DeviceModel m) {
    Map<String, Object> o = new LinkedHashMap<>();
    o.put("name", m.name());
    o.put("launchSeconds", m.launchSeconds());
    o.put("description", m.description());
    o.put("sources", m.sources());
    return o;
  }

  static void write(
      Path dir, String md, Map<String, Object> summary, ScheduleComparison.Result r, String title) {
    ObjectMapper mapper = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    try {
      Files.createDirectories(dir);
      Files.writeString(dir.resolve("comparison.md"), md);
      mapper.writeValue(dir.resolve("comparison.json").toFile(), summary);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    List<String> clocks =
        r.rows().isEmpty()
            ? List.of()
            : r.rows().get(0).targets().keySet().stream().filter(c -> !c.equals("here")).toList();
    for (String clock : clocks) {
      ComparisonPlots.plot(
          r, clock, title + ", '" + clock + "'", dir.resolve("comparison-" + clock + ".png"));
      ComparisonPlots.plotCurves(
          r,
          clock,
          title + ": validation AP against training time",
          dir.resolve("comparison-" + clock + "-curves.png"));
    }
  }
}
