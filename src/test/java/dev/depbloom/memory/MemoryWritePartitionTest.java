package dev.depbloom.memory;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import dev.depbloom.tensor.StepScope;
import dev.depbloom.tensor.Tensors;
import org.junit.jupiter.api.Test;

/** The critical path's hot/cold split of a write covers every written row exactly once. */
class MemoryWritePartitionTest {
  @Test
  void hotAndColdPartsCoverEveryRowExactlyOnce() {
    try (StepScope scope = new StepScope();
        MemoryWrite w =
            new MemoryWrite(
                new int[] {4, 1, 3},
                new double[] {40, 10, 30},
                new int[] {400, 100, 300},
                Tensors.floats(new float[] {4, 4, 1, 1, 3, 3}, 3, 2),
                new int[] {1, 2, 4, 0},
                new double[] {11, 21, 41, 1},
                new int[] {110, 210, 410, 10},
                Tensors.floats(new float[] {1, 2, 4, 0}, 4, 1))) {
      boolean[] hot = {true, false, false, true, true};
      MemoryWrite[] parts = w.partition(hot);
      try (MemoryWrite h = parts[0];
          MemoryWrite c = parts[1]) {
        assertArrayEquals(new int[] {4, 3}, h.memoryNodes());
        assertArrayEquals(new double[] {40, 30}, h.memoryTimes());
        assertArrayEquals(new int[] {400, 300}, h.memoryEvents());
        assertArrayEquals(new float[] {4, 4, 3, 3}, Tensors.toFloats(h.memoryRows()));
        assertArrayEquals(new int[] {4, 0}, h.mailNodes());
        assertArrayEquals(new double[] {41, 1}, h.mailTimes());
        assertArrayEquals(new int[] {410, 10}, h.mailEvents());
        assertArrayEquals(new float[] {4, 0}, Tensors.toFloats(h.mailRows()));
        assertArrayEquals(new int[] {1}, c.memoryNodes());
        assertArrayEquals(new float[] {1, 1}, Tensors.toFloats(c.memoryRows()));
        assertArrayEquals(new int[] {1, 2}, c.mailNodes());
        assertArrayEquals(new double[] {11, 21}, c.mailTimes());
        assertArrayEquals(new int[] {110, 210}, c.mailEvents());
        assertArrayEquals(new float[] {1, 2}, Tensors.toFloats(c.mailRows()));
      }
    }
  }
}
