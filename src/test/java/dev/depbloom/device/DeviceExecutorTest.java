package dev.depbloom.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Task t runs on worker t mod W, worker 0 being the calling thread; results come in task order. */
class DeviceExecutorTest {
  @Test
  void taskTRunsOnWorkerTModWInTaskOrder() {
    try (DeviceExecutor executor = new DeviceExecutor(2)) {
      String caller = Thread.currentThread().getName();
      List<String> threads = executor.run(5, t -> Thread.currentThread().getName()).orThrow();
      assertEquals(5, threads.size());
      for (int t = 0; t < 5; t += 2) {
        assertEquals(caller, threads.get(t), "task " + t);
      }
      assertEquals(threads.get(1), threads.get(3));
      assertEquals("depbloom-worker-1", threads.get(1));
      List<Integer> values = executor.run(5, t -> t * t).orThrow();
      assertEquals(List.of(0, 1, 4, 9, 16), values);
    }
  }

  @Test
  void aFailingTaskFailsTheRunAfterEveryWorkerIsJoined() {
    try (DeviceExecutor executor = new DeviceExecutor(2)) {
      var done =
          executor.run(
              4,
              t -> {
                if (t == 1) {
                  throw new IllegalStateException("task 1 failed");
                }
                return t;
              });
      assertEquals(
          "task 1 failed", assertThrows(IllegalStateException.class, done::orThrow).getMessage());
      assertEquals(0, done.values().get(0));
      assertEquals(2, done.values().get(2));
    }
  }
}
