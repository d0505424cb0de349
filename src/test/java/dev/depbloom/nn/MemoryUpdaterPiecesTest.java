package dev.depbloom.nn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.depbloom.Kernels;
import dev.depbloom.tensor.StepScope;
import dev.depbloom.tensor.Tensors;
import java.util.List;
import java.util.Random;
import org.bytedeco.pytorch.NoGradGuard;
import org.bytedeco.pytorch.Scalar;
import org.bytedeco.pytorch.Tensor;
import org.bytedeco.pytorch.TensorVector;
import org.bytedeco.pytorch.global.torch;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Without gradient, a memory updater updates many reads in pieces ({@link
 * MemoryUpdater#PIECE_BYTES}); every row must equal the whole update's (with gradient: one piece),
 * and the time part kept for a second memory ({@link StreamParts}) must be taken piece by piece.
 */
@Tag(Kernels.TRAINS)
class MemoryUpdaterPiecesTest {
  private static final int NODES = 40;
  private static final int MAIL = 6;
  private static final int DIM = 4;
  private static final int TIME = 3;
  private static final int MAILBOX = 3;

  private static List<MemoryUpdater> updaters() {
    torch.manual_seed(7);
    return List.of(
        new GruMemoryUpdater(MAIL, DIM, TIME),
        new RnnMemoryUpdater(MAIL, DIM, TIME),
        new MailAttentionMemoryUpdater(MAIL, DIM, TIME, MAILBOX, 2, 0, 0));
  }

  /** Reads 2.5 pieces' worth of (node, time) pairs; {@code shift} moves every third delta. */
  private static MemoryReads reads(MemoryUpdater u, long seed, float shift) {
    int mailbox = u instanceof MailAttentionMemoryUpdater ? MAILBOX : 1;
    int n = (int) (2.5 * (MemoryUpdater.PIECE_BYTES / u.bytesPerRead()));
    Random random = new Random(5); // the same reads for both memories
    int[] node = new int[n];
    float[] since = new float[n];
    float[] sinceMail = new float[n * mailbox];
    Random deltas = new Random(11); // the same deltas for both memories, but for the shifted ones
    for (int i = 0; i < n; i++) {
      node[i] = random.nextInt(NODES);
      since[i] = deltas.nextFloat() * 1000 + (i % 3 == 0 ? shift : 0);
      for (int j = 0; j < mailbox; j++) {
        sinceMail[i * mailbox + j] = deltas.nextFloat() * 1000 + (i % 3 == 0 ? shift : 0);
      }
    }
    torch.manual_seed(seed);
    return new MemoryReads(
        torch.randn(NODES, DIM),
        torch.randn(NODES, mailbox, MAIL),
        Tensors.indices(node),
        Tensors.floats(since, n),
        Tensors.floats(sinceMail, n, mailbox));
  }

  @Test
  void piecesEqualTheWholeUpdateRowByRow() {
    for (MemoryUpdater u : updaters()) {
      try (StepScope scope = new StepScope()) {
        MemoryReads r = reads(u, 1, 0);
        assertTrue(r.readNode().size(0) > 2 * (MemoryUpdater.PIECE_BYTES / u.bytesPerRead()));
        float[] whole = Tensors.toFloats(u.update(r).detach()); // with gradient: one piece
        float[] pieces;
        try (NoGradGuard g = new NoGradGuard()) {
          pieces = Tensors.toFloats(u.update(r));
        }
        assertArrayEquals(whole, pieces, 1e-5f, u.getClass().getSimpleName());
      }
    }
  }

  @Test
  void aSecondMemoryTakesTheKeptTimePartPieceByPiece() {
    for (MemoryUpdater u : updaters()) {
      try (StepScope scope = new StepScope();
          NoGradGuard g = new NoGradGuard();
          StreamParts parts = new StreamParts()) {
        MemoryReads first = reads(u, 1, 0);
        MemoryReads second = reads(u, 2, 5); // other memory; every third read's deltas differ
        float[] alone = Tensors.toFloats(u.update(second));
        u.update(first, parts);
        float[] shared = Tensors.toFloats(u.update(second, parts));
        assertArrayEquals(alone, shared, 1e-5f, u.getClass().getSimpleName());
      }
    }
  }

  @Test
  void updateIntoWritesTheUpdatesRowsIntoItsRowsOfALargerTensorAndNothingElse() {
    for (MemoryUpdater u : updaters()) {
      for (boolean pieces : new boolean[] {true, false}) {
        try (StepScope scope = new StepScope();
            NoGradGuard g = new NoGradGuard()) {
          MemoryReads all = reads(u, 1, 0); // 2.5 pieces
          long n = pieces ? all.readNode().size(0) : 7; // or fewer reads than two pieces
          MemoryReads r =
              new MemoryReads(
                  all.memory(),
                  all.mail(),
                  all.readNode().narrow(0, 0, n),
                  all.sinceUpdate().narrow(0, 0, n),
                  all.sinceMail().narrow(0, 0, n));
          float[] expected = Tensors.toFloats(u.update(r));
          Tensor into = torch.full(new long[] {n + 5, DIM}, new Scalar(-7.0));
          u.updateInto(r, null, into.narrow(0, 3, n));
          float[] rows = Tensors.toFloats(into.narrow(0, 3, n).contiguous());
          assertArrayEquals(expected, rows, u.getClass().getSimpleName());
          float[] around =
              Tensors.toFloats(
                  torch.cat(new TensorVector(into.narrow(0, 0, 3), into.narrow(0, 3 + n, 2))));
          for (float v : around) {
            assertEquals(-7.0f, v);
          }
        }
      }
    }
  }

  @Test
  void updateIntoRefusesToRunWithGradient() {
    MemoryUpdater u = updaters().get(0);
    try (StepScope scope = new StepScope()) {
      MemoryReads r = reads(u, 1, 0);
      assertThrows(
          IllegalStateException.class,
          () -> u.updateInto(r, null, torch.empty(r.readNode().size(0), DIM)));
    }
  }
}
