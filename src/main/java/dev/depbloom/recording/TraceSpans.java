package dev.depbloom.recording;

import dev.depbloom.observe.ChromeTrace;
import dev.depbloom.observe.Stage;
import dev.depbloom.schedule.RoundEvent;
import dev.depbloom.schedule.RoundListener;

/**
 * Draws the rounds' events into a {@link ChromeTrace}: on each logical device's track its sampling,
 * the stages of its tasks (every shard's) and its sync; on the coordinator's track the prefills and
 * the round-end work by name ({@code allReduce}, {@code optimizerStep}, {@code commit}, ...). Each
 * span carries its round's index.
 */
public final class TraceSpans implements RoundListener {
  private final ChromeTrace trace;

  public TraceSpans(ChromeTrace trace) {
    this.trace = trace;
  }

  @Override
  public void sampled(RoundEvent.Sampled e) {
    trace.span(e.device(), Stage.SAMPLE.key(), e.startNanos(), e.nanos(), e.round());
  }

  @Override
  public void prefilled(RoundEvent.Prefilled e) {
    trace.span(ChromeTrace.COORDINATOR, Stage.PREFILL.key(), e.startNanos(), e.nanos(), e.round());
  }

  @Override
  public void taskRan(RoundEvent.TaskRan e) {
    int track = e.task().device();
    e.stages()
        .forEachSpan(
            (stage, start, nanos) -> trace.span(track, stage.key(), start, nanos, e.round()));
  }

  @Override
  public void coordinated(RoundEvent.Coordinated e) {
    trace.span(ChromeTrace.COORDINATOR, e.name(), e.startNanos(), e.nanos(), e.round());
  }

  @Override
  public void synced(RoundEvent.Synced e) {
    trace.span(e.device(), Stage.SYNC.key(), e.startNanos(), e.nanos(), e.round());
  }
}
