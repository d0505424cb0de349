package dev.depbloom.memory;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.depbloom.tensor.StepScope;
import dev.depbloom.tensor.Tensors;
import java.util.List;
import org.junit.jupiter.api.Test;

class NodeMemoryTest {
  private static final int DIM = 2;
  private static final int MAIL_DIM = 2;

  @Test
  void successiveMailsToANodeFillTheRingSlotsInTurnAndWrapAround() {
    try (StepScope scope = new StepScope();
        NodeMemory memory = new NodeMemory(3, DIM, 3, MAIL_DIM)) {
      double[][] slotTimes = {{1, 0, 0}, {1, 2, 0}, {1, 2, 3}, {4, 2, 3}};
      for (int k = 0; k < 4; k++) {
        double t = k + 1;
        try (MemoryWrite w = write(new int[] {1}, t)) {
          memory.apply(w);
        }
        for (int slot = 0; slot < 3; slot++) {
          assertEquals(
              slotTimes[k][slot], memory.mailTime(1, slot), "slot " + slot + " after write " + k);
        }
        assertEquals(t, memory.lastUpdate(1));
      }
      // the fourth mail replaced the first; mails come back in slot order, not time order
      float[] mails = Tensors.toFloats(memory.readMail(Tensors.indices(new int[] {1})));
      assertArrayEquals(new float[] {4, -4, 2, -2, 3, -3}, mails);
      assertArrayEquals(new int[] {0, 1, 0}, memory.nextSlots());
      assertArrayEquals(new float[] {4, 4}, Tensors.toFloats(memory.memoryTensor().select(0, 1)));
      // other nodes are untouched: zero mail dated 0
      float[] untouched = Tensors.toFloats(memory.readMail(Tensors.indices(new int[] {0, 2})));
      assertArrayEquals(new float[12], untouched);
      assertEquals(0, memory.mailTime(2, 0));
    }
  }

  @Test
  void oneWriteGivesEachReceiverItsOwnNextSlot() {
    try (StepScope scope = new StepScope();
        NodeMemory memory = new NodeMemory(3, DIM, 3, MAIL_DIM)) {
      try (MemoryWrite first = write(new int[] {0}, 1)) {
        memory.apply(first);
      }
      try (MemoryWrite both = write(new int[] {0, 2}, 2)) {
        memory.apply(both);
      }
      assertEquals(2, memory.mailTime(0, 1));
      assertEquals(2, memory.mailTime(2, 0));
      assertArrayEquals(new int[] {2, 0, 1}, memory.nextSlots());
      float[] mails = Tensors.toFloats(memory.readMail(Tensors.indices(new int[] {2, 0})));
      assertArrayEquals(new float[] {2, -2, 0, 0, 0, 0, 1, -1, 2, -2, 0, 0}, mails);
    }
  }

  @Test
  void lastWinsOverPartsKeepsTheLastPartsRowPerNodeInFirstAppearanceOrder() {
    try (StepScope scope = new StepScope();
        MemoryWrite a = write(new int[] {0, 1}, 1);
        MemoryWrite b = write(new int[] {2, 0}, 2);
        MemoryWrite merged = MemoryWrite.lastWins(List.of(a, b))) {
      assertArrayEquals(new int[] {0, 1, 2}, merged.memoryNodes());
      assertArrayEquals(new double[] {2, 1, 2}, merged.memoryTimes());
      assertArrayEquals(new float[] {2, 2, 1, 1, 2, 2}, Tensors.toFloats(merged.memoryRows()));
      assertArrayEquals(new int[] {0, 1, 2}, merged.mailNodes());
      assertArrayEquals(new double[] {2, 1, 2}, merged.mailTimes());
      assertArrayEquals(new float[] {2, -2, 1, -1, 2, -2}, Tensors.toFloats(merged.mailRows()));
    }
  }

  @Test
  void aWriteDatedBeforeANodesMemoryIsRefusedAndChangesNothing() {
    try (StepScope scope = new StepScope();
        NodeMemory memory = new NodeMemory(3, DIM, 3, MAIL_DIM)) {
      try (MemoryWrite w = write(new int[] {1}, 5)) {
        memory.apply(w);
      }
      try (MemoryWrite earlier = write(new int[] {1}, 4)) {
        IllegalStateException e =
            assertThrows(IllegalStateException.class, () -> memory.apply(earlier));
        assertEquals("memory time of node 1 would move backwards: 5.0 -> 4.0", e.getMessage());
      }
      assertArrayEquals(new int[] {0, 1, 0}, memory.nextSlots());
      assertEquals(5, memory.lastUpdate(1));
    }
  }

  /** Every node gets memory {@code [t, t]} and a mail {@code [t, -t]}, dated t. */
  private static MemoryWrite write(int[] nodes, double t) {
    int n = nodes.length;
    float[] rows = new float[n * DIM];
    float[] mails = new float[n * MAIL_DIM];
    double[] times = new double[n];
    for (int i = 0; i < n; i++) {
      rows[2 * i] = (float) t;
      rows[2 * i + 1] = (float) t;
      mails[2 * i] = (float) t;
      mails[2 * i + 1] = (float) -t;
      times[i] = t;
    }
    int[] events = new int[n]; // not read by a node memory
    return new MemoryWrite(
        nodes.clone(),
        times,
        events,
        Tensors.floats(rows, n, DIM),
        nodes.clone(),
        times.clone(),
        events.clone(),
        Tensors.floats(mails, n, MAIL_DIM));
  }
}
