package dev.depbloom.schedule;

import dev.depbloom.TinyStreams;
import dev.depbloom.data.EventStream;
import dev.depbloom.data.Split;
import dev.depbloom.device.InProcessCollective;
import dev.depbloom.memory.NodeMemory;
import dev.depbloom.step.TrainingSession;
import dev.depbloom.tensor.RankDevice;
import dev.depbloom.tensor.StepScope;
import dev.depbloom.tensor.Tensors;
import dev.depbloom.tensor.ThreadBudget;
import dev.depbloom.train.RunConfig;
import dev.depbloom.train.Schedules;
import dev.depbloom.train.TrainingRun;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.bytedeco.pytorch.TensorVector;

/** Trains tiny runs round by round under a schedule and captures everything they produce. */
public final class ScheduleRuns {
  private ScheduleRuns() {}

  /**
   * What a run produced: the loss of every round, then every parameter, then every memory view's
   * memory and mailbox (flattened), and the views' memory times.
   */
  public record State(
      List<Double> losses, float[] parameters, float[] memory, double[] memoryTimes) {}

  /** A tiny run of a shipped model with dropout as shipped (TGN, APAN, DySAT: 0.1-0.2). */
  public static TrainingRun run(String model, Map<String, String> schedule, int workers) {
    return run(model, schedule, workers, 40);
  }

  /** As above, over {@code nodes} nodes (more nodes: fewer rows read again by the next batch). */
  public static TrainingRun run(
      String model, Map<String, String> schedule, int workers, int nodes) {
    return run(model, schedule, workers, nodes, 61); // odd: shards and chunks differ in size
  }

  /** As above, in batches of {@code batchSize} events. */
  public static TrainingRun run(
      String model, Map<String, String> schedule, int workers, int nodes, int batchSize) {
    EventStream events = TinyStreams.random(nodes, 1200, 3, 11);
    Map<String, String> o = new HashMap<>(schedule);
    o.put("memory.dim_out", "8");
    o.put("memory.dim_time", "4");
    o.put("gnn.dim_out", "8");
    o.put("gnn.dim_time", model.equals("dysat") ? "0" : "4");
    o.put("train.batch_size", String.valueOf(batchSize));
    return new TrainingRun(
        events,
        "tiny",
        Split.of(events),
        RunConfig.zoo(model, o),
        3,
        new ThreadBudget(1, 1, workers),
        1);
  }

  /** Trains {@code epochs} epochs of the run's schedule, round by round. */
  public static State train(TrainingRun run, int epochs) {
    return train(run, epochs, null);
  }

  /** As {@link #train(TrainingRun, int)}, committing with {@code commit} unless it is null. */
  public static State train(TrainingRun run, int epochs, CommitPolicy commit) {
    return train(run, epochs, commit, RankDevice.forThisProcess());
  }

  /** As {@link #train(TrainingRun, int, CommitPolicy)}, the replica on {@code device}. */
  public static State train(TrainingRun run, int epochs, CommitPolicy commit, RankDevice device) {
    Schedule schedule = Schedules.of(run);
    List<Double> losses = new ArrayList<>();
    try (StepScope scope = new StepScope();
        TrainingSession s = new TrainingSession(run.session(), device);
        RoundRunner runner =
            new RoundRunner(
                s,
                schedule,
                run.threads().workers(),
                new InProcessCollective(),
                commit != null ? commit : schedule.commitPolicy())) {
      s.replica().model().train(true);
      for (int epoch = 1; epoch <= epochs; epoch++) {
        RoundRunner.EpochRounds rounds = runner.epoch(schedule.plan(epoch), epoch);
        while (rounds.hasNext()) {
          losses.add(rounds.runNext());
        }
        runner.drain();
      }
      List<Float> params = new ArrayList<>();
      TensorVector p = s.replica().parameters();
      for (int i = 0; i < p.size(); i++) {
        for (float v : Tensors.toFloats(p.get(i).detach().contiguous().view(-1))) {
          params.add(v);
        }
      }
      List<Float> memory = new ArrayList<>();
      List<Double> times = new ArrayList<>();
      if (!s.memory().isNone()) {
        for (NodeMemory m : s.memory().views()) {
          for (float v : Tensors.toFloats(m.memoryTensor().contiguous().view(-1))) {
            memory.add(v);
          }
          for (float v : Tensors.toFloats(m.mailboxTensor().contiguous().view(-1))) {
            memory.add(v);
          }
          for (double t : m.lastUpdateTimes()) {
            times.add(t);
          }
        }
      }
      return new State(
          losses,
          floats(params),
          floats(memory),
          times.stream().mapToDouble(Double::doubleValue).toArray());
    }
  }

  private static float[] floats(List<Float> xs) {
    float[] out = new float[xs.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = xs.get(i);
    }
    return out;
  }
}
