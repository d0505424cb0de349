package dev.depbloom.schedule;

import dev.depbloom.memory.MemoryStore;
import dev.depbloom.observe.Stage;
import dev.depbloom.step.DeviceStep;
import dev.depbloom.step.StageClock;
import dev.depbloom.tensor.OpWork;
import java.util.List;

/**
 * What happened in a training round, as plain records the round engine hands its {@link
 * RoundListener}s (docs/architecture.md, "One round's events"). Times are {@link
 * System#nanoTime()}; {@code round} is the round's index in its epoch; {@code work} is the tensor
 * work measured with a span, {@link OpWork#NONE} unless the round records kernels.
 */
public sealed interface RoundEvent {
  /** The round's index in its epoch. */
  int round();

  /** Hands this event to the method of {@code listener} that takes its kind. */
  void deliverTo(RoundListener listener);

  /** A round begins: {@code events} events of epoch {@code epoch}. */
  record Started(int round, int epoch, int events) implements RoundEvent {
    @Override
    public void deliverTo(RoundListener l) {
      l.started(this);
    }
  }

  /**
   * The coordinator drew and sampled the item of {@code device} (all its shards or micro-batches);
   * a round planned ahead is sampled while the round before it trains.
   */
  record Sampled(int round, int device, long startNanos, long nanos) implements RoundEvent {
    @Override
    public void deliverTo(RoundListener l) {
      l.sampled(this);
    }
  }

  /**
   * A window-start prefill over {@code views} (in handoff order) ran on the coordinator before the
   * round's items and handed {@code bytes} over {@code handoffs} times.
   */
  record Prefilled(
      int round,
      List<Integer> views,
      long startNanos,
      long nanos,
      long bytes,
      int handoffs,
      OpWork work)
      implements RoundEvent {
    @Override
    public void deliverTo(RoundListener l) {
      l.prefilled(this);
    }
  }

  /** Worker {@code worker} ran {@code task}; {@code stages} is what the task measured of itself. */
  record TaskRan(int round, DeviceStep.Task task, int worker, StageClock stages)
      implements RoundEvent {
    @Override
    public void deliverTo(RoundListener l) {
      l.taskRan(this);
    }
  }

  /** The coordinator, done with its own tasks, waited this long for the other workers. */
  record WorkersJoined(int round, long startNanos, long nanos) implements RoundEvent {
    @Override
    public void deliverTo(RoundListener l) {
      l.workersJoined(this);
    }
  }

  /**
   * Round-end work of the coordinator, charged to {@code stage} under {@code name}: {@code
   * allReduce}, {@code optimizerStep}, {@code exchangeWrites}, {@code exchangeRows}, {@code commit}
   * (with {@link ViewCommitted} for each view inside it), {@code merge} (with {@link Merged}).
   */
  record Coordinated(int round, Stage stage, String name, long startNanos, long nanos, OpWork work)
      implements RoundEvent {
    @Override
    public void deliverTo(RoundListener l) {
      l.coordinated(this);
    }
  }

  /**
   * View {@code view} committed the round's writes: {@code criticalBytes} of {@code totalBytes} on
   * the critical path, with the kernels {@code work} (of the critical part).
   */
  record ViewCommitted(
      int round, int view, long nanos, long criticalBytes, long totalBytes, OpWork work)
      implements RoundEvent {
    @Override
    public void deliverTo(RoundListener l) {
      l.viewCommitted(this);
    }
  }

  /** The views of {@code group} merged after the round (a DepBloom window's end). */
  record Merged(int round, List<Integer> group, MemoryStore.MergeCost cost) implements RoundEvent {
    @Override
    public void deliverTo(RoundListener l) {
      l.merged(this);
    }
  }

  /** {@code device} waited from the end of its item to the end of the round. */
  record Synced(int round, int device, long startNanos, long nanos) implements RoundEvent {
    @Override
    public void deliverTo(RoundListener l) {
      l.synced(this);
    }
  }

  /**
   * The round is done: its tasks as planned (each with its {@link StageClock}), their results in
   * the same order (with their traffic; closed once the listeners return), the bytes of one
   * gradient, and whether the model has memory to write.
   */
  record Finished(
      int round,
      PlannedRound planned,
      List<DeviceStep.Result> results,
      long gradientBytes,
      boolean memory)
      implements RoundEvent {
    @Override
    public void deliverTo(RoundListener l) {
      l.finished(this);
    }
  }
}
