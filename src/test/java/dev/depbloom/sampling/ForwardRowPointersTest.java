package dev.depbloom.sampling;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class ForwardRowPointersTest {
  private static final TemporalCsr CSR = NeighborSamplerContract.CSR; // times 0..399, many ties

  @Test
  void answersExactlyAsBinarySearchOnRandomSequencesOfAdvancesQueriesAndResets() {
    ForwardRowPointers pointers = new ForwardRowPointers(CSR);
    SplittableRandom random = new SplittableRandom(17);
    double clock = -3;
    int checked = 0;
    for (int step = 0; step < 4000; step++) {
      int op = random.nextInt(20);
      if (op == 0) {
        pointers.reset();
      } else if (op < 6) {
        // Mostly forward, sometimes a jump back; fractional and integer (tied) times.
        clock += random.nextInt(10) == 0 ? -random.nextInt(100) : random.nextInt(12);
        double time = random.nextBoolean() ? clock : clock + 0.5;
        pointers.advance(random.ints(30, 0, CSR.nodeCount()).toArray(), time);
      } else {
        int v = random.nextInt(CSR.nodeCount());
        double t = clock + random.nextInt(40) - 10 + (random.nextBoolean() ? 0 : 0.25);
        assertEquals(CSR.firstAtOrAfter(v, t), pointers.firstAtOrAfter(v, t), "v=" + v + " t=" + t);
        checked++;
      }
    }
    assertEquals(2767, checked); // the sequence is fixed by the seed
  }

  @Test
  void neverMovesAPointerBackwards() {
    ForwardRowPointers pointers = new ForwardRowPointers(CSR);
    pointers.advance(new int[] {3}, 300);
    pointers.advance(new int[] {3}, 100); // ignored: the pointer stays at 300
    assertEquals(CSR.firstAtOrAfter(3, 100), pointers.firstAtOrAfter(3, 100));
    assertEquals(CSR.firstAtOrAfter(3, 350), pointers.firstAtOrAfter(3, 350));
  }
}
