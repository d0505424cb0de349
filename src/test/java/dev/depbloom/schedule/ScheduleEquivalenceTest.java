package dev.depbloom.schedule;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import dev.depbloom.Kernels;
import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What a schedule computes depends on the schedule and its logical devices, never on the workers
 * that run them: bit for bit, with dropout on and uniform sampling.
 */
@Tag(Kernels.TRAINS)
class ScheduleEquivalenceTest {
  private static final Map<String, String> SEQUENTIAL = Map.of("schedule.name", "sequential");

  private static Map<String, String> disttgl(int i, int k) {
    return Map.of(
        "schedule.name",
        "disttgl",
        "schedule.minibatch_parallelism",
        String.valueOf(i),
        "schedule.memory_parallelism",
        String.valueOf(k));
  }

  private static void assertIdentical(ScheduleRuns.State a, ScheduleRuns.State b) {
    assertEquals(a.losses(), b.losses(), "round losses");
    assertArrayEquals(a.parameters(), b.parameters(), "parameters");
    assertArrayEquals(a.memory(), b.memory(), "memory and mailbox");
    assertArrayEquals(a.memoryTimes(), b.memoryTimes(), "memory times");
  }

  @ParameterizedTest
  @ValueSource(strings = {"tgn", "apan", "dysat", "jodie"})
  void disttglOnOneDeviceIsSequential(String model) {
    ScheduleRuns.State sequential = ScheduleRuns.train(ScheduleRuns.run(model, SEQUENTIAL, 1), 2);
    ScheduleRuns.State disttgl = ScheduleRuns.train(ScheduleRuns.run(model, disttgl(1, 1), 1), 2);
    assertIdentical(sequential, disttgl);
  }

  @ParameterizedTest
  @CsvSource({"tgn,2,1", "apan,2,1", "dysat,2,1", "tgn,4,1", "apan,4,1", "dysat,4,1", "tgn,2,2"})
  void oneWorkerAndTwoWorkersTrainTheSameSchedule(String model, int i, int k) {
    ScheduleRuns.State one = ScheduleRuns.train(ScheduleRuns.run(model, disttgl(i, k), 1), 2);
    ScheduleRuns.State two = ScheduleRuns.train(ScheduleRuns.run(model, disttgl(i, k), 2), 2);
    assertIdentical(one, two);
  }

  /** The equalities above are not vacuous: more devices do train differently. */
  @ParameterizedTest
  @ValueSource(strings = {"tgn", "dysat"})
  void moreDevicesTrainDifferently(String model) {
    ScheduleRuns.State one = ScheduleRuns.train(ScheduleRuns.run(model, disttgl(1, 1), 1), 1);
    ScheduleRuns.State two = ScheduleRuns.train(ScheduleRuns.run(model, disttgl(2, 1), 1), 1);
    assertNotEquals(one.losses().size(), two.losses().size());
    assertFalse(Arrays.equals(one.parameters(), two.parameters()));
  }

  /**
   * More workers than devices split an item into event shards: the same step up to float summation
   * order (without dropout, recent sampling), and repeatable with dropout.
   */
  @ParameterizedTest
  @ValueSource(strings = {"jodie", "tgn", "apan"})
  void sequentialOnTwoWorkersTrainsLikeOne(String model) {
    Map<String, String> noDropout =
        Map.of("train.dropout", "0", "train.att_dropout", "0", "schedule.name", "sequential");
    ScheduleRuns.State one = ScheduleRuns.train(ScheduleRuns.run(model, noDropout, 1), 1);
    ScheduleRuns.State two = ScheduleRuns.train(ScheduleRuns.run(model, noDropout, 2), 1);
    assertEquals(one.losses().size(), two.losses().size());
    for (int r = 0; r < one.losses().size(); r++) {
      assertEquals(one.losses().get(r), two.losses().get(r), 1e-5, "round " + r);
    }
    // parameters and memory drift apart by float summation order over the rounds (Adam divides
    // by the gradients' scale, so the round losses above are what a wrong shard weight breaks)
    assertArrayEquals(one.parameters(), two.parameters(), 1e-4f);
    assertArrayEquals(one.memory(), two.memory(), 1e-4f);
    assertArrayEquals(one.memoryTimes(), two.memoryTimes());
    ScheduleRuns.State again = ScheduleRuns.train(ScheduleRuns.run(model, SEQUENTIAL, 2), 1);
    ScheduleRuns.State twice = ScheduleRuns.train(ScheduleRuns.run(model, SEQUENTIAL, 2), 1);
    assertIdentical(again, twice);
  }
}
