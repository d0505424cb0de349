package dev.depbloom.step;

import dev.depbloom.batch.Batch;
import dev.depbloom.device.InProcessCollective;
import dev.depbloom.schedule.ItemPlan;
import dev.depbloom.schedule.LastWinsCommit;
import dev.depbloom.schedule.RoundPlan;
import dev.depbloom.schedule.RoundRunner;
import dev.depbloom.schedule.sequential.SequentialSchedule;
import java.util.List;

/**
 * Drives a session one batch at a time the way schedules do: training through a {@link RoundRunner}
 * round of one item, scoring and replay through the device step on a planned batch.
 */
public final class Steps implements AutoCloseable {
  private final TrainingSession session;
  private final RoundRunner runner;

  public Steps(TrainingSession session) {
    this.session = session;
    SessionSpec run = session.spec();
    this.runner =
        new RoundRunner(
            session,
            new SequentialSchedule(run.split().trainEnd(), run.config().train().batchSize()),
            run.threads().workers(),
            new InProcessCollective(),
            new LastWinsCommit());
  }

  /** Trains on events {@code [start, end)} as round {@code index} of {@code epoch}; the loss. */
  public double train(int index, int start, int end, int epoch) {
    return runner.run(
        new RoundPlan(index, List.of(ItemPlan.range(0, 0, start, end)), List.of()), epoch);
  }

  /** Scores a batch and writes its memory. */
  public BatchScores evaluate(Batch batch, long stream) {
    return evaluate(batch, stream, true);
  }

  public BatchScores evaluate(Batch batch, long stream, boolean writeMemory) {
    return session
        .step()
        .scoring()
        .evaluate(
            session.planner().plan(batch, stream, session.sampler(0)),
            session.memory(),
            0,
            batch.index(),
            writeMemory);
  }

  public void replay(Batch batch, long stream) {
    session
        .step()
        .scoring()
        .replay(
            session.planner().planWrite(batch, stream, session.sampler(0)), session.memory(), 0);
  }

  @Override
  public void close() {
    runner.close();
  }
}
