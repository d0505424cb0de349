package dev.depbloom.nn;

import dev.depbloom.tensor.Tensors;
import java.util.function.Function;
import org.bytedeco.pytorch.GradMode;
import org.bytedeco.pytorch.Module;
import org.bytedeco.pytorch.Tensor;

/**
 * Turns stored memory and mail into the memory a batch reads (TGL's deferred update): applied with
 * gradient at the start of the batch that reads the node. Implementations: {@link GruMemoryUpdater}
 * (TGN), {@link RnnMemoryUpdater} (JODIE), {@link MailAttentionMemoryUpdater} (APAN).
 *
 * <p>An update has two parts: what depends only on a distinct node's memory and mail ({@link
 * #perNode}, computed once per node), and what depends on the read time ({@link #perRead}, once per
 * unique read). Without gradient, when there are at least two pieces' worth of reads, they are
 * updated in pieces of at most {@link #PIECE_BYTES} per intermediate tensor, each piece's
 * intermediates freed before the next, each piece's result written into its rows ({@link
 * #perReadInto}; the two-piece threshold dates from when pieces were copied into place, which cost
 * more than it saved below it: JODIE's 7,650-read parts are 1.5 pieces of 400-byte rows; it was not
 * measured again): the test pass updates tens of thousands of reads at once, and whole-width
 * intermediates (APAN's {@code [U, m, 2 dim]} are 61 MB at 7,650 reads) exceed glibc's 32 MB limit
 * for reusing freed memory, so every one was fresh pages the kernel had to clear, and none stayed
 * in cache between passes. Row by row a piece computes what the whole update computes.
 */
public abstract class MemoryUpdater extends Module {
  /** Bytes of the widest per-read intermediate of one piece, without gradient. */
  static final long PIECE_BYTES = 2L << 20;

  /** Updated memory per unique read: {@code [U, dim]}. */
  public Tensor update(MemoryReads reads) {
    return update(reads, null);
  }

  /**
   * As {@link #update(MemoryReads)}, the projection of the time deltas kept in (or taken from)
   * {@code parts} when it is not null and the deltas are equal: the same reads updated from another
   * memory, without gradient.
   */
  public final Tensor update(MemoryReads reads, StreamParts parts) {
    Tensor[] nodes = perNode(reads);
    long u = reads.readNode().size(0);
    long piece = pieceReads();
    if (GradMode.is_enabled() || u < 2 * piece) { // below two pieces the copy costs more
      return perRead(nodes, reads, parts, 0);
    }
    Tensor out = reads.memory().new_empty(new long[] {u, reads.memory().size(1)});
    inPieces(nodes, reads, parts, piece, out);
    return out;
  }

  /**
   * As {@link #update(MemoryReads)}, in one pass whatever the reads' size and the gradient mode:
   * the few reads of a micro-batch on a device, where pieces would only add kernels.
   */
  public final Tensor updateWhole(MemoryReads reads) {
    return perRead(perNode(reads), reads, null, 0);
  }

  /**
   * As {@link #update(MemoryReads, StreamParts)} without gradient, the rows written into {@code
   * out} ({@code [U, dim]}, typically rows of a larger tensor that other parts of the same update
   * fill): pieces go straight to their rows, with no copy of the whole.
   */
  public final void updateInto(MemoryReads reads, StreamParts parts, Tensor out) {
    if (GradMode.is_enabled()) {
      throw new IllegalStateException("updateInto writes without gradient; use update");
    }
    Tensor[] nodes = perNode(reads);
    long piece = pieceReads();
    if (reads.readNode().size(0) < 2 * piece) {
      perReadInto(nodes, reads, parts, 0, out);
    } else {
      inPieces(nodes, reads, parts, piece, out);
    }
  }

  private long pieceReads() {
    return Math.max(1, PIECE_BYTES / bytesPerRead());
  }

  private void inPieces(
      Tensor[] nodes, MemoryReads reads, StreamParts parts, long piece, Tensor out) {
    Tensors.fillInPieces(
        out,
        reads.readNode().size(0),
        piece,
        (index, from, n, into) ->
            perReadInto(
                nodes,
                new MemoryReads(
                    reads.memory(),
                    reads.mail(),
                    reads.readNode().narrow(0, from, n),
                    reads.sinceUpdate().narrow(0, from, n),
                    reads.sinceMail().narrow(0, from, n)),
                parts,
                index,
                into));
  }

  /** What the update computes once per distinct node of {@code reads}, for {@link #perRead}. */
  protected abstract Tensor[] perNode(MemoryReads reads);

  /**
   * The updated memory of {@code reads}' unique reads, {@code [U, dim]}, from {@code nodes} (what
   * {@link #perNode} computed for all distinct nodes); {@code piece} numbers the rows when the
   * update runs in pieces (0 otherwise), keying what is kept in {@code parts}.
   */
  protected abstract Tensor perRead(
      Tensor[] nodes, MemoryReads reads, StreamParts parts, int piece);

  /**
   * {@link #perRead}'s rows written into {@code into} ({@code [U, dim]}, rows of a larger tensor),
   * without gradient. By default computed, then copied; an updater whose last operation can write
   * its result where it belongs overrides this, which saves a pass over the rows (the copy was 3%
   * of the samples of JODIE's test pass).
   */
  protected void perReadInto(
      Tensor[] nodes, MemoryReads reads, StreamParts parts, int piece, Tensor into) {
    into.copy_(perRead(nodes, reads, parts, piece));
  }

  /** Bytes per read of the widest intermediate of {@link #perRead}. */
  protected abstract long bytesPerRead();

  /**
   * The mail rows of the distinct nodes, {@code [D, mailDim]}: the mail's content, without the
   * time-delta column a mail carries when {@code deltaInMail} (the GRU and RNN updaters read one
   * mail per node).
   */
  protected static Tensor mailContent(MemoryReads reads, int mailDim, boolean deltaInMail) {
    if (!deltaInMail) {
      return reads.mail().view(-1, mailDim);
    }
    return reads.mail().view(-1, mailDim + 1).narrow(1, 0, mailDim);
  }

  /**
   * The interval each read's update encodes, {@code [U]}: the read time minus the memory time
   * ({@link MemoryReads#sinceUpdate}, TGL's), or, when {@code deltaInMail}, the interval the node's
   * mail carries in its last column (the TGN paper's message delta t; 0 for an empty mail).
   */
  protected static Tensor timeDeltas(MemoryReads reads, int mailDim, boolean deltaInMail) {
    if (!deltaInMail) {
      return reads.sinceUpdate();
    }
    Tensor perNode = reads.mail().view(-1, mailDim + 1).select(1, mailDim); // [D]
    return perNode.index_select(0, reads.readNode()); // [U]
  }

  /**
   * {@code base + project(deltas)}, computed in place in {@code base} (the caller's own fresh
   * tensor), the projection's rows taken from {@code parts} where they hold one of equal deltas
   * (row by row; the result is the same either way).
   */
  protected final Tensor plusTimePart(
      Tensor base, StreamParts parts, int piece, Tensor deltas, Function<Tensor, Tensor> project) {
    return parts == null
        ? base.add_(project.apply(deltas))
        : parts.addRowwise(this, piece, base, deltas, project);
  }
}
