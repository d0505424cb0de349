package dev.depbloom.schedule;

import dev.depbloom.observe.Stage;
import dev.depbloom.step.Measured;
import dev.depbloom.step.StageClock;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * The round engine's one outlet: it measures a span (its time, and its kernels while the round
 * records them) and hands the {@link RoundEvent} to every {@link RoundListener}, in the order they
 * were added. Used on the coordinating thread only.
 */
public final class RoundEvents {
  private final List<RoundListener> listeners = new ArrayList<>();
  private boolean recordsKernels; // of the round in flight

  RoundEvents() {}

  void listen(RoundListener listener) {
    listeners.add(listener);
  }

  /** Round {@code round} of epoch {@code epoch} starts: asks whether it records kernels. */
  void start(int round, int epoch, int events) {
    boolean record = false;
    for (RoundListener l : listeners) {
      record |= l.recordsKernels(epoch);
    }
    recordsKernels = record;
    emit(new RoundEvent.Started(round, epoch, events));
  }

  /** A fresh clock for one task of the round in flight. */
  StageClock clock() {
    return new StageClock(recordsKernels);
  }

  void emit(RoundEvent event) {
    for (RoundListener l : listeners) {
      event.deliverTo(l);
    }
  }

  /** Runs {@code work} on this thread, measuring its time and, if recorded, its kernels. */
  <T> Measured<T> measured(Supplier<T> work) {
    return Measured.of(recordsKernels, work);
  }

  /**
   * Runs round-end work of the coordinator (an exchange, the optimizer step, a commit), measured as
   * {@link #measured} measures, and tells the listeners: a {@link RoundEvent.Coordinated} charged
   * to {@code stage} under {@code name}. Work that throws ends the run and is told nothing.
   */
  public <T> T coordinator(Stage stage, String name, int round, Supplier<T> work) {
    Measured<T> m = measured(work);
    emit(new RoundEvent.Coordinated(round, stage, name, m.startNanos(), m.nanos(), m.work()));
    return m.value();
  }
}
