package dev.depbloom.bench;

import dev.depbloom.data.EventStream;
import dev.depbloom.data.Split;
import dev.depbloom.observe.MemoryPlacement;
import dev.depbloom.observe.RoundWork;
import dev.depbloom.projection.DeviceModel;
import dev.depbloom.projection.GpuRoundModel;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Which {@code k} pays under DepBloom's local placement on a GPU device model (issue 45, item 2):
 * each chain's large batch of {@code k} micro-batches of {@code B}, refined on its own GPU, priced
 * from recorded rounds of one such chain ({@code k} memory-update passes in series, one training
 * pass over {@code k B}; {@link GpuRoundModel}, memory on the device, the all-reduce over {@code G}
 * GPUs), every GPU taken to train an equal share.
 *
 * <p>Speed alone does not decide: a larger {@code k} takes fewer optimizer steps an epoch, and the
 * only measurement of what that costs is Wikipedia TGN on one device
 * (docs/measurements/fig15-wikipedia.md): LB+IMR(4), 4 x 600 at 4x the rate, 46 steps an epoch,
 * needed {@link #MEASURED_EVENTS_PENALTY} (9/7) of the small batch's events to reach its epoch-7
 * accuracy. So a {@code k > 1} is recommended only where it projects more than that factor of
 * {@code k = 1}'s events/s and keeps at least {@code minSteps} optimizer steps an epoch (default
 * {@link #MEASURED_STEPS_PER_EPOCH}, that run's); among those, the fastest. Not charged: the
 * window-end merges (the same per event at every {@code k}) and sampling (taken to hide behind the
 * round).
 */
public final class LocalBatchRecommendation {
  /** Events to the small batch's accuracy, LB+IMR(4) over SB 600 (9 epochs against 7). */
  public static final double MEASURED_EVENTS_PENALTY = 9.0 / 7.0;

  /** Optimizer steps an epoch in that run: 110,232 training events in batches of 2,400. */
  public static final int MEASURED_STEPS_PER_EPOCH = 46;

  /** The micro-batch counts priced. */
  public static final List<Integer> CANDIDATES = List.of(1, 2, 4, 8);

  private LocalBatchRecommendation() {}

  /**
   * One {@code k} priced.
   *
   * @param microBatches k
   * @param roundSeconds the projected round (every GPU one large batch of {@code k B})
   * @param eventsPerSecond projected training events per second over the {@code G} GPUs
   * @param speedup events/s over {@code k = 1}'s
   * @param stepsPerEpoch optimizer steps an epoch
   * @param pays whether it clears both bars (always true for {@code k = 1})
   */
  public record Priced(
      int microBatches,
      double roundSeconds,
      double eventsPerSecond,
      double speedup,
      long stepsPerEpoch,
      boolean pays) {}

  /** Every candidate priced, the chosen one, and why. */
  public record Result(
      String deviceModel, int minSteps, List<Priced> candidates, Priced chosen, String reason) {}

  /**
   * Records {@code rounds} rounds of one local chain per candidate {@code k} of {@code model} on
   * {@code events} (zero edge features of {@code edgeDim} where the data has none) and prices them
   * on {@code device} for {@code devices} GPUs.
   */
  public static Result recommend(
      EventStream events,
      String model,
      int devices,
      int batchSize,
      int edgeDim,
      int rounds,
      DeviceModel device,
      int minSteps,
      PrintWriter progress) {
    int train = Split.of(events).trainEnd();
    List<Priced> priced = new ArrayList<>();
    double base = 0;
    for (int k : CANDIDATES) {
      progress.printf(
          Locale.ROOT,
          "profile: recording %d rounds of %s as one chain of k=%d x %d (local)%n",
          rounds,
          model,
          k,
          batchSize);
      progress.flush();
      List<RoundWork> w =
          WorkRecording.firstEpoch(
              events, model, chain(k, batchSize, train, "local"), edgeDim, rounds);
      w = w.subList(0, Math.min(Math.max(1, rounds), w.size()));
      if (w.isEmpty()) {
        continue; // fewer training events than one large batch: nothing to price
      }
      GpuRoundModel gpu = new GpuRoundModel(device, MemoryPlacement.DEVICE, devices);
      double perGpu = eventsPerSecond(w, gpu);
      double evs = devices * perGpu;
      if (priced.isEmpty()) {
        base = evs;
      }
      long steps = (train + (long) devices * k * batchSize - 1) / ((long) devices * k * batchSize);
      boolean pays =
          priced.isEmpty() || (evs / base > MEASURED_EVENTS_PENALTY && steps >= minSteps);
      priced.add(new Priced(k, (double) k * batchSize / perGpu, evs, evs / base, steps, pays));
    }
    Priced chosen = priced.get(0);
    for (Priced p : priced) {
      if (p.pays() && p.eventsPerSecond() > chosen.eventsPerSecond()) {
        chosen = p;
      }
    }
    return new Result(
        device.name(), minSteps, priced, chosen, reason(device, chosen, priced, minSteps));
  }

  private static String reason(DeviceModel device, Priced chosen, List<Priced> all, int minSteps) {
    String bars =
        String.format(
            Locale.ROOT,
            "a k > 1 must project more than %.2fx k=1's events/s (the events LB+IMR(4) needed to"
                + " SB's accuracy, Wikipedia TGN) and keep at least %d optimizer steps an epoch"
                + " (--min-steps)",
            MEASURED_EVENTS_PENALTY,
            minSteps);
    if (chosen.microBatches() > 1) {
      return String.format(
          Locale.ROOT,
          "on %s, k=%d projects %.2fx k=1's events/s (%.2f ms a round of %d steps an epoch): the"
              + " fastest k that pays; %s",
          device.name(),
          chosen.microBatches(),
          chosen.speedup(),
          1e3 * chosen.roundSeconds(),
          chosen.stepsPerEpoch(),
          bars);
    }
    List<String> why = new ArrayList<>();
    for (Priced p : all) {
      if (p.microBatches() > 1) {
        why.add(
            String.format(
                Locale.ROOT,
                "k=%d %.2fx with %d steps",
                p.microBatches(),
                p.speedup(),
                p.stepsPerEpoch()));
      }
    }
    return String.format(
        Locale.ROOT,
        "on %s, k=1: no k > 1 pays (%s); %s",
        device.name(),
        String.join(", ", why),
        bars);
  }

  /** The recorded rounds' events over their projected seconds, each after the one before. */
  static double eventsPerSecond(List<RoundWork> rounds, GpuRoundModel model) {
    double seconds = 0;
    double previous = 0;
    long events = 0;
    for (RoundWork w : rounds) {
      double t = model.round(w, previous).seconds();
      seconds += t;
      previous = t;
      events += w.events();
    }
    return events / seconds;
  }

  /**
   * One chain of {@code k} refined micro-batches of {@code b} over one window of the training span,
   * placed {@code placement} ({@code local} or {@code spread}), without the critical path.
   */
  static Map<String, String> chain(int k, int b, int train, String placement) {
    Map<String, String> o = new LinkedHashMap<>();
    o.put("train.batch_size", String.valueOf(b));
    o.put("schedule.name", "depbloom");
    o.put("schedule.placement", placement);
    o.put("schedule.chains", "1");
    o.put("schedule.micro_batches", String.valueOf(k));
    o.put("schedule.window", String.valueOf(Math.max(train, 2 * k * b)));
    o.put("schedule.partitioner", "contiguous");
    o.put("schedule.refine", "true");
    o.put("schedule.critical_path", "false");
    return o;
  }
}
