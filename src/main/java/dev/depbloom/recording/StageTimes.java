package dev.depbloom.recording;

import dev.depbloom.observe.Stage;
import dev.depbloom.observe.StageTimer;
import dev.depbloom.schedule.RoundEvent;
import dev.depbloom.schedule.RoundListener;
import dev.depbloom.step.StageClock;
import java.util.List;

/**
 * A run's stage times, from its rounds' events: per logical device, its sampling (on the
 * coordinator), the stages of its item (with shards, of its first shard: the shards run
 * concurrently) and its sync, from the end of its item to the end of the round (waiting for other
 * devices, the gradient sum, the optimizer step, the commit); and the run-level timer, the
 * coordinating thread's own time: its sampling, the tasks it ran as worker 0, its wait for the
 * other workers and the round-end work ({@code allReduce} and the exchanges as {@code sync}, the
 * optimizer step as {@code train}, the commit and merge as {@code memoryWrite}, prefills).
 */
public final class StageTimes implements RoundListener {
  private final StageTimer run = new StageTimer();
  private final StageTimer[] devices;

  /** Times of {@code devices} logical devices. */
  public StageTimes(int devices) {
    this.devices = new StageTimer[devices];
    for (int d = 0; d < devices; d++) {
      this.devices[d] = new StageTimer();
    }
  }

  /** The coordinating thread's stage times since the last {@link #reset()}. */
  public StageTimer run() {
    return run;
  }

  /** Each logical device's stage times since the last {@link #reset()}, in device order. */
  public List<StageTimer> devices() {
    return List.of(devices);
  }

  public void reset() {
    run.reset();
    for (StageTimer t : devices) {
      t.reset();
    }
  }

  @Override
  public void sampled(RoundEvent.Sampled e) {
    run.charge(Stage.SAMPLE, e.nanos());
    devices[e.device()].charge(Stage.SAMPLE, e.nanos());
  }

  @Override
  public void prefilled(RoundEvent.Prefilled e) {
    run.charge(Stage.PREFILL, e.nanos());
  }

  @Override
  public void taskRan(RoundEvent.TaskRan e) {
    if (e.task().shard() == 0) {
      charge(devices[e.task().device()], e.stages());
    }
    if (e.worker() == 0) {
      charge(run, e.stages());
    }
  }

  private static void charge(StageTimer timer, StageClock clock) {
    for (Stage s : Stage.values()) {
      timer.charge(s, clock.nanos(s));
    }
  }

  @Override
  public void workersJoined(RoundEvent.WorkersJoined e) {
    run.charge(Stage.SYNC, e.nanos());
  }

  @Override
  public void coordinated(RoundEvent.Coordinated e) {
    run.charge(e.stage(), e.nanos());
  }

  @Override
  public void synced(RoundEvent.Synced e) {
    devices[e.device()].charge(Stage.SYNC, e.nanos());
  }
}
