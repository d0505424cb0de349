package dev.depbloom.train;

import dev.depbloom.eval.TestMetrics;
import dev.depbloom.observe.Phase;
import java.io.PrintStream;
import java.util.Locale;
import java.util.Map;

/**
 * Human progress on a terminal stream: a bar per phase with events/s, running loss and ETA (redrawn
 * in place on a console, a line per 10% otherwise), and one summary line per epoch with the
 * validation metrics and the per-stage breakdown.
 */
public final class ProgressReporter implements TrainingListener {
  private static final long REDRAW_NANOS = 250_000_000L;
  private final PrintStream out;
  private final int epochs;
  private final boolean interactive;
  private Phase phase;
  private int epoch;
  private long total;
  private long startNanos;
  private long lastDraw;
  private int lastDecile;

  public ProgressReporter(PrintStream out, int epochs, boolean interactive) {
    this.out = out;
    this.epochs = epochs;
    this.interactive = interactive;
  }

  @Override
  public void phaseStarted(Phase phase, int epoch, long events) {
    this.phase = phase;
    this.epoch = epoch;
    this.total = events;
    this.startNanos = System.nanoTime();
    this.lastDraw = 0;
    this.lastDecile = 0;
  }

  @Override
  public void batchFinished(Phase phase, long eventsDone, double loss) {
    long now = System.nanoTime();
    int decile = total > 0 ? (int) (10 * eventsDone / total) : 10;
    if (interactive ? now - lastDraw < REDRAW_NANOS && eventsDone < total : decile == lastDecile) {
      return;
    }
    lastDraw = now;
    lastDecile = decile;
    String line = line(eventsDone, loss, now);
    if (interactive) {
      out.print("\r" + line + "\u001b[K");
    } else {
      out.println(line);
    }
    out.flush();
  }

  @Override
  public void phaseFinished(Phase phase) {
    if (interactive) {
      out.println();
    }
  }

  private String line(long done, double loss, long now) {
    double seconds = (now - startNanos) / 1e9;
    double rate = seconds > 0 ? done / seconds : 0;
    double eta = rate > 0 ? (total - done) / rate : 0;
    int width = 24;
    int filled = total > 0 ? (int) (width * done / total) : width;
    StringBuilder bar = new StringBuilder();
    for (int i = 0; i < width; i++) {
      bar.append(i < filled ? '#' : '.');
    }
    String head =
        epoch > 0
            ? String.format(Locale.ROOT, "epoch %d/%d %-6s", epoch, epochs, phase.key())
            : String.format(Locale.ROOT, "%-12s", phase.key());
    return String.format(
        Locale.ROOT,
        "%s [%s] %,d/%,d events  %,.0f ev/s%s  ETA %s",
        head,
        bar,
        done,
        total,
        rate,
        Double.isNaN(loss) ? "" : String.format(Locale.ROOT, "  loss %.4f", loss),
        clock(eta));
  }

  @Override
  public void epochFinished(EpochMetrics m) {
    StringBuilder stages = new StringBuilder();
    for (Map.Entry<String, Double> e : m.stageSeconds().entrySet()) {
      if (e.getValue() > 0) {
        stages.append(String.format(Locale.ROOT, " %s %.1fs", e.getKey(), e.getValue()));
      }
    }
    out.printf(
        Locale.ROOT,
        "epoch %d/%d: loss %.4f, %,.0f train events/s, val AP %.4f AUC %.4f (train %.1fs, val %.1fs;"
            + "%s)%n",
        m.epoch(),
        epochs,
        m.trainLoss(),
        m.trainEventsPerSecond(),
        m.valAp(),
        m.valAuc(),
        m.trainSeconds(),
        m.valSeconds(),
        stages);
    out.flush();
  }

  @Override
  public void testFinished(TestMetrics t) {
    out.printf(
        Locale.ROOT,
        "test (%,d events, %,d with a new node, %d ranking negatives) in %.1fs%n",
        t.events(),
        t.newNodeEvents(),
        t.negatives(),
        t.seconds());
    out.print(protocolLine("reset + replay (TGL)", t.reset()));
    out.print(protocolLine("continued", t.continued()));
    out.flush();
  }

  private static String protocolLine(String name, TestMetrics.Protocol p) {
    return String.format(
        Locale.ROOT,
        "  %-20s AP %.4f AUC %.4f MRR %s new-node AP %.4f%n",
        name,
        p.ap(),
        p.auc(),
        p.mrr() == null ? "-" : String.format(Locale.ROOT, "%.4f", p.mrr()),
        p.newNodeAp());
  }

  private static String clock(double seconds) {
    long s = Math.round(seconds);
    return String.format(Locale.ROOT, "%d:%02d", s / 60, s % 60);
  }
}
