package dev.depbloom.train;

import dev.depbloom.device.Collective;
import dev.depbloom.recording.StageTimes;
import dev.depbloom.schedule.RoundListener;
import dev.depbloom.schedule.RoundPlan;
import dev.depbloom.schedule.RoundRunner;
import dev.depbloom.schedule.Schedule;
import dev.depbloom.step.TrainingSession;
import dev.depbloom.tensor.TensorRuntime;
import java.util.List;

/**
 * A run's training rounds, assembled in one place for every caller that trains ({@link Trainer},
 * {@code bench.TrainingBenchmark}, {@code bench.WorkRecording}): the schedule at the run's batch
 * size ({@link Schedules#of}, the batch size's one route), a session built from the run's spec, the
 * {@link RoundRunner} on the run's workers joined by a collective, committing by the schedule's
 * policy, and the run's {@link StageTimes}, always listening. An epoch is run through {@link
 * #epoch}, whose cursor owns the look-ahead.
 */
public final class TrainingRounds implements AutoCloseable {
  private final Schedule schedule;
  private final TrainingSession session;
  private final RoundRunner runner;
  private final StageTimes times;

  /**
   * The rounds of {@code run} as one process of those {@code collective} joins (which the rounds
   * close).
   *
   * @throws dev.depbloom.data.InputException when the collective's processes cannot share the
   *     schedule's devices
   */
  public TrainingRounds(TrainingRun run, Collective collective) {
    this.schedule = Schedules.of(run);
    this.session = new TrainingSession(run.session());
    try {
      schedule.checkWorldSize(collective.worldSize());
      this.runner =
          new RoundRunner(
              session, schedule, run.threads().workers(), collective, schedule.commitPolicy());
    } catch (RuntimeException e) {
      session.close();
      throw e;
    }
    this.times = new StageTimes(schedule.devices());
    runner.listen(times);
  }

  public Schedule schedule() {
    return schedule;
  }

  public TrainingSession session() {
    return session;
  }

  /** The run's and each logical device's stage times, since their last reset. */
  public StageTimes times() {
    return times;
  }

  /** Tells {@code listener} the events of every later round (after the stage times). */
  public void listen(RoundListener listener) {
    runner.listen(listener);
  }

  /** Epoch {@code epoch}'s rounds ({@link Schedule#plan}) as a cursor with their look-ahead. */
  public RoundRunner.EpochRounds epoch(int epoch) {
    return epoch(schedule.plan(epoch), epoch);
  }

  /** Some of epoch {@code epoch}'s rounds, in order, as a cursor with their look-ahead. */
  public RoundRunner.EpochRounds epoch(List<RoundPlan> rounds, int epoch) {
    return runner.epoch(rounds, epoch);
  }

  /** Waits until every memory write committed so far has landed (before reading the store). */
  public void drain() {
    runner.drain();
  }

  /**
   * Frees the rounds' native state and hands the freed pages back to the operating system ({@link
   * TensorRuntime#releaseFreedMemory}): the workers, samplers and scorers of a run allocate from
   * their own glibc arenas, which keep their high-water marks resident otherwise, so a bench's rows
   * grew the process by gigabytes, row after row (docs/measurements/converged-local.md).
   */
  @Override
  public void close() {
    try {
      runner.close();
    } finally {
      try {
        session.close();
      } finally {
        TensorRuntime.releaseFreedMemory();
      }
    }
  }
}
