package dev.depbloom.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.depbloom.data.EventStream;
import dev.depbloom.data.load.EmbeddedDatasets;
import dev.depbloom.data.load.EventLoader;
import dev.depbloom.data.load.StreamStatistics;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code depbloom inspect}: loads a data set and prints what it holds. */
@Command(
    name = "inspect",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Load an event data set and describe it: events, nodes, bipartite, feature widths, time"
          + " range, rows out of time order, repeated timestamps, node degrees, the train/val/test"
          + " split and how many val/test events touch nodes unseen in training.",
      "Without PATH, describes the embedded wikipedia data set (JODIE, Kumar et al., KDD 2019).",
      ""
    })
final class InspectCommand implements Callable<Integer> {
  @Parameters(
      index = "0",
      arity = "0..1",
      paramLabel = "PATH",
      description = "Data file or directory (plain or gzip); the embedded wikipedia when omitted.")
  Path path;

  @Mixin LoadOptionsMixin load;

  @Mixin JsonOption output;

  @Spec CommandSpec spec;

  @Override
  public Integer call() throws JsonProcessingException {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    EventStream events =
        path == null
            ? EmbeddedDatasets.wikipedia(load.toLoadOptions(err))
            : EventLoader.load(path, load.toLoadOptions(err));
    StreamStatistics stats = StreamStatistics.of(events);
    if (output.json) {
      out.println(new ObjectMapper().writeValueAsString(stats));
    } else {
      out.print(table(stats));
      if (path == null) {
        out.println();
        out.print(EmbeddedDatasets.wikipediaCitation());
      }
    }
    out.flush();
    return 0;
  }

  /** The statistics as aligned "name value" lines. */
  static String table(StreamStatistics s) {
    StringBuilder t = new StringBuilder();
    row(t, "source", s.source());
    row(t, "format", s.format());
    row(t, "events", count(s.events()));
    row(t, "nodes", count(s.nodes()));
    row(t, "bipartite", s.bipartite() ? "yes" : "no");
    row(t, "edge feature dim", count(s.edgeFeatureDim()));
    row(t, "node feature dim", count(s.nodeFeatureDim()));
    row(t, "time range", time(s.timeMin()) + " .. " + time(s.timeMax()));
    row(
        t,
        "rows out of order",
        count(s.outOfOrder()) + " (" + count(s.rowsMoved()) + " rows moved by the stable sort)");
    row(t, "repeated timestamps", percent(s.repeatedTimeShare()) + " of events");
    row(t, "degree mean", String.format(Locale.ROOT, "%.2f", s.degreeMean()));
    row(
        t,
        "degree median/p99/max",
        count(s.degreeMedian()) + " / " + count(s.degreeP99()) + " / " + count(s.degreeMax()));
    row(
        t,
        "split (" + s.splitSource() + ")",
        "train "
            + count(s.trainEvents())
            + ", val "
            + count(s.valEvents())
            + ", test "
            + count(s.testEvents()));
    row(
        t,
        "val events, new node",
        count(s.valEventsWithNewNodes())
            + " ("
            + percent(share(s.valEventsWithNewNodes(), s.valEvents()))
            + ")");
    row(
        t,
        "test events, new node",
        count(s.testEventsWithNewNodes())
            + " ("
            + percent(share(s.testEventsWithNewNodes(), s.testEvents()))
            + ")");
    return t.toString();
  }

  private static void row(StringBuilder t, String name, String value) {
    t.append(String.format(Locale.ROOT, "%-24s %s%n", name, value));
  }

  private static String count(long n) {
    return String.format(Locale.ROOT, "%,d", n);
  }

  private static String time(double t) {
    return t == Math.rint(t) && Math.abs(t) < 1e15 ? count((long) t) : Double.toString(t);
  }

  private static double share(int part, int whole) {
    return whole == 0 ? 0 : (double) part / whole;
  }

  private static String percent(double share) {
    return String.format(Locale.ROOT, "%.2f%%", 100 * share);
  }
}
